/**
 * How often what shows runs is read again, in one place for every page: often while machines work on a run (an agent
 * drafting, a worker or a step running: it moves soon by itself), now and then while it only waits for people (a
 * review, an approval: they move it seldom, and the person on the page moves it through the page, which reads it again
 * at once), never once it has ended. A list of runs is read as its busiest run asks, and now and then when none can
 * change any more (others start runs too). One run's page polls only its change marker (lib/runChanges.ts).
 */

/** What a run (or the busiest run of a list) is doing, as far as reading it again goes. */
export type Liveliness = "busy" | "waiting" | "ended";

/** A run's, or a list's, `refetchInterval` for what it is doing. */
export const pollEvery = { busy: 1500, waiting: 5000, ended: false } as const satisfies Record<Liveliness, number | false>;

/** A list's `refetchInterval`: as its busiest run asks, or now and then when none can change any more. */
export const listPollEvery = { busy: 2500, waiting: 10_000, ended: 15_000 } as const satisfies Record<Liveliness, number>;

/** The busiest of several: busy if any is, waiting if any is, else ended. */
export function busiest(each: readonly Liveliness[]): Liveliness {
  return each.includes("busy") ? "busy" : each.includes("waiting") ? "waiting" : "ended";
}

/**
 * What a run of this status is doing: the engine's run statuses, which every front door's runs share (a step run is
 * never waiting for a person, a YAML workflow's or a flow's may be).
 */
export function livelinessOfStatus(status: string): Liveliness {
  return status === "running" ? "busy" : status === "waiting_for_user" ? "waiting" : "ended";
}

/** The `refetchInterval` of a query of recent runs: as its busiest run's status asks. */
export function pollRunList(query: { state: { data?: readonly { status: string }[] } }): number {
  return listPollEvery[busiest((query.state.data ?? []).map((run) => livelinessOfStatus(run.status)))];
}
