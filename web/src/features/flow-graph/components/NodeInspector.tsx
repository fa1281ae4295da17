/**
 * The selected node (or splitter path) of an engine run: its state, output and error, and what a
 * person can do to it: complete a waiting UX node, approve or reject at a review gate (whoever may take its
 * decision: its assignee, or a reviewer or operator while it is assigned to no one), retry a failure (operators).
 * A waiting node says who it waits for and since when; anyone who may not decide reads that instead of the controls.
 * What a person types is kept until it is sent. A run that a front door owns offers only what its owner allows,
 * through the owner: a retry by the owner's own retry, and its decisions in the run's conversation, where the
 * owner's rules apply (the pipeline's version check, a workflow's on_reject).
 */
import { type ReactNode, useId, useState } from "react";
import { InspectorHead } from "../../../components/InspectorHead";
import { Notice, type NoticeTone } from "../../../components/Notice";
import { RerunFromHere } from "../../../components/RerunFromHere";
import { Spinner } from "../../../components/Spinner";
import { WaitingFor } from "../../../components/WaitingFor";
import { useMayDecide } from "../../../lib/decisions";
import { errorMessage } from "../../../lib/errors";
import { useCan } from "../../../lib/session";
import type { Decision, NodeState } from "../../../lib/trpc";
import { Link } from "../../../lib/router";
import { flowDraftKey, useDraft } from "../../../lib/useDraft";
import { parseOutput } from "../../../lib/userInput";
import { useCompleteNode, useNodeDecision, useNodeForkTarget, useOwnerRetry, useReviewNode, useRetryNode } from "../api/node-actions";
import { isReviewGate, isWorkflowApproval, type NodeView, statusLabel } from "../utils/nodeStates";
import { type RunOwner, ownerName, ownerPage, ownerRetries } from "../utils/owner";

function JsonValue({ value, label }: { value: unknown; label: string }) {
  const text = value === null || value === undefined ? "null" : JSON.stringify(value, null, 2);
  return (
    <pre className="code-block json" tabIndex={0} aria-label={label}>
      <code>{text.length > 20_000 ? `${text.slice(0, 20_000)}\n…` : text}</code>
    </pre>
  );
}

export function NodeInspector({ runId, owner, view, nodeKey, state, onClose }: {
  runId: string;
  owner: RunOwner | null;
  view: NodeView;
  nodeKey: string;
  state: NodeState | null;
  onClose(): void;
}) {
  const status = state?.status ?? "not_started";
  const operator = useCan("operator");
  const decision = useNodeDecision(runId, owner, nodeKey, status === "waiting_for_user");
  const decider = useMayDecide(decision);
  const forkTarget = useNodeForkTarget(runId, owner, nodeKey, { label: view.label, type: view.type, status: state?.status });
  const waitingGate = status === "waiting_for_user" && (isReviewGate(view) || (view.type === "UX" && !isWorkflowApproval(view)));
  const actions = owner ? (
    <OwnedNodeActions runId={runId} owner={owner} nodeKey={nodeKey} status={status} operator={operator} decision={decision} />
  ) : (
    <>
      {status === "failed" ? operator ? <RetryAction runId={runId} nodeKey={nodeKey} /> : <p className="muted small">An operator can retry this node.</p> : null}
      {waitingGate && !decider ? <WaitingForReviewerNote decision={decision} /> : null}
      {waitingGate && decider && decision ? <WaitingFor decision={decision} /> : null}
      {waitingGate && decider && isReviewGate(view) ? <ReviewAction runId={runId} nodeKey={nodeKey} /> : null}
      {waitingGate && decider && !isReviewGate(view) ? <CompleteAction runId={runId} nodeKey={nodeKey} /> : null}
      {status === "waiting_for_user" && isWorkflowApproval(view) ? <WorkflowApprovalNote /> : null}
    </>
  );
  return (
    <aside className="inspector" aria-labelledby="inspector-title">
      <InspectorHead titleId="inspector-title" title={view.label} kind={view.type} nodeId={nodeKey} closeLabel="Close node details" onClose={onClose} />
      <p>
        <span className={`node-status status-${status}`}>{statusLabel[status]}</span>
      </p>
      {state?.error ? <NodeErrorNotice status={status} error={state.error} /> : null}
      {actions}
      {forkTarget ? <RerunFromHere key={nodeKey} target={forkTarget} /> : null}
      {state && state.output !== null && state.output !== undefined ? (
        <section>
          <h3 className="field-label">Output</h3>
          <JsonValue value={state.output} label={`Output of ${nodeKey}`} />
        </section>
      ) : null}
      {Object.keys(view.data).length > 0 ? (
        <details>
          <summary>Configuration</summary>
          <JsonValue value={view.data} label={`Configuration of ${view.id}`} />
        </details>
      ) : null}
    </aside>
  );
}

/**
 * A node's error: a fault when it failed; why it stopped when it was cancelled; which attempt failed and when the
 * next comes when it is running between automatic retries.
 */
export function NodeErrorNotice({ status, error }: { status: string; error: string }) {
  const { tone, title }: { tone: NoticeTone; title: string } =
    status === "cancelled" ? { tone: "neutral", title: "Stopped" } : status === "running" ? { tone: "warning", title: "Retrying" } : { tone: "error", title: "Error" };
  return (
    <Notice tone={tone} title={title}>
      {error}
    </Notice>
  );
}

