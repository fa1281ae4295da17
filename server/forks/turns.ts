/** What every front door's conversation shares about forks: the parent's "forked into" turns, among its own turns by time. */
import type { ForkOf } from "../engine/schemas";

/** The run's own turns with a turn for each of its forks (`forkTurn`), each at the time the fork was made. */
export function withForksInto<T extends { at: string }>(turns: readonly T[], forks: readonly ForkOf[], forkTurn: (fork: ForkOf) => T): T[] {
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
