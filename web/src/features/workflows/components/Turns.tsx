/**
 * One component per kind of workflow turn: the run's message, a node starting (live while it works), its output,
 * a loop's iteration, a skipped node (folded, with its reason), a failure (with Retry while it can be retried),
 * a wait for a person (with the review or reply composer while it can be answered), the person's decisions and
 * replies, retries, resumptions, the cancellation and the outcome. Each renders only what its turn holds; what a
 * person can do arrives as `actions`, so every state renders from props.
 */
import { memo } from "react";
import { AgentAvatar, GlyphAvatar } from "../../../components/AgentAvatar";
import { CancelledNote, HumanTurn, OutcomeLine, ResumedLine, type RetryControl, RetriedLine, SystemLine } from "../../../components/Chat";
import { NodeFailed, NodeMessage, NodeSkipped, NodeStarted } from "../../../components/NodeTurns";
import { CheckIcon } from "../../../components/icons";
import { RefusedDecisionCard, type RefusedDecisionCardProps } from "../../../components/RefusedDecisionCard";
import { ReviewForm } from "../../../components/ReviewForm";
import { type ForkTarget, WithRerunFromHere } from "../../../components/RerunFromHere";
import { useMayDecide } from "../../../lib/decisions";
import { Link, paths } from "../../../lib/router";
import type { Decision, WorkflowTurn } from "../../../lib/trpc";
import { copiedDecisions, dataNumber, dataText, nodeName, type TurnNotes } from "../utils/turns";
import { ReplyComposer } from "./ReplyComposer";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import { TurnOutput } from "./TurnOutput";

export type NodeAction = "approve" | "reject" | "reply" | "retry";

/** What a person can do on a run's nodes, and what is being sent or was refused, per node. */
export interface TurnActions {
  /** The workflow run, whose approvals' outputs are shown for inline review. */
  runId?: string;
  pending(nodeId: string): NodeAction | null;
  error(nodeId: string): unknown;
  /** Resolve true once the server accepted, so the composer can be cleared; `waitId` is the waiting turn answered. */
  approve(nodeId: string, comment: string, waitId: string): Promise<boolean>;
  reject(nodeId: string, reason: string, waitId: string): Promise<boolean>;
  reply(nodeId: string, text: string): Promise<boolean>;
  retry(nodeId: string): void;
  /** The open decision a waiting node's wait is, once read: who may answer it, since when it waits. */
  decision(nodeId: string): Decision | undefined;
  /** The decision on the wait `waitId` the server refused because someone decided first, with what changed. */
  refused(waitId: string): (Pick<RefusedDecisionCardProps, "refused" | "change" | "onDiscard" | "resend">) | null;
  /** "Re-run from here" on a node (a YAML run's): what a fork at it starts from; absent or null where none is offered. */
  forkOf?(nodeId: string): ForkTarget | null;
}

/** Turns that show a node's work or its wait: each offers "Re-run from here" under it, where the run offers forks. */
const FORKABLE: ReadonlySet<WorkflowTurn["kind"]> = new Set(["output", "failed", "waiting", "approved"]);

export function TurnItem({ turn, notes, actions }: { turn: WorkflowTurn; notes: TurnNotes; actions: TurnActions }) {
  const target = FORKABLE.has(turn.kind) && turn.node_id ? (actions.forkOf?.(turn.node_id) ?? null) : null;
  return (
    <WithRerunFromHere target={target}>
      <TurnBody turn={turn} notes={notes} actions={actions} />
    </WithRerunFromHere>
  );
}

/** Where a person's text for a wait is kept until it is sent (see useDraft). */
export const workflowDraftKey = (waitId: string) => `workflow-turn:${waitId}`;

const kindGlyph: Record<string, string> = { prompt: "P", command: "C", bash: "$", script: "S", loop: "L", approval: "A", cancel: "X" };

function NodeAvatar({ kind }: { kind: string | null }) {
  return <GlyphAvatar className={`avatar-node kind-${kind ?? "none"}`} glyph={kindGlyph[kind ?? ""] ?? "•"} />;
}

function KindTag({ kind }: { kind: string | null }) {
  return kind ? <span className="tag node-kind">{kind}</span> : null;
}


