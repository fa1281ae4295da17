/** The pipeline's read models: runs, artifacts, exports and the conversation a run reads as. */
import { z } from "zod";
import type { Database } from "../../db/client";
import type { ConversationMarkers, ListChanges, RunChanges } from "../engine/runChanges";
import { type Page, type PageParams, mapItem, pageOf, pageRequest } from "../lib/paging";
import { runNotFound, PipelineError } from "./errors";
import { type BundleApproval, buildBundle } from "./export/bundle";
import type { AgentRef, ArtifactVersion, Conversation, ConversationTurn, ExportPayload, PipelineAgent, PipelineRunView, RunSummary } from "./schemas";
import { withForksInto } from "../forks/turns";
import { briefVersions, conversationTurns, nodeOf } from "./conversationTurns";
import * as store from "./store";
import { retryRefusal } from "./status";
import { gateKey } from "./definition";
import type { Decision } from "../decisions/schemas";
import type { ReviewedVersions, StoredVersion } from "../review/sources";
import { EditedBy } from "./schemas";
import { madeByStored } from "./provenance";

/** An agent's `comment_outcomes` as stored in its envelope, read for what each says was done. */
const StoredCommentOutcomes = z.array(z.object({ anchor: z.string(), done: z.boolean() }));

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

const agentRef = (agent: PipelineAgent): AgentRef => ({ slug: agent.slug, name: agent.name, order: agent.order, artifact_type: agent.artifact_type });

/** A run as lists show it: everything but the brief. */
function summary(run: Omit<store.PipelineRunListRow, "waitingFor">): Omit<RunSummary, "waiting_for"> {
  const agent = run.currentAgent ? run.agents.find((a) => a.slug === run.currentAgent) : undefined;
  return {
    run_id: run.id, domain: run.domain, status: run.status, state: { phase: run.phase, agent: run.currentAgent },
    current_agent: agent ? agentRef(agent) : null, is_waiting_for_user: run.isWaitingForUser, failure: run.failure, submitted_by: run.submittedBy,
    created_at: iso(run.createdAt), updated_at: iso(run.updatedAt),
  };
}

type Lineage = Awaited<ReturnType<typeof store.lineage>>;

const view = (run: store.PipelineRunRow, retryAllowed: boolean, lineage: Lineage): PipelineRunView => ({
  ...summary(run), brief: run.brief, retry_allowed: retryAllowed, forked_from: lineage.forkedFrom, forks: lineage.forks,
});

const toArtifact = (a: store.ArtifactRow): ArtifactVersion => ({
  id: a.id, run_id: a.runId, artifact_type: a.artifactType, version: a.version, content: a.content,
  metadata: a.metadata ?? null, created_at: iso(a.createdAt),
});

/** The export keeps each artifact type's latest version, and of its content only `artifact` where there is one. */
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

/**
 * Each approval under the artifact version it approved (`<artifact_type> v<version>`): the agent's latest output when
 * the approval was written. Turns are in order, so that is the last artifact turn of the agent before it.
 */
function approvalsByVersion(agents: readonly PipelineAgent[], turns: readonly store.TurnRow[]): Map<string, BundleApproval[]> {
  const latestOf = new Map<string, number>();
  const approvals = new Map<string, BundleApproval[]>();
  for (const turn of turns) {
    if (turn.kind === "artifact" && turn.agent) latestOf.set(turn.agent, turn.payload.version);
    const agent = agents.find((a) => a.slug === turn.agent);
    if (turn.kind !== "approved" || !agent || !latestOf.has(agent.slug)) continue;
    const key = `${agent.artifact_type} v${latestOf.get(agent.slug)}`;
    approvals.set(key, [...(approvals.get(key) ?? []), { by: turn.actor, at: iso(turn.createdAt), comment: turn.payload.comment }]);
  }
  return approvals;
}

export class PipelineQueries {
  /** AGENT_STUCK_AFTER_MS: how long an agent may be in progress before it may be retried (status.ts `retryRefusal`). */
  readonly stuckAfterMs: number;

