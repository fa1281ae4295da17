/**
 * Forks of pipeline runs: the engine makes the fork (what is copied is server/engine/forkPlan.ts), and this front door
 * writes its own rows in the same transaction: the fork's pipeline run, its parent's artifact versions of the agents
 * before the one it restarts at (every version, numbered as they were, each "copied from RUN_... vN"), the approvals
 * of those versions (who decided and when, "decided in RUN_..."), and the fork's first turn. Who may fork is the one
 * rule of every front door (server/forks/rule.ts).
 *
 * What may change: the brief the fork's agents read, the context the chosen agent starts from (a new version of an
 * earlier agent's artifact it reads, checked against its type's schema, made by the person forking), and a first
 * feedback to the chosen agent (it then revises its parent's latest output with that feedback, as after a rejection).
 * Forking at an agent's review gate (`review_<slug>`) copies its output too and asks its review anew.
 *
 * Lock order: the engine locks the parent's engine run first (Engine.fork); the parent's pipeline rows are only read,
 * and the fork's are new (no other transaction can wait for them).
 */
import { z } from "zod";
import type { Executor } from "../../db/client";
import { nameAuditTarget, noteAudit } from "../audit/scope";
import type { Decider } from "../decisions/schemas";
import type { Engine } from "../engine/engine";
import { admitOwnFork, editedInput } from "../forks/owned";
import type { ForkBody, Forked } from "../forks/schemas";
import { isPlainObject, sameJson } from "../lib/json";
import type { Identity } from "../people/schemas";
import { describeEditProblems } from "../review/schemas";
import { artifactEditProblems, newRunId } from "./commands";
import { gateKey, workerKey } from "./definition";
import { PipelineError } from "./errors";
import { madeByPerson } from "./provenance";
import { EditedBy, type PipelineAgent } from "./schemas";
import * as store from "./store";

/** What a fork of a pipeline run may change besides the first feedback: the brief, and the chosen agent's context. */
const PipelineForkInput = z
  .object({
    brief: z.string().trim().min(1, "input.brief must not be blank; leave it out to keep the parent's").max(100_000, "input.brief must be at most 100000 characters").optional(),
    context: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe("Earlier agents' artifacts as the chosen agent is to read them, by artifact type: each becomes a new version in the fork."),
  })
  .strict();

/** Where the app shows a pipeline run. */
export const pipelineRunPath = (runId: string) => `/app/runs/${runId}`;

/** The node a fork is asked at: `agent_<slug>`, `review_<slug>` or an agent's slug alone (its agent node). */
function chosenNode(agents: readonly PipelineAgent[], nodeId: string): { agent: PipelineAgent; node: string; atReview: boolean } {
  for (const agent of agents) {
    if (nodeId === workerKey(agent.slug) || nodeId === agent.slug) return { agent, node: workerKey(agent.slug), atReview: false };
    if (nodeId === gateKey(agent.slug)) return { agent, node: gateKey(agent.slug), atReview: true };
  }
  throw new PipelineError("not_found", `node_id: the pipeline has no node "${nodeId}"; fork at an agent (${agents.map((a) => `"${workerKey(a.slug)}"`).join(", ")}) or its review ("review_<slug>")`);
}

export class PipelineForkCommands {
  constructor(
    private readonly engine: Engine,
    /** The pipeline in force now, and its flow: what `version: "latest"` runs. */
    private readonly current: { flowId: string; agents: readonly PipelineAgent[] },
  ) {}

