/**
 * Forks of step workflow runs ("Re-run from here" at a step): the engine makes the fork (what is copied is
 * server/engine/forkPlan.ts), this front door writes its own rows for it in the same transaction, through the workflow
 * tables' store: the run's row (on the same definition, or the workflow's latest with `version: "latest"`, its steps
 * matched by id) and its first turn, the "forked" turn naming the run, the step and who forked. What may be changed
 * is the run's inputs (`input: {inputs?}`), checked against the definition the fork runs as a new run's are. A step
 * calls a tool, which takes no feedback: a `feedback` is refused. Who may fork is the one rule of every front door
 * (server/forks/rule.ts); the steps' projection does not tell the copied steps again.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { nameAuditTarget, noteAudit } from "../../audit/scope";
import type { Engine } from "../../engine/engine";
import { admitOwnFork, editedInput } from "../../forks/owned";
import type { ForkBody, Forked } from "../../forks/schemas";
import type { Identity } from "../../people/schemas";
import * as store from "../store";
import { InvalidInputs, StepWorkflowError, stepDefinition, stepRun } from "./errors";
import { TURN } from "./projection";
import { checkInputs } from "./validate";

/** A step run's input as a fork may change it: its inputs (absent: the original's). */
const StepForkInput = z.object({ inputs: z.record(z.string(), z.unknown(), { error: "inputs must be an object of input values" }).optional() }).strict();

/** Where the app shows a step workflow run. */
export const stepRunPath = (runId: string) => `/app/steps/runs/${runId}`;

export class StepForkCommands {
  constructor(private readonly engine: Engine) {}

  /**
   * Forks step run `runId` at step `body.node_id`, as `caller`: 400 for an input other than `{inputs?}`, inputs that do
   * not fit the definition the fork runs, or a feedback; 403 unless the fork rule lets her; the engine's refusals
   * (404 an unknown step, 409 a step that never ran, `latest` lacking a step it would copy). A refusal stores nothing.
   */
  async fork(runId: string, body: ForkBody, caller: Identity): Promise<Forked> {
    const original = stepRun(await this.engine.database.run((db) => store.findRun(db, runId)), runId);
    const edited = editedInput(StepForkInput, body.input, "a step workflow run's input is {inputs?}", (message) => new StepWorkflowError("bad_request", message));
    if (body.feedback !== undefined) throw new StepWorkflowError("bad_request", "feedback: a step calls a tool, which takes no feedback; change the run's inputs instead");
    const definition = stepDefinition(await this.engine.database.run((db) => store.forkDefinition(db, original, body.version)), original.workflow);
    const inputs = edited.inputs ?? original.inputs ?? {};
    const problems = checkInputs(definition.definition, inputs);
    if (problems.length > 0) throw new InvalidInputs(definition.name, problems);
    const actor = caller.name;
    const run = await this.engine.fork({
      runId: original.id, nodeId: body.node_id, version: body.version, forkId: randomUUID(), flowId: definition.flowId,
      by: actor === null ? null : { id: caller.accountId, name: actor }, owner: { kind: "steps" }, runInput: { inputs },
      // Lock order: the engine has locked the original's engine row first (Engine.fork); this front door's rows follow.
      admit: admitOwnFork("steps", "a step workflow run", caller, body.node_id, (why) => new StepWorkflowError("forbidden", why)),
      // The fork's own rows, written before its first event (whose projection reads the run row): its run and its first turn.
      alongside: async (tx, id) => {
        await store.insertRun(tx, { id, definitionId: definition.id, workflow: definition.name, version: definition.version, format: "steps", message: "", inputs });
        const payload = { from_run_id: original.id, version: body.version, inputs, edited: edited.inputs !== undefined };
        await store.insertTurns(tx, [{ runId: id, kind: TURN.forked, nodeId: body.node_id, payload, actor }]);
        nameAuditTarget("run", id);
        noteAudit("forked from", `run ${original.id} at ${body.node_id}`);
        noteAudit("version", `${body.version} (v${definition.version})`);
        if (edited.inputs !== undefined) noteAudit("inputs", JSON.stringify(inputs));
      },
    });
    return { run, path: stepRunPath(run.id) };
  }
}
