/**
 * Forks of YAML workflow runs: the engine makes the fork (what is copied is server/engine/forkPlan.ts), this front door
 * writes its own rows for it in the same transaction (the run's row, on the same definition, or the workflow's latest
 * with `version: "latest"`, and its message turn), and its projection tells the fork's first event as a "forked" turn.
 * For a workflow, what may be changed is the run's input: its message and inputs (`input: {message?, inputs?}`). Who
 * may fork is the one rule of every front door (server/forks/rule.ts).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { nameAuditTarget, noteAudit } from "../../audit/scope";
import type { Engine } from "../../engine/engine";
import type { StitchRun } from "../../engine/schemas";
import { admitOwnFork, editedInput } from "../../forks/owned";
import type { ForkBody, Forked } from "../../forks/schemas";
import type { Identity } from "../../people/schemas";
import * as store from "../store";
import { WorkflowError, yamlDefinition, yamlRun } from "./errors";

/** A YAML run's input as a fork may change it: its message, its inputs, or both. */
const WorkflowForkInput = z
  .object({
    message: z.string().max(100_000, "input.message must be at most 100000 characters").optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Where the app shows a YAML workflow run. */
export const yamlRunPath = (runId: string) => `/app/workflows/runs/${runId}`;

export class YamlForkCommands {
  constructor(private readonly engine: Engine) {}

  async fork(runId: string, body: ForkBody, caller: Identity): Promise<Forked> {
    const original = yamlRun(await this.engine.database.run((db) => store.findRun(db, runId)), runId);
    const given = editedInput(WorkflowForkInput, body.input, "a workflow run's input is {message?, inputs?}", (message) => new WorkflowError("bad_request", message));
    if (body.feedback !== undefined) throw new WorkflowError("bad_request", "feedback: a workflow's nodes take no first feedback; change the run's message or inputs instead");
    const definition = yamlDefinition(await this.engine.database.run((db) => store.forkDefinition(db, original, body.version)), original.workflow);
    const message = given.message ?? original.message;
    const inputs = given.inputs ?? original.inputs ?? null;
    const forkId = randomUUID();
    const run: StitchRun = await this.engine.fork({
      runId: original.id, nodeId: body.node_id, version: body.version, forkId, flowId: definition.flowId,
      by: caller.name === null ? null : { id: caller.accountId, name: caller.name }, owner: { kind: "yaml" }, runInput: { message, inputs },
      admit: admitOwnFork("yaml", "a YAML workflow run", caller, body.node_id, (why) => new WorkflowError("forbidden", why)),
      alongside: async (tx, id) => {
        await store.insertRun(tx, { id, definitionId: definition.id, workflow: definition.name, version: definition.version, format: "yaml", message, inputs });
        await store.insertTurns(tx, [{ runId: id, kind: "message", nodeId: null, payload: { text: message, inputs } }]);
        nameAuditTarget("run", id);
        noteAudit("forked from", `run ${original.id} at ${body.node_id}`);
        noteAudit("version", `${body.version} (v${definition.version})`);
      },
    });
    return { run, path: yamlRunPath(run.id) };
  }
}
