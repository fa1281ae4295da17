/**
 * Cycles in a graph of dependencies, found one way for the whole product: the engine's flow graphs, YAML workflows'
 * `depends_on` and step workflows' order all name theirs with `findCycles`. Pure, and generic in what a node is
 * (an id, a step's index).
 */

/** Every node `start` leads to along `next`, directly or through others (`start` itself only when a cycle returns to it). */
export function reachableFrom<T>(start: T, next: ReadonlyMap<T, readonly T[]>): Set<T> {
  const seen = new Set<T>();
  const stack = [...(next.get(start) ?? [])];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(next.get(node) ?? []));
  }
  return seen;
}

/** The shortest walk along `next` from `start` back to it (`[start, ..., start]`), if there is one; ties go to the edge listed first. */
function shortestWalkBack<T>(start: T, next: ReadonlyMap<T, readonly T[]>): T[] | undefined {
  const cameFrom = new Map<T, T>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const to of next.get(at) ?? []) {
      if (to === start) {
        const walk = [start];
        for (let back: T | undefined = at; back !== undefined && back !== start; back = cameFrom.get(back)) walk.splice(1, 0, back);
        return [...walk, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, at);
        queue.push(to);
      }
    }
  }
  return undefined;
}

/**
 * The cycles among `order`'s nodes: one per group of nodes that lead to each other, as the shortest walk from the
 * group's first node in `order` back to it (`[a, b, a]`; a node that leads to itself directly is `[a, a]`), in the
 * order of those first nodes. So each cycle is reported once, where a reader of `order` meets it first.
 */
export function findCycles<T>(order: readonly T[], next: ReadonlyMap<T, readonly T[]>): T[][] {
  const cycles: T[][] = [];
  const reported = new Set<T>();
  for (const start of order) {
    if (reported.has(start)) continue;
    const walk = shortestWalkBack(start, next);
    if (!walk) continue;
    cycles.push(walk);
    // Every node on a cycle with `start` belongs to its group: one report for the group.
    for (const node of reachableFrom(start, next)) if (reachableFrom(node, next).has(start)) reported.add(node);
  }
  return cycles;
}