  /** Forks the pipeline run whose engine run is `stitchRunId` (or whose own id is a `RUN_...`). */
  async fork(stitchRunId: string, body: ForkBody, caller: Identity): Promise<Forked> {
    const parent = await this.engine.database.run((db) => store.findRunByStitchRun(db, stitchRunId));
    if (!parent) throw new PipelineError("not_found", `no pipeline run has engine run "${stitchRunId}"`);
    const edited = editedInput(PipelineForkInput, body.input, "a pipeline run's input is {brief?, context?}", (message) => new PipelineError("bad_request", message));
    const agents = body.version === "latest" ? this.current.agents : parent.agents;
    const chosen = chosenNode(agents, body.node_id);
    if (body.feedback !== undefined && chosen.atReview) {
      throw new PipelineError("bad_request", `feedback: "${chosen.node}" is ${chosen.agent.name}'s review, which takes no feedback; fork at "${workerKey(chosen.agent.slug)}" to send the agent one`);
    }
    const context = edited.context ?? {};
    for (const [type, artifact] of Object.entries(context)) {
      const earlier = agents.find((a) => a.artifact_type === type);
      if (!earlier || earlier.order >= chosen.agent.order || !chosen.agent.context.includes(type)) {
        throw new PipelineError("bad_request", `input.context.${type}: ${chosen.agent.name} reads ${chosen.agent.context.filter((k) => k !== "domain" && k !== "brief").map((k) => `"${k}"`).join(", ") || "no earlier artifact"}; only those may be edited`);
      }
      const problems = artifactEditProblems(type, artifact);
      if (problems.length > 0) throw new PipelineError("bad_request", `input.context.${type}: not a valid ${type} artifact: ${describeEditProblems(problems)}`);
    }
    const brief = edited.brief ?? parent.brief;
    const forkRunId = newRunId();
    const who: Decider = { accountId: caller.accountId, name: caller.name, role: caller.role };
    const run = await this.engine.fork({
      runId: stitchRunId, nodeId: chosen.node, version: body.version, ...(body.version === "latest" ? { flowId: this.current.flowId } : {}),
      by: caller.name === null ? null : { id: caller.accountId, name: caller.name }, owner: { kind: "pipeline", runId: forkRunId },
      runInput: { domain: parent.domain, brief }, ...(body.feedback !== undefined ? { feedback: body.feedback } : {}),
      admit: admitOwnFork("pipeline", "a pipeline run", caller, chosen.node, (why) => new PipelineError("forbidden", why), parent.id),
      alongside: async (tx, forkId) => {
        await store.insertRun(tx, { id: forkRunId, domain: parent.domain, brief, state: { phase: "in_progress", agent: chosen.agent.slug }, stitchRunId: forkId, agents });
        await store.insertTurns(tx, [
          { runId: forkRunId, kind: "forked", agent: chosen.agent.slug, actor: caller.name, payload: { from_run_id: parent.id, node_id: chosen.node, feedback: body.feedback ?? null } },
        ]);
        if (brief !== parent.brief) {
          await store.insertTurns(tx, [{ runId: forkRunId, kind: "brief_edited", agent: null, actor: caller.name, payload: { brief, previous: parent.brief } }]);
          noteAudit("brief", brief);
        }
        // The agents before the chosen one keep their outputs; the chosen one's too when it is reviewed anew, or
        // revised with a first feedback (its parent's latest output is what it revises).
        const kept = agents.filter((a) => a.order < chosen.agent.order || (a.slug === chosen.agent.slug && (chosen.atReview || body.feedback !== undefined)));
        await copyOutputs(tx, parent, forkRunId, kept, chosen.agent.slug);
        for (const [type, artifact] of Object.entries(context)) await storeEditedContext(tx, forkRunId, agents.find((a) => a.artifact_type === type)!, artifact, who);
        nameAuditTarget("run", forkRunId);
        noteAudit("forked from", `run ${parent.id} at ${chosen.node}`);
        noteAudit("version", body.version);
        if (body.feedback !== undefined) noteAudit("feedback", body.feedback);
      },
    });
    return { run, path: pipelineRunPath(forkRunId) };
  }
}

/**
 * The fork's copies of the parent's outputs of `kept` agents, each told once in the fork's conversation: the latest
 * version (an artifact turn) and the approvals it had, with who decided, when, and in which run. The approvals of the
 * agent the fork restarts at are not copied: its decision is asked anew.
 */
async function copyOutputs(tx: Executor, parent: store.PipelineRunRow, forkRunId: string, kept: readonly PipelineAgent[], restartedAt: string): Promise<void> {
  const copies = await store.copyArtifacts(tx, parent.id, forkRunId, kept.map((a) => a.artifact_type));
  const turns = await store.listTurns(tx, parent.id);
  const told: store.NewTurn[] = [];
  for (const agent of kept) {
    const latest = copies.filter((a) => a.artifactType === agent.artifact_type).at(-1);
    if (!latest) continue;
    told.push({ runId: forkRunId, kind: "artifact", agent: agent.slug, actor: null, payload: { artifact_id: latest.id, version: latest.version } });
    if (agent.slug === restartedAt) continue;
    // The approvals after the agent's last output in the parent: those of the version copied.
    const lastOutput = turns.findLastIndex((t) => t.agent === agent.slug && t.kind === "artifact");
    for (const turn of turns.slice(lastOutput + 1)) {
      if (turn.agent !== agent.slug || turn.kind !== "approved") continue;
      const at = new Date(turn.createdAt).toISOString();
      told.push({ runId: forkRunId, kind: "approved", agent: agent.slug, actor: turn.actor, payload: { comment: turn.payload.comment, decided_in: turn.payload.decided_in ?? { run_id: parent.id, at } } });
    }
  }
  await store.insertTurns(tx, told);
}

/** An earlier agent's artifact as the person forking edited it for the chosen agent: a new version in the fork, hers. */
async function storeEditedContext(tx: Executor, forkRunId: string, agent: PipelineAgent, artifact: Record<string, unknown>, by: Decider): Promise<void> {
  const latest = await store.latestArtifact(tx, forkRunId, agent.artifact_type);
  const previous = isPlainObject(latest?.content) ? latest.content : {};
  if (sameJson("artifact" in previous ? previous.artifact : previous, artifact)) return;
  const who = by.name ?? "the person forking";
  const version = (latest?.version ?? 0) + 1;
  const content = { ...previous, artifact, justification: `Edited by ${who} when forking.` };
  const metadata = { edited_by: EditedBy.parse({ id: by.accountId, name: who }), made_by: madeByPerson(who), revises: latest?.version ?? null, note: "edited when forking" };
  const artifactId = await store.insertArtifact(tx, { runId: forkRunId, artifactType: agent.artifact_type, version, content, metadata });
  await store.insertTurns(tx, [{ runId: forkRunId, kind: "artifact", agent: agent.slug, actor: who, payload: { artifact_id: artifactId, version } }]);
}