function TurnBody({ turn, notes, actions }: { turn: WorkflowTurn; notes: TurnNotes; actions: TurnActions }) {
  const node = turn.node_id ?? "";
  switch (turn.kind) {
    case "message":
      return <MessageTurn turn={turn} />;
    case "started":
      return <StartedTurn turn={turn} live={notes.working.has(turn.id)} />;
    case "output":
    case "iteration":
      return <OutputTurn turn={turn} />;
    case "skipped":
      return <SkippedTurn turn={turn} />;
    case "failed": {
      const retry = notes.retryable.has(turn.id) ? { pending: actions.pending(node) === "retry", error: actions.error(node), onRetry: () => actions.retry(node) } : null;
      return <FailedTurn turn={turn} retry={retry} />;
    }
    case "waiting":
      return <WaitingTurn turn={turn} open={notes.awaiting.has(turn.id)} actions={actions} />;
    case "approved":
      if (turn.data?.edited !== true) return <DecisionTurn turn={turn} label={`Approved ${node}`} tone="approved" />;
      return (
        <>
          <DecisionTurn turn={turn} label={`Approved ${node} with the reviewer's edits`} tone="approved" />
          {actions.runId ? <ApprovedEditTurn turn={turn} runId={actions.runId} /> : null}
        </>
      );
    case "rejected":
      return <DecisionTurn turn={turn} label={`Requested changes to ${node}`} tone="rejected" />;
    case "input":
      return <DecisionTurn turn={turn} label={`Replied to ${node}`} tone="reply" />;
    case "cancelled":
      return <CancelledNote at={turn.at} actor={turn.actor} reason={turn.text} />;
    case "retried":
      return <RetriedLine name={node} at={turn.at} actor={turn.actor} />;
    case "resumed":
      return <ResumedLine at={turn.at} actor={turn.actor} />;
    case "outcome":
      return <OutcomeLine at={turn.at} actor={turn.actor} outcome={turn.text} />;
    case "forked": {
      const from = dataText(turn, "from_run_id");
      return (
        <SystemLine at={turn.at} actor={turn.actor}>
          Forked at {node}
          {from ? (
            <>
              {" "}from <Link to={paths.workflows.run(from)}>run {from.slice(0, 8)}</Link>
            </>
          ) : null}
          ; the nodes before it were copied from it, not run again
          {copiedDecisions(turn).map(([nodeId, decided]) => (
            <span key={nodeId} className="copied-decision">
              {" "}· {nodeId} {decided.decision === "approve" ? "approved" : decided.decision.replace("_", " ")}
              {decided.by ? ` by ${decided.by}` : ""}, decided in <Link to={paths.workflows.run(decided.run_id)}>run {decided.run_id.slice(0, 8)}</Link>
            </span>
          ))}
        </SystemLine>
      );
    }
  }
}

export const MessageTurn = memo(function MessageTurn({ turn }: { turn: WorkflowTurn }) {
  return (
    <HumanTurn label="Message" author={<span className="message-author">Message</span>} actor={turn.actor} at={turn.at}>
      {turn.text ? <p className="turn-text">{turn.text}</p> : <p className="turn-text muted">The run was started without a message.</p>}
    </HumanTurn>
  );
});

export function StartedTurn({ turn, live }: { turn: WorkflowTurn; live: boolean }) {
  return (
    <NodeStarted
      name={turn.node_id ?? ""}
      detail={turn.node_kind ? `(${turn.node_kind}) ` : ""}
      line={nodeName(turn)}
      avatar={<NodeAvatar kind={turn.node_kind} />}
      verb="running"
      revising={turn.data?.rejection_work === true}
      attempt={dataNumber(turn, "attempt") ?? 1}
      at={turn.at}
      live={live}
    />
  );
}

export const OutputTurn = memo(function OutputTurn({ turn }: { turn: WorkflowTurn }) {
  const node = turn.node_id ?? "";
  const iteration = turn.kind === "iteration" ? dataNumber(turn, "iteration") : null;
  const outputType = dataText(turn, "output_type");
  const model = dataText(turn, "model");
  const feedback = dataText(turn, "reason");
  const label = iteration !== null ? `${node}, iteration ${iteration}` : `Output of ${node}`;
  return (
    <NodeMessage
      label={label}
      avatar={<NodeAvatar kind={turn.node_kind} />}
      name={node}
      tags={
        <>
          <KindTag kind={turn.node_kind} />
          {iteration !== null ? <span className="version-badge">iteration {iteration}</span> : null}
          {outputType ? (
            <span className="output-type" title="The node's output_type">
              {outputType}
            </span>
          ) : null}
          {turn.data?.responder === "offline" ? (
            <span className="offline-badge" title="No LLM is configured: this is the offline responder's deterministic echo of the prompt, not a model's answer">
              offline responder
            </span>
          ) : model ? (
            <span className="muted small">{model}</span>
          ) : null}
        </>
      }
      at={turn.at}
      card="turn-card"
      body="turn-body"
    >
      {feedback ? (
        <p className="turn-note">
          Revised after the feedback <q>{feedback}</q>
        </p>
      ) : null}
      <TurnOutput text={turn.text ?? ""} nodeKind={turn.node_kind} label={label} />
    </NodeMessage>
  );
});

export function SkippedTurn({ turn }: { turn: WorkflowTurn }) {
  return <NodeSkipped name={nodeName(turn)} at={turn.at} reason={turn.text || "No reason was recorded."} />;
}

