/**
 * The agent pipeline on the engine: a run is an engine run of the pipeline flow; agent outputs are versioned
 * artifacts; approve and reject are review-gate events. Every operation is one transaction that locks the
 * pipeline run, so a callback, an approval and a rejection of one run never interleave.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { pipelineAgents, pipelineArtifacts, pipelineEvents, pipelineRuns, type PipelineRunRow } from "../../db/schema";
import { type Engine, EngineError, type EngineOps, type RunTransition } from "../engine/engine";
import { flowIdFor, gateKey, pipelineGraph, workerKey } from "./definition";
import { isArtifactType, parseEnvelope } from "./artifacts";
import { buildBundle } from "./export/bundle";
import type { AgentRef, ArtifactVersion, ReviewedOutput, Conversation, ConversationMessage, ExportPayload, PipelineAgent, PipelineRunView, RunSummary } from "./schemas";

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const upper = (slug: string) => slug.toUpperCase();

/** JSON with object keys sorted: JSONB does not keep key order, so equality is checked on this form. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function exportOf(runId: string, latest: readonly ArtifactVersion[], now: Date): ExportPayload {
  return {
    run_id: runId,
    exported_at: now.toISOString(),
    artifacts: latest.map((a) => ({
      artifact_type: a.artifact_type, version: a.version, created_at: a.created_at,
      artifact: "artifact" in a.content ? a.content.artifact : a.content,
    })),
  };
}

export const newRunId = () => `RUN_${Date.now()}${randomBytes(3).toString("hex")}`;

const agentRef = (agent: PipelineAgent): AgentRef => ({ slug: agent.slug, name: agent.name, order: agent.order, artifact_type: agent.artifact_type });

export interface AgentOutput {
  content: Record<string, unknown>;
  metadata?: Record<string, unknown> | null;
}

export interface CallbackResult {
  status: "ok";
  run_id: string;
  artifact_type: string;
  version: number;
  duplicate: boolean;
}

export class PipelineService {
  readonly flowId: string;

  private readonly graph: ReturnType<typeof pipelineGraph>;

  constructor(
    private readonly engine: Engine,
    readonly agents: readonly PipelineAgent[],
    private readonly baseUrl: string,
    agentTimeoutMs: number,
  ) {
    this.graph = pipelineGraph(agents, agentTimeoutMs);
    this.flowId = flowIdFor(this.graph);
  }

  /** Stores the definition in force and its flow (seed: `seed_agents()` at start-up), and starts projecting engine events. */
  async install(): Promise<void> {
    await this.engine.ensureFlow(this.flowId, "agent pipeline", this.graph);
    await this.engine.database.transaction(async (tx) => {
      await tx.delete(pipelineAgents);
      await tx.insert(pipelineAgents).values(
        this.agents.map((a) => ({
          slug: a.slug, name: a.name, order: a.order, artifactType: a.artifact_type, webhookUrl: a.webhook_url,
          webhookPath: a.webhook_path ?? null, context: a.context, builtin: a.builtin,
        })),
      );
    });
    this.engine.observe((tx, transition) => this.project(tx, transition));
  }

  listAgents(): PipelineAgent[] {
    return [...this.agents];
  }

  // ---- Commands ----------------------------------------------------------------------------------

  async createRun(input: { domain: string; brief: string }): Promise<PipelineRunView> {
    const runId = newRunId();
    const first = this.agents[0]!;
    await this.engine.transaction(async (ops, tx) => {
      const stitchRunId = randomUUID();
      await tx.insert(pipelineRuns).values({
        id: runId, domain: input.domain, brief: input.brief, status: `IN_PROGRESS_${upper(first.slug)}`, currentAgent: first.slug,
        isWaitingForUser: false, stitchRunId, agents: this.agents,
      });
      await ops.startRun(this.flowId, { domain: input.domain, brief: input.brief }, stitchRunId);
    });
    return this.getRun(runId);
  }

  /** An agent's output arrives (seed 7.5). A repeat of the stored output is answered as a duplicate and stores nothing. */
  async receiveCallback(slug: string, runId: string, output: AgentOutput | { failed: string }): Promise<CallbackResult> {
    return this.engine.transaction(async (ops, tx) => {
      const run = await this.lock(tx, runId);
      const agent = this.agentOf(run, slug);
      if (run.currentAgent !== slug) {
        throw new EngineError("conflict", `run ${runId} is ${run.status}; it is not waiting for agent "${slug}"${run.currentAgent ? ` but for "${run.currentAgent}"` : ""}`);
      }
      if ("failed" in output) {
        await ops.handle(run.stitchRunId, { type: "callback", key: workerKey(slug), status: "failed", error: output.failed });
        return { status: "ok" as const, run_id: runId, artifact_type: agent.artifact_type, version: 0, duplicate: false };
      }
      return this.acceptOutput(tx, ops, run, agent, output);
    });
  }

  /** Stores an artifact by hand or from a system fallback (seed 7.8): the current agent's output, as if it had called back. */
  async storeArtifact(runId: string, artifactType: string, output: AgentOutput): Promise<CallbackResult> {
    return this.engine.transaction(async (ops, tx) => {
      const run = await this.lock(tx, runId);
      if (!run.currentAgent) throw new EngineError("conflict", `run ${runId} is ${run.status}; no agent is producing an artifact`);
      const agent = this.agentOf(run, run.currentAgent);
      if (artifactType !== agent.artifact_type) {
        // The seed's backend enforces the current agent's artifact type; say so rather than store under another name.
        output = { ...output, metadata: { ...(output.metadata ?? {}), requested_artifact_type: artifactType } };
      }
      return this.acceptOutput(tx, ops, run, agent, output);
    });
  }

  private async acceptOutput(tx: Executor, ops: EngineOps, run: PipelineRunRow, agent: PipelineAgent, output: AgentOutput): Promise<CallbackResult> {
    const [latest] = await tx
      .select({ version: pipelineArtifacts.version, content: pipelineArtifacts.content })
      .from(pipelineArtifacts)
      .where(and(eq(pipelineArtifacts.runId, run.id), eq(pipelineArtifacts.artifactType, agent.artifact_type)))
      .orderBy(desc(pipelineArtifacts.version))
      .limit(1);
    if (latest && stableJson(latest.content) === stableJson(output.content)) {
      return { status: "ok", run_id: run.id, artifact_type: agent.artifact_type, version: latest.version, duplicate: true };
    }
    const result = await ops.handle(run.stitchRunId, { type: "callback", key: workerKey(agent.slug), status: "completed", output: output.content });
    if (result.duplicate) {
      return { status: "ok", run_id: run.id, artifact_type: agent.artifact_type, version: latest?.version ?? 0, duplicate: true };
    }
    const version = (latest?.version ?? 0) + 1;
    // Agents' shapes vary in the field; an output that does not match its schema is kept (the reviewer decides),
    // and the mismatch is recorded so the reviewer sees it.
    const check = isArtifactType(agent.artifact_type) ? parseEnvelope(agent.artifact_type, output.content) : undefined;
    if (check && !check.success) output = { ...output, metadata: { ...(output.metadata ?? {}), schema_issues: check.error } };
    const [stored] = await tx
      .insert(pipelineArtifacts)
      .values({ runId: run.id, artifactType: agent.artifact_type, version, content: output.content, metadata: output.metadata ?? null })
      .returning({ id: pipelineArtifacts.id });
    await tx.insert(pipelineEvents).values({ runId: run.id, kind: "artifact", agent: agent.slug, payload: { artifact_id: stored!.id, version } });
    return { status: "ok", run_id: run.id, artifact_type: agent.artifact_type, version, duplicate: false };
  }

  async approve(runId: string, actor: string | null = null, expected?: ReviewedOutput): Promise<PipelineRunView> {
    await this.engine.transaction(async (ops, tx) => {
      const run = await this.lockWaiting(tx, runId, "approve", expected);
      await ops.handle(run.stitchRunId, { type: "review", key: gateKey(run.currentAgent!), decision: "approve" }, actor);
    });
    return this.getRun(runId);
  }

  async reject(runId: string, feedback: string, actor: string | null = null, expected?: ReviewedOutput): Promise<PipelineRunView> {
    await this.engine.transaction(async (ops, tx) => {
      const run = await this.lockWaiting(tx, runId, "reject", expected);
      await ops.handle(run.stitchRunId, { type: "review", key: gateKey(run.currentAgent!), decision: "reject", feedback }, actor);
    });
    return this.getRun(runId);
  }

  /**
   * Stops the run for good: the agent at work or the output waiting for review is cancelled, nothing more is sent,
   * and a late callback from the agent is refused. The engine decides: a finished run has nothing to cancel (409),
   * and cancelling a cancelled run again is a duplicate that changes nothing.
   */
  async cancel(runId: string, reason?: string, actor: string | null = null): Promise<PipelineRunView> {
    await this.engine.transaction(async (ops, tx) => {
      const run = await this.lock(tx, runId);
      await ops.cancel(run.stitchRunId, reason, actor);
    });
    return this.getRun(runId);
  }

  /** Fires a failed agent again (its webhook was unreachable or it reported a failure). */
  async retry(runId: string, actor: string | null = null): Promise<PipelineRunView> {
    await this.engine.transaction(async (ops, tx) => {
      const run = await this.lock(tx, runId);
      if (!run.failure || !run.currentAgent) throw new EngineError("conflict", `run ${runId} is ${run.status}; only a failed agent can be retried`);
      await ops.handle(run.stitchRunId, { type: "retry", key: workerKey(run.currentAgent) }, actor);
    });
    return this.getRun(runId);
  }

  private async lock(tx: Executor, runId: string): Promise<PipelineRunRow> {
    const [run] = await tx.select().from(pipelineRuns).where(eq(pipelineRuns.id, runId)).for("update");
    if (!run) throw new EngineError("not_found", `no run with id "${runId}"`);
    return run;
  }

  private async lockWaiting(tx: Executor, runId: string, action: string, expected?: ReviewedOutput): Promise<PipelineRunRow> {
    const run = await this.lock(tx, runId);
    if (!run.isWaitingForUser || !run.currentAgent) {
      throw new EngineError("conflict", `run ${runId} is ${run.status}; there is no output waiting for approval to ${action}`);
    }
    if (expected) {
      const agent = this.agentOf(run, run.currentAgent);
      const [latest] = await tx
        .select({ version: pipelineArtifacts.version })
        .from(pipelineArtifacts)
        .where(and(eq(pipelineArtifacts.runId, run.id), eq(pipelineArtifacts.artifactType, agent.artifact_type)))
        .orderBy(desc(pipelineArtifacts.version))
        .limit(1);
      if (expected.agent !== agent.slug || expected.version !== latest?.version) {
        throw new EngineError(
          "conflict",
          `you reviewed ${expected.agent} v${expected.version}, but the output waiting now is ${agent.name} v${latest?.version ?? 0}; read it before you ${action}`,
        );
      }
    }
    return run;
  }

  private agentOf(run: PipelineRunRow, slug: string): PipelineAgent {
    const agent = (run.agents as PipelineAgent[]).find((a) => a.slug === slug);
    if (!agent) throw new EngineError("not_found", `no agent "${slug}" in the pipeline of run ${run.id}`);
    return agent;
  }

  // ---- The projection: engine transitions -> run status and conversation turns, in the same transaction ----

  private async project(tx: Executor, t: RunTransition): Promise<void> {
    const relevant = t.changes.filter((c) => t.graph.nodes.get(c.key)?.data.protocol === "agent" || t.graph.nodes.get(c.key)?.data.gate === "review");
    if (relevant.length === 0) return;
    const [run] = await tx.select().from(pipelineRuns).where(eq(pipelineRuns.stitchRunId, t.runId));
    if (!run) return;
    const agents = run.agents as PipelineAgent[];
    const last = agents[agents.length - 1]!;
    let update: Partial<typeof pipelineRuns.$inferInsert> = {};
    const turns: (typeof pipelineEvents.$inferInsert)[] = [];
    const turn = (kind: string, agent: string | null, payload: unknown = null, actor: string | null = null) => turns.push({ runId: run.id, kind, agent, payload, actor });
    if (t.event.type === "cancel") {
      await tx.update(pipelineRuns).set({ status: "CANCELLED", currentAgent: null, isWaitingForUser: false, failure: null, updatedAt: sql`now()` }).where(eq(pipelineRuns.id, run.id));
      turn("cancelled", run.currentAgent, { reason: t.event.reason ?? null }, t.actor);
      await tx.insert(pipelineEvents).values(turns);
      return;
    }
    for (const change of relevant) {
      const node = t.graph.nodes.get(change.key)!;
      const slug = String(node.data.agent);
      const { before } = change;
      const after = change.after.status;
      if (node.type === "Worker") {
        if (after === "running" && before !== "running") {
          const rerun = t.event.type === "review" && t.event.decision === "reject";
          update = { ...update, status: `${rerun ? "RETRYING" : "IN_PROGRESS"}_${upper(slug)}`, currentAgent: slug, isWaitingForUser: false, failure: null };
          turn("started", slug, { is_feedback: rerun, attempt: change.after.attempt });
        } else if (after === "failed" && before !== "failed") {
          const error = change.after.error ?? "the agent failed";
          update = { ...update, status: `FAILED_${upper(slug)}`, currentAgent: slug, isWaitingForUser: false, failure: error };
          turn("failed", slug, { error });
        }
      } else if (after === "waiting_for_user") {
        update = { ...update, status: `WAITING_APPROVAL_${upper(slug)}`, currentAgent: slug, isWaitingForUser: true, failure: null };
      } else if (before === "waiting_for_user" && after === "completed") {
        turn("approved", slug, null, t.actor);
        if (slug === last.slug) {
          update = { ...update, status: "COMPLETED", currentAgent: null, isWaitingForUser: false, failure: null };
          turn("completed", null);
        }
      } else if (before === "waiting_for_user" && after === "pending") {
        turn("rejected", slug, { feedback: t.event.type === "review" ? (t.event.feedback ?? "") : "" }, t.actor);
      }
    }
    if (Object.keys(update).length > 0) await tx.update(pipelineRuns).set({ ...update, updatedAt: sql`now()` }).where(eq(pipelineRuns.id, run.id));
    if (turns.length > 0) await tx.insert(pipelineEvents).values(turns);
  }

  // ---- Outgoing calls: the agent protocol (seed section 8.1) ---------------------------------------

  /** Builds what an agent receives; context per seed section 6, or on feedback the agent's own last output. */
  async agentRequest(stitchRunId: string, slug: string, feedback: { text: string; previousOutput: unknown } | undefined) {
    const [run] = await this.engine.database.run((db) => db.select().from(pipelineRuns).where(eq(pipelineRuns.stitchRunId, stitchRunId)));
    if (!run) throw new Error(`no pipeline run for engine run ${stitchRunId}`);
    const agent = this.agentOf(run, slug);
    const latest = await this.latestContents(run.id);
    let context: Record<string, unknown>;
    if (feedback) {
      context = (latest.get(agent.artifact_type) as Record<string, unknown> | undefined) ?? (feedback.previousOutput as Record<string, unknown>) ?? {};
    } else {
      context = {};
      for (const key of agent.context) {
        if (key === "domain") context.domain = run.domain;
        else if (key === "brief") context.brief = run.brief;
        else context[key] = latest.get(key) ?? null;
      }
    }
    const current = this.agents.find((a) => a.slug === slug);
    return {
      url: current?.webhook_url ?? agent.webhook_url,
      body: {
        run_id: run.id,
        context,
        is_feedback: feedback !== undefined,
        feedback: feedback?.text ?? "",
        callback_url: `${this.baseUrl}/callbacks/agent/${slug}`,
      },
    };
  }

  private async latestContents(runId: string): Promise<Map<string, unknown>> {
    const found = await this.engine.database.run((db) =>
      rows<{ artifact_type: string; content: unknown }>(db, sql`
        SELECT DISTINCT ON (artifact_type) artifact_type, content FROM pipeline_artifacts
        WHERE run_id = ${runId} ORDER BY artifact_type, version DESC`),
    );
    return new Map(found.map((r) => [r.artifact_type, r.content]));
  }

  // ---- Queries ---------------------------------------------------------------------------------------

  private view(run: PipelineRunRow): PipelineRunView {
    const agent = run.currentAgent ? (run.agents as PipelineAgent[]).find((a) => a.slug === run.currentAgent) : undefined;
    return {
      run_id: run.id, domain: run.domain, brief: run.brief, status: run.status, current_agent: agent ? agentRef(agent) : null,
      is_waiting_for_user: run.isWaitingForUser, failure: run.failure, created_at: iso(run.createdAt), updated_at: iso(run.updatedAt),
    };
  }

  private async findRun(runId: string): Promise<PipelineRunRow> {
    const [run] = await this.engine.database.run((db) => db.select().from(pipelineRuns).where(eq(pipelineRuns.id, runId)));
    if (!run) throw new EngineError("not_found", `no run with id "${runId}"`);
    return run;
  }

  async getRun(runId: string): Promise<PipelineRunView> {
    return this.view(await this.findRun(runId));
  }

  async listRuns(limit = 100): Promise<RunSummary[]> {
    const found = await this.engine.database.run((db) => db.select().from(pipelineRuns).orderBy(desc(pipelineRuns.createdAt), desc(pipelineRuns.id)).limit(limit));
    return found.map((run) => {
      const { brief: _brief, ...summary } = this.view(run);
      return summary;
    });
  }

  async listArtifacts(runId: string, artifactType?: string): Promise<ArtifactVersion[]> {
    await this.findRun(runId);
    const found = await this.engine.database.run((db) =>
      db
        .select()
        .from(pipelineArtifacts)
        .where(artifactType ? and(eq(pipelineArtifacts.runId, runId), eq(pipelineArtifacts.artifactType, artifactType)) : eq(pipelineArtifacts.runId, runId))
        .orderBy(asc(pipelineArtifacts.id)),
    );
    return found.map((a) => ({
      id: a.id, run_id: a.runId, artifact_type: a.artifactType, version: a.version, content: a.content as Record<string, unknown>,
      metadata: (a.metadata as Record<string, unknown> | null) ?? null, created_at: iso(a.createdAt),
    }));
  }

  /** Seed 7.9: the latest version of one artifact type. */
  async latestArtifact(runId: string, artifactType: string): Promise<ArtifactVersion> {
    const versions = await this.listArtifacts(runId, artifactType);
    const latest = versions[versions.length - 1];
    if (!latest) throw new EngineError("not_found", `run ${runId} has no "${artifactType}" artifact yet`);
    return latest;
  }

  /** The latest version of each artifact type, in pipeline order. */
  async latestArtifacts(runId: string): Promise<ArtifactVersion[]> {
    const run = await this.findRun(runId);
    const all = await this.listArtifacts(runId);
    const latest = new Map<string, ArtifactVersion>();
    for (const a of all) if ((latest.get(a.artifact_type)?.version ?? 0) < a.version) latest.set(a.artifact_type, a);
    const order = (run.agents as PipelineAgent[]).map((a) => a.artifact_type);
    const rank = (t: string) => (order.includes(t) ? order.indexOf(t) : order.length);
    return [...latest.values()].sort((a, b) => rank(a.artifact_type) - rank(b.artifact_type));
  }

  /** Seed 7.10: latest artifact per type, keeping only `content.artifact` when present. */
  async exportRun(runId: string, now: Date = new Date()): Promise<ExportPayload> {
    return exportOf(runId, await this.latestArtifacts(runId), now);
  }

  /** The ZIP bundle: the export JSON and, from the very same versions, one Markdown document per artifact. */
  async bundle(runId: string, now: Date = new Date()): Promise<Uint8Array> {
    const latest = await this.latestArtifacts(runId);
    return buildBundle(exportOf(runId, latest, now), latest);
  }

  async conversation(runId: string): Promise<Conversation> {
    const run = await this.findRun(runId);
    const agents = run.agents as PipelineAgent[];
    const [events, artifacts] = await Promise.all([
      this.engine.database.run((db) => db.select().from(pipelineEvents).where(eq(pipelineEvents.runId, runId)).orderBy(asc(pipelineEvents.id))),
      this.listArtifacts(runId),
    ]);
    const byId = new Map(artifacts.map((a) => [a.id, a]));
    const lastFailureId = events.filter((e) => e.kind === "failed").at(-1)?.id;
    const refOf = (slug: string | null) => {
      const agent = agents.find((a) => a.slug === slug);
      return agent ? agentRef(agent) : null;
    };
    const messages: ConversationMessage[] = [{ kind: "brief", id: "brief", at: iso(run.createdAt), domain: run.domain, brief: run.brief }];
    for (const e of events) {
      const id = `e${e.id}`;
      const at = iso(e.createdAt);
      const agent = refOf(e.agent);
      const payload = (e.payload ?? {}) as Record<string, unknown>;
      if (e.kind === "started" && agent) messages.push({ kind: "agent_working", id, at, agent, is_feedback: payload.is_feedback === true });
      else if (e.kind === "artifact" && agent) {
        const artifact = byId.get(Number(payload.artifact_id));
        if (artifact) messages.push({ kind: "artifact", id, at, agent, artifact_type: artifact.artifact_type, version: artifact.version, content: artifact.content, metadata: artifact.metadata });
      } else if (e.kind === "approved" && agent) messages.push({ kind: "approval", id, at, agent, actor: e.actor });
      else if (e.kind === "rejected" && agent) messages.push({ kind: "rejection", id, at, agent, feedback: String(payload.feedback ?? ""), actor: e.actor });
      else if (e.kind === "failed") {
        // Only the failure the run is stuck on can be retried; earlier ones were retried already.
        const latestFailure = e.id === lastFailureId && run.failure !== null;
        messages.push({ kind: "error", id, at, agent, error: String(payload.error ?? "the agent failed"), retryable: latestFailure });
      }
      else if (e.kind === "completed") messages.push({ kind: "completed", id, at });
      else if (e.kind === "cancelled") messages.push({ kind: "cancelled", id, at, reason: typeof payload.reason === "string" ? payload.reason : null, actor: e.actor });
    }
    return { run: this.view(run), stitch_run_id: run.stitchRunId, messages };
  }
}
