/**
 * What people and agents may do to a pipeline run. Each command is one engine transaction on the pipeline run's
 * engine run: the engine locks its run row first (engine.ts `onRun`, the product's one lock order), then the command
 * locks the pipeline run's row, checks what the pipeline itself requires, and hands the engine its event; the
 * projection moves the run's state in that same transaction. So a callback, an approval, a rejection, a timeout and
 * a cancellation of one run never interleave, and never wait for each other in a cycle.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Executor } from "../../db/client";
import { nameAuditTarget, noteAudit } from "../audit/scope";
import { requireRoleOrStarter } from "../people/roles";
import { type DecisionHandler, admitDecider, admitDecision, unsupportedOutcome } from "../decisions/commands";
import type { Decider } from "../decisions/schemas";
import type { Engine, RunOps, StartedBy } from "../engine/engine";
import { isPlainObject, sameJson } from "../lib/json";
import { type SchemaField, schemaFields } from "../lib/schemaFields";
import { takeOpenComments } from "../review/commands";
import { diffOutputs } from "../review/diff";
import { compareClaim } from "./claimCheck";
import type { ReviewSource } from "../review/sources";
import { type EditProblem, describeEditProblems } from "../review/schemas";
import { composeFeedback } from "../review/feedback";
import { artifactSchemas, isArtifactType, parseEnvelope } from "./artifacts";
import { gateKey, workerKey } from "./definition";
import { PipelineError, runNotFound } from "./errors";
import { type AgentCallback, type AgentOutput, callOfToken } from "./protocol";
import type { PipelineQueries } from "./queries";
import { ArtifactContent, type CallbackResult, type CreateRunBody, EditedBy, type PipelineAgent, type PipelineRunView, type ReviewedOutput } from "./schemas";
import { type OutputSource, madeByOf, madeByPerson } from "./provenance";
import * as store from "./store";
import { retryRefusal } from "./status";

export const newRunId = () => `RUN_${Date.now()}${randomBytes(3).toString("hex")}`;

export class PipelineCommands {
  constructor(
    private readonly engine: Engine,
    private readonly flowId: string,
    private readonly agents: readonly PipelineAgent[],
    /** Each command that moves a run answers with the run as it now stands. */
    private readonly queries: PipelineQueries,
    /** PIPELINE_CALLBACK_SECRET: agents' callbacks must present the token of their callback_url (protocol.ts). */
    private readonly callbackSecret?: string,
  ) {}

  /** Creates the run and starts its engine run, whose first agent is called once the transaction commits. */
  async createRun(input: CreateRunBody, startedBy: StartedBy | null = null): Promise<PipelineRunView> {
    const runId = newRunId();
    nameAuditTarget("run", runId);
    await this.engine.transaction(async (ops, tx) => {
      const stitchRunId = randomUUID();
      const state = { phase: "in_progress", agent: this.agents[0]!.slug } as const;
      await store.insertRun(tx, { id: runId, domain: input.domain, brief: input.brief, state, stitchRunId, agents: this.agents });
      await ops.startRun(this.flowId, { domain: input.domain, brief: input.brief }, { runId: stitchRunId, owner: { kind: "pipeline", runId }, startedBy });
    });
    return this.queries.getRun(runId);
  }

  /**
   * With a callback secret, a callback presenting no token is refused (401) before its body is even read; whether
   * the token is the right one is `receiveCallback`'s to decide.
   */
  requireCallbackToken(token: string | undefined): void {
    if (this.callbackSecret && !token) throw new PipelineError("unauthorized", "this callback needs the token of its callback_url (?token=...)");
  }

  /**
   * An agent's output (or failure) arrives. Only the agent the run is waiting for may deliver; a repeat of the
   * stored output is answered as a duplicate and stores nothing. With a callback secret, only with the token of the
   * call it answers: another run's or agent's token, or a forged one, is refused (401) before anything is read, and
   * the token of an earlier call of the agent is refused as stale (409). The callback_url's `call` (every call has
   * one) refuses an answer to an earlier call the same way, with or without a secret.
   */
  receiveCallback(slug: string, callback: AgentCallback, token?: string, call?: number): Promise<CallbackResult> {
    this.requireCallbackToken(token);
    return this.receive(
      slug,
      callback,
      async (ops, found) => {
        if (this.callbackSecret) await this.authorizeCallback(ops, found, callback.runId, slug, token);
      },
      "callback",
      call,
    );
  }

  /**
   * A built-in agent's answer to call `call` (its Worker's attempt), performed in this server (protocol.ts
   * `performBuiltin`): no token, since it never left the server, but an answer to an earlier call, or one that comes
   * when the run no longer waits for the agent (another process answered the call first, the run was cancelled or
   * the agent retried), is dropped. Undefined when dropped.
   */
  async receiveBuiltinAnswer(slug: string, callback: AgentCallback, call: number): Promise<CallbackResult | undefined> {
    try {
      return await this.receive(slug, callback, async (ops) => {
        const calls = (await ops?.nodeRow(workerKey(slug)))?.attempt;
        if (calls !== call) throw new PipelineError("conflict", `this answers call ${call} of agent "${slug}"; the run is at call ${calls ?? 0}`);
      }, "builtin");
    } catch (error) {
      if (error instanceof PipelineError && (error.code === "conflict" || error.code === "not_found")) return undefined;
      throw error;
    }
  }

  /**
   * `source`: how the answer came (its provenance, provenance.ts). `call`: the callback_url's call number, when the
   * answer came over HTTP (the built-in agents' own answers say theirs in `authorize`).
   */
  private receive(
    slug: string, callback: AgentCallback, authorize: (ops: RunOps | undefined, run: store.PipelineRunRow | undefined) => Promise<void>, source: OutputSource, call?: number,
  ): Promise<CallbackResult> {
    return this.onRunIfAny(callback.runId, async (ops, tx, found) => {
      await authorize(ops, found);
      if (!found) throw runNotFound(callback.runId);
      const run = found;
      const agent = agentOf(run, slug);
      if (run.currentAgent !== slug) {
        throw new PipelineError("conflict", `run ${run.id} is ${run.status}; it is not waiting for agent "${slug}"${run.currentAgent ? ` but for "${run.currentAgent}"` : ""}`);
      }
      // The callback_url's `call`: an answer to a call since replaced (the brief was edited) is refused, not taken as the new call's.
      const calls = (await ops!.nodeRow(workerKey(slug)))?.attempt ?? 0;
      if (call !== undefined && call !== calls) {
        throw new PipelineError("conflict", `this callback answers an earlier call of agent "${slug}" (call ${call}); run ${run.id} now waits for the answer to call ${calls}`);
      }
      if ("failed" in callback) {
        await ops!.handle({ type: "callback", key: workerKey(slug), status: "failed", error: callback.failed });
        return { status: "ok" as const, run_id: run.id, artifact_type: agent.artifact_type, version: 0, duplicate: false };
      }
      return acceptOutput(tx, ops!, run, agent, callback.output, source);
    });
  }

  /** The token must be of this run, this agent and its current call; `run` is undefined for a run that does not exist. */
  private async authorizeCallback(ops: RunOps | undefined, run: store.PipelineRunRow | undefined, runId: string, slug: string, token: string | undefined): Promise<void> {
    const calls = run && ops ? ((await ops.nodeRow(workerKey(slug)))?.attempt ?? 0) : 0;
    const call = callOfToken(this.callbackSecret!, runId, slug, calls, token);
    if (call === undefined) throw new PipelineError("unauthorized", `the callback token is not valid for agent "${slug}" of run "${runId}"`);
    if (call !== calls) throw new PipelineError("conflict", `this callback answers an earlier call of agent "${slug}" (call ${call}); run ${runId} now waits for the answer to call ${calls}`);
  }

  /**
   * Runs `fn` on the pipeline run `runId`: the engine run's row is locked first (its id is read before, unlocked: it
   * never changes), then the pipeline run's. Unknown run: not_found.
   */
  private onRun<T>(runId: string, fn: (ops: RunOps, tx: Executor, run: store.PipelineRunRow) => Promise<T>): Promise<T> {
    return this.onRunIfAny(runId, (ops, tx, run) => {
      if (!ops || !run) throw runNotFound(runId);
      return fn(ops, tx, run);
    });
  }

  /** The same, giving `fn` no run when there is none (a callback must refuse an unknown run's forged token first). */
  private async onRunIfAny<T>(runId: string, fn: (ops: RunOps | undefined, tx: Executor, run: store.PipelineRunRow | undefined) => Promise<T>): Promise<T> {
    const stitchRunId = await this.engine.database.run((db) => store.stitchRunIdOf(db, runId));
    if (!stitchRunId) return this.engine.database.transaction((tx) => fn(undefined, tx, undefined));
    return this.engine.onRun(stitchRunId, async (ops, tx) => fn(ops, tx, await store.lockRun(tx, runId)));
  }

  /** Stores an artifact by hand or from a system fallback: the current agent's output, as if it had called back. */
  storeArtifact(runId: string, artifactType: string, output: AgentOutput): Promise<CallbackResult> {
    return this.onRun(runId, async (ops, tx, run) => {
      if (!run.currentAgent) throw new PipelineError("conflict", `run ${runId} is ${run.status}; no agent is producing an artifact`);
      const agent = agentOf(run, run.currentAgent);
      // Stored under the current agent's artifact type, as the pipeline always has; the requested name is kept, not lost.
      const kept = artifactType === agent.artifact_type ? output : { ...output, metadata: { ...(output.metadata ?? {}), requested_artifact_type: artifactType } };
      return acceptOutput(tx, ops, run, agent, kept, "manual");
    });
  }

  /**
   * Approves the output waiting for review: the next agent starts, or the run completes after the last one. The
   * reviewer's comment (a blank one is none) is kept on the approval's turn and on the request's audit entry.
   */
  async approve(runId: string, by: Decider, expected?: ReviewedOutput, comment?: string): Promise<PipelineRunView> {
    const said = comment?.trim() || undefined;
    await this.onRun(runId, async (ops, tx, run) => {
      const latest = await checkWaiting(tx, run, "approve", expected);
      noteReviewedStep(run, latest);
      if (said) noteAudit("comment", said);
      // Several approvers needed: this one is recorded, and the output waits for the next.
      if (!(await admitDecision(tx, ops.id, gateKey(run.currentAgent!), by, "approve"))) return;
      await ops.handle({ type: "review", key: gateKey(run.currentAgent!), decision: "approve", ...(said ? { feedback: said } : {}) }, by.name);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Rejects the output waiting for review: the same agent runs again with its last output, the feedback and the open
   * comments on parts of it (structured feedback: `comments`, and listed in the feedback text for agents that read only
   * that). Feedback may be empty when comments say what should change; with neither, nothing is sent (400).
   */
  async reject(runId: string, feedback: string, by: Decider, expected?: ReviewedOutput): Promise<PipelineRunView> {
    await this.onRun(runId, async (ops, tx, run) => {
      const latest = await checkWaiting(tx, run, "reject", expected);
      noteReviewedStep(run, latest);
      await admitDecision(tx, ops.id, gateKey(run.currentAgent!), by, "request_changes");
      const comments = await takeOpenComments(tx, { engine_run_id: ops.id, node_id: gateKey(run.currentAgent!) }, latest?.version ?? 1);
      if (feedback.trim() === "" && comments.length === 0) {
        throw new PipelineError("unprocessable", "feedback: say what should change, or comment on a part of the output before requesting changes");
      }
      const text = composeFeedback(feedback, comments);
      noteAudit("feedback", text);
      await ops.handle({ type: "review", key: gateKey(run.currentAgent!), decision: "reject", feedback: text, ...(comments.length ? { comments } : {}) }, by.name);
    });
    return this.queries.getRun(runId);
  }

  /**
   * A reviewer's own version of the output waiting for review (`output`: the artifact, checked against its type's
   * schema): stored as a new version authored by her, never over the agent's, and the one she then approves; the next
   * agent and the export read it. Only whoever may take the review may edit it, and only the version she read.
   */
  async editOutput(runId: string, output: unknown, by: Decider, note?: string, expected?: ReviewedOutput): Promise<CallbackResult> {
    return this.onRun(runId, async (ops, tx, run) => {
      const latest = await checkWaiting(tx, run, "edit", expected);
      if (!(await admitDecider(tx, ops.id, gateKey(run.currentAgent!), by))) throw new PipelineError("conflict", `run ${runId} has no review waiting to edit`);
      const agent = agentOf(run, run.currentAgent!);
      const problems = artifactEditProblems(agent.artifact_type, output);
      if (problems.length > 0) throw new PipelineError("bad_request", `output: not a valid ${agent.artifact_type} artifact: ${describeEditProblems(problems)}`);
      const previous = latest?.content ?? {};
      const before = isPlainObject(previous) && "artifact" in previous ? previous.artifact : previous;
      if (sameJson(before, output)) throw new PipelineError("bad_request", `output: it is the same as ${agent.name} v${latest?.version ?? 0}; change something before saving`);
      const { changes } = diffOutputs(before, output);
      const who = by.name ?? "a reviewer";
      const content = {
        ...(isPlainObject(previous) ? previous : {}), artifact: output,
        changes_made: { added: [], removed: [], modified: changes.map((c) => `${c.anchor}: ${c.kind}`) },
        justification: `Edited by ${who}${note?.trim() ? `: ${note.trim()}` : ""}.`,
      };
      const version = (latest?.version ?? 0) + 1;
      const metadata = {
        edited_by: EditedBy.parse({ id: by.accountId, name: who }), made_by: madeByPerson(who), revises: latest?.version ?? null, ...(note?.trim() ? { note: note.trim() } : {}),
      };
      const artifactId = await store.insertArtifact(tx, { runId: run.id, artifactType: agent.artifact_type, version, content, metadata });
      await store.insertTurns(tx, [{ runId: run.id, kind: "artifact", agent: agent.slug, actor: who, payload: { artifact_id: artifactId, version } }]);
      return { status: "ok" as const, run_id: run.id, artifact_type: agent.artifact_type, version, duplicate: false };
    });
  }

  /**
   * Stops the run for good: the agent at work or the output waiting for review is cancelled, nothing more is sent,
   * and a late callback from the agent is refused. An operator may cancel any run, the analyst who submitted it her
   * own (recorded as hers). The engine decides: a finished run has nothing to cancel (409), and cancelling a cancelled
   * run again is a duplicate that changes nothing.
   */
  async cancel(runId: string, reason: string | undefined, by: Decider): Promise<PipelineRunView> {
    await this.onRun(runId, (ops) => {
      requireRoleOrStarter(by, ops.startedBy, "operator");
      if (reason?.trim()) noteAudit("reason", reason.trim());
      return ops.cancel(reason, by.name);
    });
    return this.queries.getRun(runId);
  }

  /**
   * The submitter's new brief, while no output of the run has been approved: kept as a new version of the brief (the
   * conversation keeps the one it replaces), and the first agent starts over with it. Its call in flight is
   * withdrawn (a new call: a late answer to the old one is refused by its call number), and an output of it waiting
   * for review is set aside (its decision is cancelled). Whoever may cancel the run may do this.
   */
  async editBrief(runId: string, brief: string, by: Decider): Promise<PipelineRunView> {
    const text = brief.trim();
    await this.onRun(runId, async (ops, tx, run) => {
      requireRoleOrStarter(by, ops.startedBy, "operator");
      if (run.phase === "completed" || run.phase === "cancelled") throw new PipelineError("conflict", `run ${runId} is ${run.status}; its brief can no longer change`);
      if (await store.hasApproval(tx, run.id)) {
        throw new PipelineError("conflict", `an output of run ${runId} has been approved; its brief can no longer change (cancel the run and submit a new brief)`);
      }
      if (text === run.brief.trim()) throw new PipelineError("bad_request", "brief: it is the brief the run already has; change something before restarting");
      const first = run.agents[0]!;
      await store.updateBrief(tx, run.id, text);
      noteAudit("brief", text);
      await store.insertTurns(tx, [{ runId: run.id, kind: "brief_edited", agent: null, actor: by.name, payload: { brief: text, previous: run.brief } }]);
      await ops.handle({ type: "restart", key: workerKey(first.slug) }, by.name);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Calls a failed agent again (its webhook was unreachable, it timed out or it reported a failure), or one in
   * progress for longer than AGENT_STUCK_AFTER_MS (status.ts `retryRefusal`): its call is failed first ("given up"),
   * so an answer to it that comes later is refused as an earlier call's, and the agent is called anew.
   */
  async retry(runId: string, actor: string | null): Promise<PipelineRunView> {
    await this.onRun(runId, async (ops, tx, run) => {
      const calledAt = run.currentAgent ? await store.agentCalledAt(tx, run.id, run.currentAgent) : undefined;
      const refusal = retryRefusal(run, calledAt, this.queries.stuckAfterMs);
      if (refusal) throw new PipelineError("conflict", refusal);
      const key = workerKey(run.currentAgent!);
      if (!run.failure) {
        const node = await ops.nodeRow(key);
        const minutes = Math.round((Date.now() - (calledAt?.getTime() ?? Date.now())) / 60_000);
        const error = `given up after ${minutes} min in progress and retried${actor ? ` by ${actor}` : ""}`;
        const given = await ops.handle({ type: "delivery_failed", key, attempt: node?.attempt ?? 0, error }, actor);
        if (given.duplicate) throw new PipelineError("conflict", `run ${runId}: agent "${run.currentAgent}" is between attempts; try again in a moment`);
      }
      await ops.handle({ type: "retry", key }, actor);
    });
    return this.queries.getRun(runId);
  }
}

/**
 * Checks that the run's output waits for review. `expected` names the output the reviewer read: a decision on another
 * one (someone else moved the run on) is refused rather than landing on an output the reviewer never saw.
 */
async function checkWaiting(tx: Executor, run: store.PipelineRunRow, action: string, expected?: ReviewedOutput): Promise<{ version: number; content: unknown } | undefined> {
  if (!run.isWaitingForUser || !run.currentAgent) {
    throw new PipelineError("conflict", `run ${run.id} is ${run.status}; there is no output waiting for approval to ${action}`);
  }
  const agent = agentOf(run, run.currentAgent);
  const latest = await store.latestArtifact(tx, run.id, agent.artifact_type);
  if (expected) {
    if (expected.agent !== agent.slug || expected.version !== latest?.version) {
      throw new PipelineError(
        "conflict",
        `you reviewed ${expected.agent} v${expected.version}, but the output waiting now is ${agent.name} v${latest?.version ?? 0}; read it before you ${action}`,
      );
    }
  }
  return latest;
}

/** The audit entry of a decision names the step and the version decided on ("step: Requirements v2"), whatever else is said. */
function noteReviewedStep(run: store.PipelineRunRow, latest: { version: number } | undefined): void {
  noteAudit("step", `${agentOf(run, run.currentAgent!).name} v${latest?.version ?? 0}`);
}

function agentOf(run: store.PipelineRunRow, slug: string): PipelineAgent {
  const agent = run.agents.find((a) => a.slug === slug);
  if (!agent) throw new PipelineError("not_found", `no agent "${slug}" in the pipeline of run ${run.id}`);
  return agent;
}

/**
 * Stores a new version of the agent's artifact and completes its Worker, in the caller's transaction. A content
 * equal to the latest stored version is a repeat (n8n retries echo no attempt number) and stores nothing.
 */
async function acceptOutput(tx: Executor, ops: RunOps, run: store.PipelineRunRow, agent: PipelineAgent, output: AgentOutput, source: OutputSource): Promise<CallbackResult> {
  const latest = await store.latestArtifact(tx, run.id, agent.artifact_type);
  const answer = (version: number, duplicate: boolean): CallbackResult => ({ status: "ok", run_id: run.id, artifact_type: agent.artifact_type, version, duplicate });
  if (latest && sameJson(latest.content, output.content)) return answer(latest.version, true);
  const result = await ops.handle({ type: "callback", key: workerKey(agent.slug), status: "completed", output: output.content });
  if (result.duplicate) return answer(latest?.version ?? 0, true);
  const version = (latest?.version ?? 0) + 1;
  // Agents' shapes vary in the field: an output that does not fit its schema is kept (the reviewer decides), with
  // the mismatch recorded so the reviewer sees it.
  const check = isArtifactType(agent.artifact_type) ? parseEnvelope(agent.artifact_type, output.content) : undefined;
  // What made it is the pipeline's to say (provenance.ts), whatever the agent's own metadata claims.
  const madeBy = madeByOf(agent, source, output.metadata);
  const metadata = { ...(output.metadata ?? {}), made_by: madeBy, ...(check && !check.success ? { schema_issues: check.error } : {}) };
  const artifactId = await store.insertArtifact(tx, { runId: run.id, artifactType: agent.artifact_type, version, content: output.content, metadata });
  await store.insertTurns(tx, [{ runId: run.id, kind: "artifact", agent: agent.slug, payload: { artifact_id: artifactId, version } }]);
  return answer(version, false);
}

/** How the decisions of pipeline runs are taken from the inbox (`POST /api/decisions/{id}/decide`) and by their deadlines. */
export function pipelineDecisionHandler(commands: PipelineCommands): DecisionHandler {
  return {
    async decide(decision, body, by) {
      if (body.outcome === "approve") await commands.approve(decision.run_id, by, undefined, body.comment);
      else if (body.outcome === "request_changes" || body.outcome === "reject") await commands.reject(decision.run_id, body.comment ?? "", by);
      else throw unsupportedOutcome(decision, ["approve", "request_changes"]);
    },
    async cancel(decision, reason, by) {
      await commands.cancel(decision.run_id, reason, by);
    },
  };
}

/** How inline review reads the versions of a pipeline review's artifact, and saves a reviewer's edit as one. */
/** What keeps a person's edit from being an artifact of `artifactType` (its type's schema): one problem per field. */
export function artifactEditProblems(artifactType: string, output: unknown): EditProblem[] {
  const schema = isArtifactType(artifactType) ? artifactSchemas[artifactType] : ArtifactContent;
  const checked = schema.safeParse(output);
  return checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

/** The fields an artifact type's schema names, read once per type. */
const fieldsByType = new Map<string, SchemaField[]>();
function artifactFields(artifactType: string): SchemaField[] {
  let fields = fieldsByType.get(artifactType);
  if (!fields) fieldsByType.set(artifactType, (fields = schemaFields(isArtifactType(artifactType) ? artifactSchemas[artifactType] : ArtifactContent)));
  return fields;
}

export function pipelineReviewSource(commands: PipelineCommands, queries: PipelineQueries): ReviewSource {
  return {
    versions: (decision) => queries.reviewVersions(decision),
    fields: (read) => artifactFields(read.artifactType ?? ""),
    editProblems: (read, output) => artifactEditProblems(read.artifactType ?? "", output),
    claimMismatches: compareClaim,
    async edit(decision, body, by) {
      await commands.editOutput(decision.run_id, body.output, by, body.note);
    },
  };
}
