/**
 * What the front doors that fork their own runs (a YAML workflow's, a step workflow's) share: the edited input read
 * with the door's schema, and the check of the locked original before the fork writes anything (the run is the
 * door's, and the one fork rule lets the caller).
 */
import type { z } from "zod";
import { nodesWaitingFor } from "../decisions/commands";
import { EngineError, type ForkRequest, type RunOwnerKind } from "../engine/engine";
import type { Identity } from "../people/schemas";
import { whyNotFork } from "./rule";

/** The fork's `input` read with the door's `schema`; `refuse` answers 400 with where and why, `shape` saying what the input is. */
export function editedInput<T>(schema: z.ZodType<T>, input: unknown, shape: string, refuse: (message: string) => Error): T {
  const edited = schema.safeParse(input ?? {});
  if (edited.success) return edited.data;
  const issue = edited.error.issues[0]!;
  throw refuse(`input${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${shape}: ${issue.message}`);
}

/**
 * The fork's `admit` for a door's own run: refused (409) when the locked original is not `door`'s, and (403, through
 * `forbidden`) unless the fork rule lets `caller` fork it at `nodeId`. `shownId`: the run's id as the door shows it (a
 * pipeline's RUN_...), named in a refusal; the engine run's own otherwise.
 */
export function admitOwnFork(
  door: RunOwnerKind, what: string, caller: Identity, nodeId: string, forbidden: (why: string) => Error, shownId?: string,
): NonNullable<ForkRequest["admit"]> {
  return async (tx, locked, graph) => {
    if (locked.owner?.front_door !== door) throw new EngineError("conflict", `run ${locked.id} is not ${what}`);
    const waitingForCaller = caller.role === "operator" ? [] : await nodesWaitingFor(tx, locked.id, caller);
    const why = whyNotFork({ caller, runId: shownId ?? locked.id, startedBy: locked.startedBy, nodeId, graph, waitingForCaller });
    if (why) throw forbidden(why);
  };
}
