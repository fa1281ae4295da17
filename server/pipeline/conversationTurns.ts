/**
 * A pipeline run's stored turns (`pipeline_events`) told in the turn vocabulary every run speaks (conversation/turn.ts):
 * each version of the brief as `input`, an agent's call as `started`, its artifact version as `output`, approvals and
 * requests for changes as `decided`, failures as `failed`, a fork's first turn as a `system` event, the end as `outcome`.
 */
import { z } from "zod";
import type { CopiedDecision } from "../engine/schemas";
import type { TurnNode } from "../conversation/turn";
import { gateKey, workerKey } from "./definition";
import { madeByStored } from "./provenance";
import { type ArtifactVersion, type ConversationTurn, EditedBy, type PipelineAgent } from "./schemas";
import type * as store from "./store";

/** Where a version a fork copied came from (its metadata's `copied_from`). */
const CopiedFrom = z.object({ run_id: z.string(), version: z.number().int() });

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** The node a turn is about: an agent's (`agent_<slug>`) or its review's (`review_<slug>`), named for the agent (by its id when the run's pipeline no longer has it). */
export function nodeOf(agents: readonly PipelineAgent[], nodeId: string): TurnNode {
  const agent = agents.find((a) => nodeId === workerKey(a.slug) || nodeId === gateKey(a.slug));
  return { id: nodeId, label: agent?.name ?? nodeId, type: agent && nodeId === gateKey(agent.slug) ? "review" : "agent" };
}

/**
 * Every version of a run's brief, oldest first: the brief as submitted is the one the first edit replaced; each edit
 * is a version of its own, by whoever made it (its turn's id, `turnId`). The last is the one the agents read.
 */
export function briefVersions(run: store.PipelineRunRow, turns: readonly store.TurnRow[]): { version: number; brief: string; by: string | null; turnId: number | null }[] {
  const edits = turns.flatMap((e) => (e.kind === "brief_edited" ? [e] : []));
  return [
    { version: 1, brief: edits[0]?.payload.previous ?? run.brief, by: run.submittedBy?.name ?? null, turnId: null },
    ...edits.map((e, index) => ({ version: index + 2, brief: e.payload.brief, by: e.actor, turnId: e.id })),
  ];
}

/** The approvals a fork copied from its parent, by review node: they stay decided in the fork. */
function copiedApprovals(turns: readonly store.TurnRow[]): Record<string, CopiedDecision> {
  const decided: Record<string, CopiedDecision> = {};
  for (const e of turns) {
    if (e.kind === "approved" && e.agent && e.payload.decided_in) {
      decided[gateKey(e.agent)] = { by: e.actor, decision: "approve", at: iso(e.payload.decided_in.at), run_id: e.payload.decided_in.run_id };
    }
  }
  return decided;
}

/** The run's turns in order, the brief as submitted first; turns of an agent the run's pipeline no longer names are left out. */
export function conversationTurns(run: store.PipelineRunRow, turns: readonly store.TurnRow[], artifacts: ReadonlyMap<number, ArtifactVersion>): ConversationTurn[] {
  const agents = run.agents;
  const lastFailureId = turns.filter((e) => e.kind === "failed").at(-1)?.id;
  const briefs = briefVersions(run, turns);
  const [submitted] = briefs;
  const told: ConversationTurn[] = [
    { kind: "input", id: "brief", at: iso(run.createdAt), who: submitted!.by, node: null, attempt: null, body: { value: submitted!.brief, domain: run.domain, version: 1 } },
  ];
  // What each agent was last asked to change: the feedback a revision of it works from.
  const feedbackOf = new Map<string, string>();
  turns.forEach((e, index) => {
    const envelope = { id: `e${e.id}`, at: iso(e.createdAt), who: e.actor, attempt: null };
    const agent = agents.find((a) => a.slug === e.agent);
    const node = agent ? nodeOf(agents, workerKey(agent.slug)) : null;
    if (e.kind === "started" && node) {
      const feedback = e.payload.is_feedback ? (feedbackOf.get(e.agent!) ?? null) : null;
      told.push({ kind: "started", ...envelope, node, attempt: e.payload.attempt ?? null, body: { revising: e.payload.is_feedback, feedback } });
    } else if (e.kind === "artifact" && node) {
      const artifact = artifacts.get(e.payload.artifact_id);
      if (artifact) {
        const edited = EditedBy.safeParse(artifact.metadata?.edited_by);
        told.push({
          kind: "output", ...envelope, node,
          body: {
            value: artifact.content, artifact_type: artifact.artifact_type, version: artifact.version, metadata: artifact.metadata,
            edited_by: edited.success ? edited.data.name : null, made_by: madeByStored(agent, artifact.metadata), copied_from: CopiedFrom.safeParse(artifact.metadata?.copied_from).data ?? null,
          },
        });
      }
    } else if (e.kind === "approved" && node) {
      // An approval a fork copied is told at the time it was decided, in the run it was decided in.
      const copied = e.payload.decided_in;
      told.push({
        kind: "decided", ...envelope, at: copied ? iso(copied.at) : envelope.at, node,
        body: { decision: "approve", text: e.payload.comment, value: null, decided_in: copied?.run_id ?? null },
      });
    } else if (e.kind === "forked") {
      if (e.agent && e.payload.feedback) feedbackOf.set(e.agent, e.payload.feedback);
      // A fork that edited the brief tells the new brief in the turn after this one.
      const next = turns[index + 1];
      told.push({
        kind: "system", ...envelope, node: nodeOf(agents, e.payload.node_id),
        body: {
          event: "forked", from_run_id: e.payload.from_run_id, feedback: e.payload.feedback,
          value: next?.kind === "brief_edited" ? { brief: next.payload.brief } : null, decided: copiedApprovals(turns),
        },
      });
    }
    // A rejection with nothing said is what an edited brief's restart left behind before it was its own turn alone.
    else if (e.kind === "rejected" && node && e.payload.feedback.trim() !== "") {
      feedbackOf.set(e.agent!, e.payload.feedback);
      told.push({ kind: "decided", ...envelope, node, body: { decision: "request_changes", text: e.payload.feedback, value: null, decided_in: null } });
    } else if (e.kind === "failed") {
      // Only the failure the run is stuck on can be retried; earlier ones were retried already.
      const retryable = e.id === lastFailureId && run.failure !== null;
      told.push({ kind: "failed", ...envelope, node, body: { error: e.payload.error || "the agent failed", retrying: false, retryable } });
    } else if (e.kind === "completed") told.push({ kind: "outcome", ...envelope, node: null, body: { status: "completed", reason: null } });
    else if (e.kind === "cancelled") told.push({ kind: "outcome", ...envelope, node: null, body: { status: "cancelled", reason: e.payload.reason } });
    else if (e.kind === "brief_edited") {
      const edit = briefs.find((b) => b.turnId === e.id)!;
      told.push({ kind: "input", ...envelope, who: edit.by, node: null, body: { value: edit.brief, domain: run.domain, version: edit.version } });
    }
  });
  return told;
}
