/**
 * What the conversation shows beside each turn. From the turn order: whether an output was approved, sent back,
 * superseded by a later version, or is the one awaiting review now. From the run's state (`annotateTurns`, as every
 * door): which agent's start is live while it works, and which failure may be retried.
 */
import { type NodeNow, type TurnNotes, annotateTurns } from "../../../components/turns";
import { isAgentWorking } from "../../../lib/runStatus";
import type { Conversation, ConversationTurn } from "../../../lib/trpc";
import { agentNodeId, agentOf } from "./agentOf";

export type ReviewState = "awaiting_review" | "approved" | "changes_requested" | "unreviewed";

export interface ArtifactNote {
  review: ReviewState;
  /** A later version of the same artifact exists. */
  superseded: boolean;
  /** Whether a version before this one exists (so changes_made describe a revision). */
  isRevision: boolean;
  /** The decision taken on this version, when one was: what, by whom, when (its collapsed line says so). */
  decided?: Decided;
}

export interface Decided {
  decision: "approve" | "request_changes";
  who: string | null;
  at: string;
}

export interface ConversationNotes extends TurnNotes {
  artifacts: Map<string, ArtifactNote>;
  /** The output the composer reviews, when the run waits for review. */
  awaitingArtifactId: string | null;
}

type OutputTurn = Extract<ConversationTurn, { kind: "output" }>;

/** The run's agent as its node stands now: at work, failed, or waiting (for a review, or for nothing once the run is over). */
function nodesNow({ state }: Conversation["run"]): Record<string, NodeNow> {
  if (!state.agent) return {};
  return { [agentNodeId(state.agent)]: { status: isAgentWorking(state.phase) ? "running" : state.phase } };
}

export function annotateConversation({ run, agents, turns }: Pick<Conversation, "run" | "agents" | "turns">): ConversationNotes {
  const artifacts = new Map<string, ArtifactNote>();
  const lastArtifactOf = new Map<string, OutputTurn>();
  const seenTypes = new Set<string>();

  for (const turn of turns) {
    if (turn.kind === "output") {
      const previous = lastArtifactOf.get(turn.body.artifact_type);
      if (previous) artifacts.get(previous.id)!.superseded = true;
      artifacts.set(turn.id, { review: "unreviewed", superseded: false, isRevision: seenTypes.has(turn.body.artifact_type) || turn.body.version > 1 });
      seenTypes.add(turn.body.artifact_type);
      lastArtifactOf.set(turn.body.artifact_type, turn);
    } else if (turn.kind === "decided" && (turn.body.decision === "approve" || turn.body.decision === "request_changes")) {
      const reviewed = [...lastArtifactOf.values()].find((a) => a.node?.id === turn.node?.id);
      const note = reviewed ? artifacts.get(reviewed.id) : undefined;
      if (note && note.review === "unreviewed") {
        note.review = turn.body.decision === "approve" ? "approved" : "changes_requested";
        note.decided = { decision: turn.body.decision, who: turn.who, at: turn.at };
      }
    }
  }

  let awaitingArtifactId: string | null = null;
  if (run.is_waiting_for_user && run.current_agent) {
    const current = [...lastArtifactOf.values()].find((a) => agentOf(agents, a.node)?.slug === run.current_agent!.slug);
    const note = current ? artifacts.get(current.id) : undefined;
    if (current && note && note.review === "unreviewed") {
      note.review = "awaiting_review";
      awaitingArtifactId = current.id;
    }
  }

  const over = run.state.phase === "completed" || run.state.phase === "cancelled";
  return { ...annotateTurns(turns, nodesNow(run), over), artifacts, awaitingArtifactId };
}
