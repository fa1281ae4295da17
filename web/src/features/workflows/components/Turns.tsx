/**
 * A YAML run's turns where they read their own way (the rest every run's conversation draws alike, see
 * yamlTurnAdapter.tsx): the run's message, its output (a loop's iteration, an approval's revision, the responder's
 * badge), a wait for a person (with the review or reply composer while it can be answered), an approval that passed on the reviewer's
 * edits, and where a fork came from. Each renders only what its turn holds; what a person can do arrives as
 * `actions`, so every state renders from props.
 */
import { memo } from "react";
import { GlyphAvatar } from "../../../components/AgentAvatar";
import { HumanTurn, SystemLine } from "../../../components/Chat";
import { DecidedTurn } from "../../../components/Conversation";
import { NodeMessage } from "../../../components/NodeTurns";
import { RefusedDecisionCard, type RefusedDecisionCardProps } from "../../../components/RefusedDecisionCard";
import { ReviewForm } from "../../../components/ReviewForm";
import type { ForkTarget } from "../../../components/RerunFromHere";
import type { TurnNode } from "../../../components/turns";
import { useMayDecide } from "../../../lib/decisions";
import { Link, paths } from "../../../lib/router";
import type { Decision, WorkflowTurn } from "../../../lib/trpc";
import { ReplyComposer } from "./ReplyComposer";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import { TurnOutput } from "./TurnOutput";

/** A YAML run's turn of kind `K`. */
export type YamlTurn<K extends WorkflowTurn["kind"]> = Extract<WorkflowTurn, { kind: K }>;

export type NodeAction = "approve" | "reject" | "reply" | "retry";

