/** The reviewer's turn in a pipeline run: the shared review form, worded for the agent whose output it decides on. */
import { type PendingDecision, ReviewForm } from "../../../components/ReviewForm";
import type { Decision } from "../../../lib/trpc";

export type { PendingDecision };

export interface ReviewComposerProps {
  agentName: string;
  version: number | null;
  /** The next agent an approval starts, or null when this is the last one. */
  nextAgentName: string | null;
  pending: PendingDecision;
  error: unknown;
  /** The review's decision, once read: who may take it, and since when it waits. */
  decision?: Decision;
  /** Where the feedback is kept until it is sent: one key per output version. */
  draftKey: string | null;
  /** The feedback box's text, trimmed (possibly empty), goes with the approval as its comment; resolve true once accepted. */
  onApprove(comment: string): Promise<boolean>;
  /** Resolves true when the server accepted the feedback, so the box can be cleared. */
  onReject(feedback: string): Promise<boolean>;
  /** The form's element id ("Skip to the decision" leads there). */
  id?: string;
}

export function ReviewComposer({ agentName, version, nextAgentName, pending, error, decision, draftKey, onApprove, onReject, id }: ReviewComposerProps) {
  return (
    <ReviewForm
      id={id}
      subject={agentName}
      title={
        <>
          Your review · {agentName}
          {version ? <span className="version-badge">v{version}</span> : null}
        </>
      }
      consequence={nextAgentName ? `Approving hands the output to the ${nextAgentName} agent.` : "This is the last agent; approving completes the run."}
      placeholder={`What should the ${agentName} agent change?`}
      hint="Sent with Approve as a comment, or with Request changes as what must change: the same agent then answers with a new version. Ctrl+Enter requests changes."
      pending={pending}
      error={error}
      decision={decision}
      draftKey={draftKey}
      onApprove={onApprove}
      onReject={onReject}
    />
  );
}