export function WorkflowApprovalNote() {
  return (
    <Notice tone="neutral" title="Waiting for approval">
      Approve it or request changes in the run's conversation, where the workflow's rules for a rejection apply.
    </Notice>
  );
}

/** What a person may do to a node of an owned run: go to the owner's conversation to decide, and retry a failure through the owner. */
function OwnedNodeActions({ runId, owner, nodeKey, status, operator, decision }: {
  runId: string; owner: RunOwner; nodeKey: string; status: string; operator: boolean; decision: Decision | undefined;
}) {
  const retry = useOwnerRetry(owner, runId);
  return (
    <>
      {status === "waiting_for_user" ? (
        <Notice tone="neutral" title="Waiting for a person">
          {decision ? <WaitingFor decision={decision} /> : null}
          This run belongs to the {ownerName(owner)}: decide on it in <Link to={ownerPage(owner)}>the run's conversation</Link>, where its rules for
          approvals and rejections apply.
        </Notice>
      ) : null}
      {status === "failed" && ownerRetries(owner, nodeKey) ? (
        operator ? (
          <div className="inspector-action">
            <button type="button" className="button button-danger" disabled={retry.isPending} aria-busy={retry.isPending} onClick={() => retry.retry(nodeKey)}>
              {retry.isPending ? <Spinner /> : null}
              Retry node
            </button>
            <ActionError error={retry.error} />
          </div>
        ) : (
          <p className="muted small">An operator can retry this node.</p>
        )
      ) : null}
    </>
  );
}

/** What someone who may not decide reads where the controls would be: who it waits for, since when. */
function WaitingForReviewerNote({ decision }: { decision: Decision | undefined }) {
  if (decision) {
    return (
      <Notice tone="neutral" title="Waiting for a person">
        <WaitingFor decision={decision} />
        The graph shows the decision as soon as it is taken.
      </Notice>
    );
  }
  return (
    <Notice tone="neutral" title="Waiting for a reviewer">
      A reviewer or an operator completes this node or decides on it; the graph shows it as soon as they have.
    </Notice>
  );
}

/** An action's form: submitting runs the action in place of loading a page. */
function ActionForm({ onSubmit, children }: { onSubmit(): void; children: ReactNode }) {
  return (
    <form
      className="inspector-action"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="hint hint-error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

function RetryAction({ runId, nodeKey }: { runId: string; nodeKey: string }) {
  const retry = useRetryNode();
  return (
    <div className="inspector-action">
      <button type="button" className="button button-danger" disabled={retry.isPending} aria-busy={retry.isPending} onClick={() => retry.mutate({ runId, nodeId: nodeKey })}>
        {retry.isPending ? <Spinner /> : null}
        Retry node
      </button>
      <ActionError error={retry.error} />
    </div>
  );
}

function CompleteAction({ runId, nodeKey }: { runId: string; nodeKey: string }) {
  const complete = useCompleteNode();
  const [text, setText, clearText] = useDraft(flowDraftKey(runId, nodeKey, "output"));
  const id = useId();
  return (
    <ActionForm onSubmit={() => complete.mutate({ runId, nodeId: nodeKey, output: parseOutput(text) }, { onSuccess: clearText })}>
      <label htmlFor={id} className="field-title">
        Output
      </label>
      <textarea id={id} className="textarea mono" rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder='{"approved": true} or plain text' />
      <p className="hint">JSON is sent as JSON; anything else is sent as text. Completing the node lets the flow continue.</p>
      <ActionError error={complete.error} />
      <button type="submit" className="button button-primary" disabled={complete.isPending} aria-busy={complete.isPending}>
        {complete.isPending ? <Spinner /> : null}
        Complete node
      </button>
    </ActionForm>
  );
}

function ReviewAction({ runId, nodeKey }: { runId: string; nodeKey: string }) {
  const review = useReviewNode();
  const [feedback, setFeedback, clearFeedback] = useDraft(flowDraftKey(runId, nodeKey, "feedback"));
  const [validation, setValidation] = useState<string | null>(null);
  const id = useId();
  const requestChanges = () => {
    if (!feedback.trim()) {
      setValidation("Describe what should change before requesting changes.");
      return;
    }
    setValidation(null);
    review.mutate({ runId, nodeId: nodeKey, decision: "reject", feedback: feedback.trim() }, { onSuccess: clearFeedback });
  };
  return (
    <ActionForm onSubmit={requestChanges}>
      <label htmlFor={id} className="field-title">
        Feedback
      </label>
      <textarea id={id} className="textarea" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
      {validation ? <p className="hint hint-error" role="alert">{validation}</p> : null}
      <ActionError error={review.error} />
      <div className="composer-actions">
        <button type="submit" className="button button-secondary" disabled={review.isPending}>
          Request changes
        </button>
        <button type="button" className="button button-primary" disabled={review.isPending} aria-busy={review.isPending} onClick={() => review.mutate({ runId, nodeId: nodeKey, decision: "approve" })}>
          {review.isPending ? <Spinner /> : null}
          Approve
        </button>
      </div>
    </ActionForm>
  );
}