/** What a person can do on a run's nodes, and what is being sent or was refused, per node. */
export interface TurnActions {
  /** The workflow run, whose approvals' outputs are shown for inline review (absent: none are). */
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

/** Where a person's text for a wait is kept until it is sent (see useDraft). */
export const workflowDraftKey = (waitId: string) => `workflow-turn:${waitId}`;

const kindGlyph: Record<string, string> = { prompt: "P", command: "C", bash: "$", script: "S", loop: "L", approval: "A", cancel: "X" };

/** A node's avatar: its kind's glyph (none for the run's own turns). */
export function NodeAvatar({ kind }: { kind: string | null }) {
  return <GlyphAvatar className={`avatar-node kind-${kind ?? "none"}`} glyph={kindGlyph[kind ?? ""] ?? "•"} />;
}

function KindTag({ kind }: { kind: string | null }) {
  return kind ? <span className="tag node-kind">{kind}</span> : null;
}

const idOf = (node: TurnNode | null) => node?.id ?? "";

export const MessageTurn = memo(function MessageTurn({ turn }: { turn: YamlTurn<"input"> }) {
  return (
    <HumanTurn label="Message" author={<span className="message-author">Message</span>} actor={turn.who} at={turn.at}>
      {turn.body.value ? <p className="turn-text">{turn.body.value}</p> : <p className="turn-text muted">The run was started without a message.</p>}
    </HumanTurn>
  );
});

export const OutputTurn = memo(function OutputTurn({ turn }: { turn: YamlTurn<"output"> }) {
  const node = idOf(turn.node);
  const kind = turn.node?.type ?? null;
  const { iteration, output_type: outputType, responder, model, feedback } = turn.body;
  const label = iteration !== null ? `${node}, iteration ${iteration}` : `Output of ${node}`;
  return (
    <NodeMessage
      label={label}
      avatar={<NodeAvatar kind={kind} />}
      name={node}
      tags={
        <>
          <KindTag kind={kind} />
          {iteration !== null ? <span className="version-badge">iteration {iteration}</span> : null}
          {outputType ? (
            <span className="output-type" title="The node's output_type">
              {outputType}
            </span>
          ) : null}
          {responder === "offline" ? (
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
      <TurnOutput text={turn.body.value} nodeKind={kind} label={label} />
    </NodeMessage>
  );
});

/** A node waiting for a person: an approval's message, or an interactive loop's question, with the composer while it can be answered. */
export function WaitingTurn({ turn, open, actions }: { turn: YamlTurn<"waiting">; open: boolean; actions: TurnActions }) {
  const node = idOf(turn.node);
  const kind = turn.node?.type ?? null;
  const approval = turn.body.gate === "approval";
  const cancels = turn.body.on_reject === "cancel";
  const pending = actions.pending(node);
  const decision = open ? actions.decision(node) : undefined;
  // "Your" only for whoever may answer it; anyone else reads that it waits for one.
  const yours = useMayDecide(decision);
  const refused = approval ? actions.refused(turn.id) : null;
  return (
    <>
      <NodeMessage
        label={approval ? `${node} asks for approval` : `${node} asks for a reply`}
        avatar={<NodeAvatar kind={kind} />}
        name={node}
        tags={
          <>
            <KindTag kind={kind} />
            {open ? <span className="waiting-chip">{approval ? `Awaiting ${yours ? "your " : ""}review` : `Awaiting ${yours ? "your" : "a"} reply`}</span> : null}
          </>
        }
        at={turn.at}
        awaiting={open}
        card="turn-card"
        body="turn-body"
      >
        {turn.body.prompt ? <TurnOutput text={turn.body.prompt} nodeKind={null} label={`${node}'s request`} /> : <p className="muted small">{approval ? "Approve to go on." : "Reply to go on."}</p>}
        {open && approval && actions.runId ? <ReviewedOutput target={{ runId: actions.runId, nodeId: node, waiting: true }}>{null}</ReviewedOutput> : null}
      </NodeMessage>
      {open && approval ? (
        <ReviewForm
          subject={node}
          title={`Your review · ${node}`}
          consequence={
            cancels
              ? "Approving lets the nodes after it run. Rejecting cancels the run: there is no revision step left, and your text is recorded as the reason."
              : "Approving lets the nodes after it run. Requesting changes sends your feedback to the node's on_reject prompt, which revises the work and asks again."
          }
          placeholder="What should change? Optional when you approve."
          hint={`Sent with Approve as a comment, or with ${cancels ? "Reject and cancel run as the reason" : "Request changes as what must change"}. Ctrl+Enter ${cancels ? "rejects" : "requests changes"}.`}
          rejectCancels={cancels}
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

/**
 * An approval that passed on the reviewer's edited version of the step before it: the decision, then (where the run's
 * outputs can be read) the version the later steps read, with what she changed.
 */
export function EditedApprovalTurn({ turn, runId }: { turn: YamlTurn<"decided">; runId: string | undefined }) {
  const node = idOf(turn.node);
  return (
    <>
      <DecidedTurn turn={turn} label={`Approved ${node} with the reviewer's edits`} />
      {runId ? (
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
      ) : null}
    </>
  );
}

/** How a line names a workflow run: "run 1a2b3c4d". */
export const workflowRunName = (runId: string) => `run ${runId.slice(0, 8)}`;

/** Where a fork came from, linked, and the decisions it kept from the copied nodes (they were not run again). */
export function ForkedLine({ turn, body }: { turn: YamlTurn<"system">; body: Extract<YamlTurn<"system">["body"], { event: "forked" }> }) {
  return (
    <SystemLine at={turn.at} actor={turn.who}>
      Forked at {idOf(turn.node)}{" "}from <Link to={paths.workflows.run(body.from_run_id)}>{workflowRunName(body.from_run_id)}</Link>
      ; the nodes before it were copied from it, not run again
      {Object.entries(body.decided).map(([nodeId, decided]) => (
        <span key={nodeId} className="copied-decision">
          {" "}· {nodeId} {decided.decision === "approve" ? "approved" : decided.decision.replace("_", " ")}
          {decided.by ? ` by ${decided.by}` : ""}, decided in <Link to={paths.workflows.run(decided.run_id)}>{workflowRunName(decided.run_id)}</Link>
        </span>
      ))}
    </SystemLine>
  );
}