  constructor(
    private readonly database: Database,
    private readonly agents: readonly PipelineAgent[],
    private readonly markers: ConversationMarkers,
    options: { stuckAfterMs: number },
  ) {
    this.stuckAfterMs = options.stuckAfterMs;
  }

  /** The run as the API shows it, with whether the retry command would be accepted now. */
  private async view(run: store.PipelineRunRow, lineage?: Lineage): Promise<PipelineRunView> {
    const [calledAt, forks] = await Promise.all([
      run.currentAgent && !run.failure ? this.database.run((db) => store.agentCalledAt(db, run.id, run.currentAgent!)) : undefined,
      lineage ?? this.database.run((db) => store.lineage(db, run.stitchRunId)),
    ]);
    return view(run, retryRefusal(run, calledAt, this.stuckAfterMs) === undefined, forks);
  }

  /**
   * The one cheap read an open conversation polls: a marker that moves whenever anything the conversation shows
   * changes, so the conversation, its decisions and its comments are read again only then.
   */
  async changes(runId: string): Promise<RunChanges> {
    const own = await this.database.run((db) => store.changeMarker(db, runId));
    if (!own) throw runNotFound(runId);
    const active = own.phase !== "completed" && own.phase !== "cancelled" && own.phase !== "failed";
    // An agent drafting or retrying; not a run whose output waits for a review.
    const busy = own.phase === "in_progress" || own.phase === "retrying";
    return this.markers.changes(runId, { engineRunId: own.stitchRunId, marker: own.marker, active, busy });
  }

  listAgents(): PipelineAgent[] {
    return [...this.agents];
  }

  private async findRun(runId: string): Promise<store.PipelineRunRow> {
    const run = await this.database.run((db) => store.findRun(db, runId));
    if (!run) throw runNotFound(runId);
    return run;
  }

  async getRun(runId: string): Promise<PipelineRunView> {
    return this.view(await this.findRun(runId));
  }

  /** A page of runs, newest first, without their briefs. */
  /** The one cheap read the run list polls: a marker that moves whenever anything it shows changes, so it is read again only then. */
  listChanges(): Promise<ListChanges> {
    return this.database.run((db) => store.listChangeMarker(db));
  }

  async listRuns(params?: PageParams): Promise<Page<RunSummary>> {
    const { limit, before } = pageRequest(params, "text");
    const found = await this.database.run((db) => store.listRuns(db, { limit: limit + 1, before }));
    return pageOf([found.map(mapItem((run) => ({ ...summary(run), waiting_for: run.waitingFor })))], limit);
  }

  async listArtifacts(runId: string, artifactType?: string): Promise<ArtifactVersion[]> {
    await this.findRun(runId);
    return (await this.database.run((db) => store.listArtifacts(db, runId, artifactType))).map(toArtifact);
  }

  /** The latest version of one artifact type. */
  async latestArtifact(runId: string, artifactType: string): Promise<ArtifactVersion> {
    const versions = await this.listArtifacts(runId, artifactType);
    const latest = versions[versions.length - 1];
    if (!latest) throw new PipelineError("not_found", `run ${runId} has no "${artifactType}" artifact yet`);
    return latest;
  }

  /** The latest version of each artifact type, in pipeline order. */
  async latestArtifacts(runId: string): Promise<ArtifactVersion[]> {
    const run = await this.findRun(runId);
    const all = (await this.database.run((db) => store.listArtifacts(db, runId))).map(toArtifact);
    const latest = new Map<string, ArtifactVersion>();
    for (const a of all) if ((latest.get(a.artifact_type)?.version ?? 0) < a.version) latest.set(a.artifact_type, a);
    const order = run.agents.map((a) => a.artifact_type);
    const rank = (t: string) => (order.includes(t) ? order.indexOf(t) : order.length);
    return [...latest.values()].sort((a, b) => rank(a.artifact_type) - rank(b.artifact_type));
  }

  async exportRun(runId: string, now: Date = new Date()): Promise<ExportPayload> {
    return exportOf(runId, await this.latestArtifacts(runId), now);
  }

