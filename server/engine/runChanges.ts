/**
 * "Has anything changed since?" for every conversation, whichever front door tells it (the pipeline's, a YAML or step
 * workflow's, a plain flow's). An open conversation polls only its run's marker, and reads everything else it shows
 * again when the marker moves. Each front door reads its own side of the marker (its rows, cheaply) and hands it to
 * `ConversationMarkers.changes`, which adds what is kept elsewhere about the same engine run (its decisions' events,
 * its comments): the app registers those once (app.ts), for every front door.
 */
import { z } from "zod";
import type { RunStatus } from "./schemas";

/**
 * Whether anything a run's conversation shows has changed: `marker` is opaque and moves with every new turn, state,
 * decision event and comment; `active` is false once the run has completed, failed or was cancelled (nothing moves it
 * by itself any more, so a reader may stop asking); `busy` is true while machines work on it (an agent drafting, a
 * worker or a step running), so its marker moves soon by itself, and false while it waits only for people (a review,
 * an approval), who move it now and then: a reader asks often only while it is busy.
 */
export const RunChanges = z.object({ run_id: z.string(), marker: z.string(), active: z.boolean(), busy: z.boolean() });
export type RunChanges = z.infer<typeof RunChanges>;

/**
 * Whether anything a list of runs shows has changed: `marker` is opaque and moves when a run is added or changes (its
 * state, who its decision waits for); `active` is true while any run of the list can still change, `busy` while
 * machines work on any (as a run's, above).
 */
export const ListChanges = z.object({ marker: z.string(), active: z.boolean(), busy: z.boolean() });
export type ListChanges = z.infer<typeof ListChanges>;

/** Whether a run of this engine status can still change (its conversation's marker is worth polling). */
export const canStillChange = (status: RunStatus): boolean => status === "running" || status === "waiting_for_user";

/** Whether machines work on a run of this engine status (not only waiting for people): its marker moves soon by itself. */
export const isBusy = (status: RunStatus): boolean => status === "running";

/** Reads what else a run's conversation shows, kept elsewhere (its decisions' events, its comments), by engine run id. */
export type ChangeMarker = (engineRunId: string) => Promise<string>;

/** What every conversation's marker watches besides its front door's own rows: one list, shared by the front doors. */
export class ConversationMarkers {
  private readonly markers: ChangeMarker[] = [];

  /** Adds what every conversation's marker watches too (the app adds the decisions' and the comments'). */
  watchAlso(marker: ChangeMarker): void {
    this.markers.push(marker);
  }

  /** The answer to a conversation's poll: its front door's own marker, with every other one of the same engine run. */
  async changes(runId: string, own: { engineRunId: string; marker: string; active: boolean; busy: boolean }): Promise<RunChanges> {
    const others = await Promise.all(this.markers.map((marker) => marker(own.engineRunId)));
    return { run_id: runId, marker: [own.marker, ...others].join(";"), active: own.active, busy: own.active && own.busy };
  }
}
