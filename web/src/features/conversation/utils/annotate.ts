/**
 * What the conversation shows beside each message, derived from the message order alone:
 * whether an output was approved, sent back, superseded by a later version, or is the one
 * awaiting review now; and which error may still be retried.
 */
import { isAgentWorking } from "../../../lib/runStatus";
import type { Conversation, ConversationMessage } from "../../../lib/trpc";

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
  kind: "approval" | "rejection";
  actor: string | null;
  at: string;
}

export interface ConversationNotes {
  artifacts: Map<string, ArtifactNote>;
  /** The error message whose retry action is live (the run's current failure), if any. */
  retryableErrorId: string | null;
  /** The working indicator is live only while it is the run's last word. */
  liveWorkingId: string | null;
  /** The output the composer reviews, when the run waits for review. */
  awaitingArtifactId: string | null;
}

type ArtifactMessage = Extract<ConversationMessage, { kind: "artifact" }>;

export function annotateConversation({ run, messages }: Pick<Conversation, "run" | "messages">): ConversationNotes {
  const artifacts = new Map<string, ArtifactNote>();
  const lastArtifactOf = new Map<string, ArtifactMessage>();
  const seenTypes = new Set<string>();
  const { phase } = run.state;

  for (const message of messages) {
    if (message.kind === "artifact") {
      const previous = lastArtifactOf.get(message.artifact_type);
      if (previous) artifacts.get(previous.id)!.superseded = true;
      artifacts.set(message.id, { review: "unreviewed", superseded: false, isRevision: seenTypes.has(message.artifact_type) || message.version > 1 });
      seenTypes.add(message.artifact_type);
      lastArtifactOf.set(message.artifact_type, message);
    } else if (message.kind === "approval" || message.kind === "rejection") {
      const reviewed = [...lastArtifactOf.values()].find((a) => a.agent.slug === message.agent.slug);
      const note = reviewed ? artifacts.get(reviewed.id) : undefined;
      if (note && note.review === "unreviewed") {
        note.review = message.kind === "approval" ? "approved" : "changes_requested";
        note.decided = { kind: message.kind, actor: message.actor, at: message.at };
      }
    }
  }

  let awaitingArtifactId: string | null = null;
  if (run.is_waiting_for_user && run.current_agent) {
    const current = [...lastArtifactOf.values()].find((a) => a.agent.slug === run.current_agent!.slug);
    const note = current ? artifacts.get(current.id) : undefined;
    if (current && note && note.review === "unreviewed") {
      note.review = "awaiting_review";
      awaitingArtifactId = current.id;
    }
  }

  const last = messages.at(-1);
  const retryableErrorId = last?.kind === "error" && last.retryable && phase === "failed" ? last.id : null;
  const liveWorkingId = last?.kind === "agent_working" && isAgentWorking(phase) ? last.id : null;
  return { artifacts, retryableErrorId, liveWorkingId, awaitingArtifactId };
}