  /**
   * The ZIP bundle: the export JSON and, from the very same versions, one Markdown document per artifact, with who
   * approved that version and their comment.
   */
  async bundle(runId: string, now: Date = new Date()): Promise<Uint8Array> {
    const [run, latest, turns] = await Promise.all([this.findRun(runId), this.latestArtifacts(runId), this.database.run((db) => store.listTurns(db, runId))]);
    const approvals = approvalsByVersion(run.agents, turns);
    const agentOfType = (type: string) => run.agents.find((a) => a.artifact_type === type);
    return buildBundle(
      exportOf(runId, latest, now),
      latest.map((a) => ({ ...a, approvals: approvals.get(`${a.artifact_type} v${a.version}`) ?? [], made_by: madeByStored(agentOfType(a.artifact_type), a.metadata) })),
      { domain: run.domain, briefs: briefVersions(run, turns).map(({ version, brief, by }) => ({ version, brief, by })), steps: run.agents.map((a) => ({ artifact_type: a.artifact_type, name: a.name })) },
    );
  }

  /** The run as a conversation: the brief, then each turn in order (agent at work, output, decision, failure, end). */
  async conversation(runId: string): Promise<Conversation> {
    const run = await this.findRun(runId);
    const [turns, artifacts, lineage] = await Promise.all([
      this.database.run((db) => store.listTurns(db, runId)),
      this.database.run((db) => store.listArtifacts(db, runId)).then((found) => found.map(toArtifact)),
      this.database.run((db) => store.lineage(db, run.stitchRunId)),
    ]);
    // The runs forked from this one, each where it was made, in time with the rest.
    const told = withForksInto(conversationTurns(run, turns, new Map(artifacts.map((a) => [a.id, a]))), lineage.forks, (fork): ConversationTurn => ({
      kind: "system", id: `fork-${fork.run_id}`, at: fork.at, who: fork.by, node: nodeOf(run.agents, fork.node_id), attempt: null,
      body: { event: "forked_into", fork_run_id: fork.run_id },
    }));
    return { run: await this.view(run, lineage), stitch_run_id: run.stitchRunId, agents: run.agents.map(agentRef), turns: told };
  }

  /**
   * The versions of the artifact a review decision is about (its gate's agent's artifact type), for inline review: the
   * version under review is the latest while the decision is open, and the latest stored before it was taken once closed.
   */
  async reviewVersions(decision: Decision): Promise<ReviewedVersions> {
    const run = await this.findRun(decision.run_id);
    const agent = run.agents.find((a) => gateKey(a.slug) === decision.node_id);
    if (!agent) throw new PipelineError("not_found", `no agent reviews at "${decision.node_id}" in the pipeline of run ${run.id}`);
    const stored = await this.database.run((db) => store.listArtifacts(db, run.id, agent.artifact_type));
    const versions = stored.map((a): StoredVersion => {
      const envelope = a.content;
      const edited = EditedBy.safeParse(a.metadata?.edited_by);
      const outcomes = StoredCommentOutcomes.safeParse(envelope.comment_outcomes);
      return {
        version: a.version, revises: a.version > 1 ? a.version - 1 : null, created_at: iso(a.createdAt),
        author: edited.success ? { kind: "person", name: edited.data.name, account_id: edited.data.id } : { kind: "agent", name: agent.name, account_id: null },
        output: "artifact" in envelope ? envelope.artifact : envelope,
        claim: "artifact" in envelope ? { changes_made: envelope.changes_made ?? null, justification: typeof envelope.justification === "string" ? envelope.justification : "" } : null,
        ...(outcomes.success ? { commentOutcomes: outcomes.data } : {}),
      };
    });
    const closedAt = decision.decided_at ? Date.parse(decision.decided_at) : undefined;
    const taken = closedAt === undefined ? versions : versions.filter((v) => Date.parse(v.created_at) <= closedAt);
    return { format: "artifact", artifactType: agent.artifact_type, versions, underReview: (taken.at(-1) ?? versions.at(-1))?.version ?? 0 };
  }
}