export function FailedTurn({ turn, retry }: { turn: WorkflowTurn; retry: RetryControl | null }) {
  return (
    <NodeFailed
      label={`${turn.node_id} failed`}
      author={`${nodeName(turn)} failed`}
      avatar={<AgentAvatar agent={null} />}
      retrying={turn.data?.retrying === true}
      at={turn.at}
      error={turn.text || "No error was recorded."}
      retry={retry}
    />
  );
}

/** A node waiting for a person: an approval's message, or an interactive loop's question, with the composer while it can be answered. */
export function WaitingTurn({ turn, open, actions }: { turn: WorkflowTurn; open: boolean; actions: TurnActions }) {
  const node = turn.node_id ?? "";
  const approval = turn.node_kind === "approval";
  const pending = actions.pending(node);
  const decision = open ? actions.decision(node) : undefined;
  // "Your" only for whoever may answer it; anyone else reads that it waits for one.
  const yours = useMayDecide(decision);
  const refused = approval ? actions.refused(turn.id) : null;
  return (
    <>
      <NodeMessage
        label={approval ? `${node} asks for approval` : `${node} asks for a reply`}
        avatar={<NodeAvatar kind={turn.node_kind} />}
        name={node}
        tags={
          <>
            <KindTag kind={turn.node_kind} />
            {open ? <span className="waiting-chip">{approval ? `Awaiting ${yours ? "your " : ""}review` : `Awaiting ${yours ? "your" : "a"} reply`}</span> : null}
          </>
        }
        at={turn.at}
        awaiting={open}
        card="turn-card"
        body="turn-body"
      >
        {turn.text ? <TurnOutput text={turn.text} nodeKind={null} label={`${node}'s request`} /> : <p className="muted small">{approval ? "Approve to go on." : "Reply to go on."}</p>}
        {open && approval && actions.runId ? <ReviewedOutput target={{ runId: actions.runId, nodeId: node, waiting: true }}>{null}</ReviewedOutput> : null}
      </NodeMessage>
      {open && approval ? (
        <ReviewForm
          subject={node}
          title={`Your review · ${node}`}
          consequence={
            turn.on_reject === "cancel"
              ? "Approving lets the nodes after it run. Rejecting cancels the run: there is no revision step left, and your text is recorded as the reason."
              : "Approving lets the nodes after it run. Requesting changes sends your feedback to the node's on_reject prompt, which revises the work and asks again."
          }
          placeholder="What should change? Optional when you approve."
          hint={`Sent with Approve as a comment, or with ${turn.on_reject === "cancel" ? "Reject and cancel run as the reason" : "Request changes as what must change"}. Ctrl+Enter ${turn.on_reject === "cancel" ? "rejects" : "requests changes"}.`}
          rejectCancels={turn.on_reject === "cancel"}
          pending={pending === "approve" || pending === "reject" ? pending : null}
          error={actions.error(node)}
          decision={decision}
          draftKey={workflowDraftKey(turn.id)}
          onApprove={(comment) => actions.approve(node, comment, turn.id)}
          onReject={(reason) => actions.reject(node, reason, turn.id)}
        />
      ) : null}
      {!open && refused ? <RefusedDecisionCard {...refused} subject={node} /> : null}
      {open && !approval ? <ReplyComposer nodeId={node} pending={pending === "reply"} error={actions.error(node)} decision={decision} draftKey={workflowDraftKey(turn.id)} onReply={(text) => actions.reply(node, text)} /> : null}
    </>
  );
}

const decisionClass = { approved: "decision-approved", rejected: "decision-rejected", reply: "decision-reply" } as const;

/** The version an approval passed on when the reviewer edited it (the later steps read it), with what she changed. */
function ApprovedEditTurn({ turn, runId }: { turn: WorkflowTurn; runId: string }) {
  const node = turn.node_id ?? "";
  return (
    <NodeMessage
      label={`The version ${node} approved`}
      avatar={<NodeAvatar kind="approval" />}
      name={node}
      tags={
        <>
          <KindTag kind="approval" />
          <span className="muted small">passed on the reviewer's version; the steps after it read this</span>
        </>
      }
      card="turn-card"
      body="turn-body"
    >
      <ReviewedOutput target={{ runId, nodeId: node }}>{null}</ReviewedOutput>
    </NodeMessage>
  );
}

/** A person's approval, request for changes or reply to a loop, with their words quoted. */
export function DecisionTurn({ turn, label, tone }: { turn: WorkflowTurn; label: string; tone: keyof typeof decisionClass }) {
  const badge = (
    <span className={`decision ${decisionClass[tone]}`}>
      {tone === "approved" ? <CheckIcon /> : null}
      {label}
    </span>
  );
  return (
    <HumanTurn label={label} author={badge} actor={turn.actor} at={turn.at} quiet={!turn.text}>
      {turn.text ? <blockquote className="feedback-quote">{turn.text}</blockquote> : null}
    </HumanTurn>
  );
}
