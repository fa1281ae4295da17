/** What every front door's conversation shares about forks: the parent's "forked into" turns, among its own turns by time. */

/** The run's own turns with a turn for each of its forks (`forkTurn`, forks in the order they were made), each at the time it was made. */
export function withForksInto<T extends { at: string }, F extends { at: string }>(turns: readonly T[], forks: readonly F[], forkTurn: (fork: F) => T): T[] {
  if (forks.length === 0) return [...turns];
  const told = forks.map(forkTurn);
  const merged: T[] = [];
  let next = 0;
  for (const turn of turns) {
    while (next < told.length && Date.parse(told[next]!.at) < Date.parse(turn.at)) merged.push(told[next++]!);
    merged.push(turn);
  }
  return [...merged, ...told.slice(next)];
}
