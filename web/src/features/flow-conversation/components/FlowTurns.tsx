/**
 * One component per kind of flow turn: the run's input, a node starting (live while it works), its output, a
 * Splitter's paths, a failure (with Retry while it can be retried, or the note that it is tried again by itself), a
 * skipped node, a gate waiting for a person (with its composer while it can be answered, or who it waits for), the
 * person's decision with their feedback or input, retries, resumptions, the cancellation and the outcome. Each renders
 * only what its turn holds; what a person can do arrives as `actions`, so every state renders from props.
 */
import { memo } from "react";
import { CancelledNote, HumanTurn, OutcomeLine, ResumedLine, type RetryControl, RetriedLine, SystemLine, Time, cutLongText } from "../../../components/Chat";
import { NodeFailed, NodeMessage, NodeSkipped, NodeStarted } from "../../../components/NodeTurns";
import { GlyphAvatar } from "../../../components/AgentAvatar";
import { CheckIcon } from "../../../components/icons";
import { RefusedDecisionCard, type RefusedDecisionCardProps } from "../../../components/RefusedDecisionCard";
import type { PendingDecision } from "../../../components/ReviewForm";
import { useMayDecide } from "../../../lib/decisions";
import type { Decision, FlowTurn } from "../../../lib/trpc";
import { type FlowTurnNotes, shownValue } from "../utils/turns";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import { CompletionComposer, ReviewGateComposer } from "./GateComposers";
import { Link, paths } from "../../../lib/router";
import { type ForkTarget, WithRerunFromHere } from "../../../components/RerunFromHere";

type TurnOf<K extends FlowTurn["kind"]> = Extract<FlowTurn, { kind: K }>;

/** What a person can do on a run's nodes, what is being sent or was refused, per node, and each waiting node's decision. */
export interface FlowTurnActions {
  runId: string;
  pending(nodeId: string): "complete" | "approve" | "reject" | "retry" | null;
  error(nodeId: string): unknown;
  /** Resolve true once the server accepted, so the composer can be cleared. */
  complete(nodeId: string, output: unknown): Promise<boolean>;
  /** `waitId`: the waiting turn answered, where a refusal's card shows if someone decided first. */
  approve(nodeId: string, waitId: string): Promise<boolean>;
  requestChanges(nodeId: string, feedback: string, waitId: string): Promise<boolean>;
  retry(nodeId: string): void;
  /** The open decision a waiting node's wait is, once read. */
  decision(nodeId: string): Decision | undefined;
  /** "Re-run from here" on a node: what a fork at it starts from; null where no fork can start (a node that never ran). */
  forkOf(nodeId: string): ForkTarget | null;
  /** The review of the wait `waitId` the server refused because someone decided first, with what changed. */
  refused(waitId: string): Pick<RefusedDecisionCardProps, "refused" | "change" | "onDiscard" | "resend"> | null;
}

const glyph: Record<string, string> = { Worker: "W", UX: "U", Splitter: "S", Collector: "C" };

function NodeAvatar({ type }: { type: string }) {
  return <GlyphAvatar className={`avatar-flow type-${type.toLowerCase()}`} glyph={glyph[type] ?? "•"} />;
}

/** A JSON value or a text, as a turn's body shows it. */
function Value({ value, label }: { value: unknown; label: string }) {
  const shown = shownValue(value);
  if (!shown.json) return <p className="turn-text">{cutLongText(shown.text)}</p>;
  return (
    <pre className="code-block json flow-value" tabIndex={0} aria-label={label}>
      <code>{shown.text}</code>
    </pre>
  );
}

/** Turns that show a node's work (or its wait): each offers "Re-run from here" under it. */
const FORKABLE: ReadonlySet<FlowTurn["kind"]> = new Set(["output", "failed", "waiting", "copied", "decided"]);

export function FlowTurnItem({ turn, notes, actions }: { turn: FlowTurn; notes: FlowTurnNotes; actions: FlowTurnActions }) {
  const target = FORKABLE.has(turn.kind) && "node_id" in turn ? actions.forkOf(turn.node_id) : null;
  return (
    <WithRerunFromHere target={target}>
      <FlowTurnBody turn={turn} notes={notes} actions={actions} />
    </WithRerunFromHere>
  );
}

function FlowTurnBody({ turn, notes, actions }: { turn: FlowTurn; notes: FlowTurnNotes; actions: FlowTurnActions }) {
  switch (turn.kind) {
    case "input":
      return <InputTurn turn={turn} />;
    case "started":
      return <StartedTurn turn={turn} live={notes.working.has(turn.id)} />;
    case "output":
      return <OutputTurn turn={turn} />;
    case "split":
      return (
        <SystemLine at={turn.at} actor={null}>
          {turn.label} split its input into {turn.paths} {turn.paths === 1 ? "path" : "paths"}
        </SystemLine>
      );
    case "failed": {
      const retry = notes.retryable.has(turn.id)
        ? { pending: actions.pending(turn.node_id) === "retry", error: actions.error(turn.node_id), onRetry: () => actions.retry(turn.node_id) }
        : null;
      return <FailedTurn turn={turn} retry={retry} />;
    }
    case "skipped":
      return <NodeSkipped name={turn.label} at={turn.at} reason={turn.reason} />;
    case "waiting":
      return <WaitingTurn turn={turn} open={notes.awaiting.has(turn.id)} actions={actions} />;
    case "decided":
      return <DecidedTurn turn={turn} />;
    case "retried":
      return <RetriedLine name={turn.label} at={turn.at} actor={turn.actor} />;
    case "cancelled":
      return <CancelledNote at={turn.at} actor={turn.actor} reason={turn.reason} />;
    case "resumed":
      return <ResumedLine at={turn.at} actor={turn.actor} />;
    case "outcome":
      return <OutcomeLine at={turn.at} actor={null} outcome={turn.status} />;
    case "forked":
      return <ForkedTurn turn={turn} />;
    case "copied":
      return <CopiedTurn turn={turn} />;
    case "forked_into":
      return (
        <SystemLine at={turn.at} actor={turn.actor}>
          Forked at {turn.label} into <Link to={paths.flowRun(turn.fork_run_id)}>run {turn.fork_run_id.slice(0, 8)}</Link> (<Link to={paths.flowRunCompare(actions.runId, turn.fork_run_id)}>compare</Link>)
        </SystemLine>
      );
  }
}

/** The fork's first turn: where it came from, with what was changed. */
export function ForkedTurn({ turn }: { turn: TurnOf<"forked"> }) {
  return (
    <HumanTurn
      label={`Forked from ${turn.label}`}
      author={
        <span className="message-author">
          Forked from {turn.label} of <Link to={paths.flowRun(turn.from_run_id)}>run {turn.from_run_id.slice(0, 8)}</Link>
        </span>
      }
      actor={turn.actor}
      at={turn.at}
      className="turn-forked"
    >
      {turn.feedback ? <p className="turn-text">“{turn.feedback}”</p> : null}
      {turn.input !== null ? <Value value={turn.input} label={`The edited input of ${turn.label}`} /> : <p className="muted small">{turn.label} started again from what the nodes before it gave.</p>}
    </HumanTurn>
  );
}

/** A node the fork copied from its parent, collapsed: its output as the parent had it. */
export function CopiedTurn({ turn }: { turn: TurnOf<"copied"> }) {
  return (
    <details className="turn-copied turn-not-run">
      <summary>
        {turn.label} {turn.status} in run {turn.from_run_id.slice(0, 8)} · copied · <Time at={turn.at} />
      </summary>
      <p className="small">
        Copied as <Link to={paths.flowRun(turn.from_run_id)}>run {turn.from_run_id.slice(0, 8)}</Link> had it: not run again here.
      </p>
      {turn.decided ? <CopiedDecisionLine decided={turn.decided} /> : null}
      <Value value={turn.output} label={`Output of ${turn.label}, copied`} />
    </details>
  );
}

const decisionWords: Record<NonNullable<TurnOf<"copied">["decided"]>["decision"], string> = {
  approve: "Approved", request_changes: "Changes requested", complete: "Completed", answer: "Answered",
};

/** A copied node's decision: it stays decided in the fork, as who took it, when and in which run. */
function CopiedDecisionLine({ decided }: { decided: NonNullable<TurnOf<"copied">["decided"]> }) {
  return (
    <p className="small copied-decision">
      {decisionWords[decided.decision]}
      {decided.by ? ` by ${decided.by}` : ""} · <Time at={decided.at} /> · decided in <Link to={paths.flowRun(decided.run_id)}>run {decided.run_id.slice(0, 8)}</Link>
    </p>
  );
}

export const InputTurn = memo(function InputTurn({ turn }: { turn: TurnOf<"input"> }) {
  return (
    <HumanTurn label="Input" author={<span className="message-author">Input</span>} actor={turn.started_by} actorWord="from" at={turn.at}>
      {turn.input === null ? <p className="turn-text muted">The run was started without an input.</p> : <Value value={turn.input} label="The run's input" />}
    </HumanTurn>
  );
});

export function StartedTurn({ turn, live }: { turn: TurnOf<"started">; live: boolean }) {
  return (
    <NodeStarted
      name={turn.label}
      line={turn.label}
      avatar={<NodeAvatar type={turn.node_type} />}
      verb="working"
      revising={turn.feedback !== null}
      attempt={turn.attempt}
      at={turn.at}
      live={live}
    />
  );
}

export const OutputTurn = memo(function OutputTurn({ turn }: { turn: TurnOf<"output"> }) {
  const label = `Output of ${turn.label}`;
  return (
    <NodeMessage
      label={label}
      avatar={<NodeAvatar type={turn.node_type} />}
      name={turn.label}
      tags={
        <>
          <span className="tag flow-node-type">{turn.node_type}</span>
          {turn.attempt > 1 ? <span className="version-badge">attempt {turn.attempt}</span> : null}
        </>
      }
      at={turn.at}
      body="flow-turn-body"
    >
      <Value value={turn.output} label={label} />
    </NodeMessage>
  );
});

export function FailedTurn({ turn, retry }: { turn: TurnOf<"failed">; retry: RetryControl | null }) {
  return (
    <NodeFailed
      label={`${turn.label} failed`}
      author={`${turn.label} failed`}
      avatar={<NodeAvatar type={turn.node_type} />}
      retrying={turn.retrying}
      attempt={turn.attempt}
      at={turn.at}
      error={turn.error}
      retry={retry}
    />
  );
}

const gateWords = {
  review: { asks: "asks for a review", chip: "review" },
  approval: { asks: "asks for approval", chip: "approval" },
  completion: { asks: "asks for input", chip: "input" },
} as const;

/** A gate waiting for a person: what it asks (the output under review, or its prompt and what reached it), with the composer while it can be answered. */
export function WaitingTurn({ turn, open, actions }: { turn: TurnOf<"waiting">; open: boolean; actions: FlowTurnActions }) {
  const words = gateWords[turn.gate];
  const decision = open ? actions.decision(turn.node_id) : undefined;
  // "Your" only for whoever may answer it; anyone else reads that it waits for one.
  const yours = useMayDecide(decision);
  const pending = actions.pending(turn.node_id);
  const review = turn.gate !== "completion";
  const refused = review ? actions.refused(turn.id) : null;
  return (
    <>
      <NodeMessage
        label={`${turn.label} ${words.asks}`}
        avatar={<NodeAvatar type={turn.node_type} />}
        name={turn.label}
        tags={
          <>
            <span className="tag flow-node-type">{turn.gate === "completion" ? "UX" : `${turn.gate} gate`}</span>
            {open ? <span className="waiting-chip">Awaiting {yours ? "your" : "a person's"} {words.chip}</span> : null}
          </>
        }
        at={turn.at}
        awaiting={open}
        body="flow-turn-body"
      >
        {turn.prompt ? <p className="turn-text flow-prompt">{turn.prompt}</p> : null}
        {turn.reviewed ? (
          <>
            <p className="turn-note">The output of {turn.reviewed.label}, for review:</p>
            {open ? (
              <ReviewedOutput target={{ runId: actions.runId, nodeId: turn.node_id, waiting: true }}>
                <Value value={turn.reviewed.output} label={`Output of ${turn.reviewed.label} under review`} />
              </ReviewedOutput>
            ) : (
              <Value value={turn.reviewed.output} label={`Output of ${turn.reviewed.label} under review`} />
            )}
          </>
        ) : turn.input !== null ? (
          <details className="flow-received">
            <summary>What reached {turn.label}</summary>
            <Value value={turn.input} label={`Input of ${turn.label}`} />
          </details>
        ) : turn.prompt ? null : (
          <p className="muted small">Complete it to go on.</p>
        )}
      </NodeMessage>
      {open && review ? (
        <ReviewGateComposer
          runId={actions.runId}
          nodeId={turn.node_id}
          label={turn.label}
          reviewedLabel={turn.reviewed?.label ?? turn.label}
          decision={decision}
          pending={pending === "approve" || pending === "reject" ? (pending as PendingDecision) : null}
          error={actions.error(turn.node_id)}
          onApprove={() => actions.approve(turn.node_id, turn.id)}
          onRequestChanges={(feedback) => actions.requestChanges(turn.node_id, feedback, turn.id)}
        />
      ) : null}
      {!open && refused ? <RefusedDecisionCard {...refused} subject={turn.label} /> : null}
      {open && !review ? (
        <CompletionComposer
          runId={actions.runId}
          nodeId={turn.node_id}
          label={turn.label}
          decision={decision}
          pending={pending === "complete"}
          error={actions.error(turn.node_id)}
          onComplete={(output) => actions.complete(turn.node_id, output)}
        />
      ) : null}
    </>
  );
}

const decidedWords = { approve: "Approved", request_changes: "Requested changes to", complete: "Completed" } as const;

/** A person's decision at a gate, signed, with their feedback or their input. */
export function DecidedTurn({ turn }: { turn: TurnOf<"decided"> }) {
  const label = `${decidedWords[turn.decision]} ${turn.label}`;
  const words = turn.decision === "request_changes" ? turn.feedback : null;
  const hasOutput = turn.decision === "complete" && turn.output !== null;
  return (
    <HumanTurn
      label={label}
      author={
        <span className={`decision ${turn.decision === "request_changes" ? "decision-rejected" : "decision-approved"}`}>
          {turn.decision === "request_changes" ? null : <CheckIcon />}
          {label}
        </span>
      }
      actor={turn.actor}
      at={turn.at}
      quiet={!(words || hasOutput)}
    >
      {words ? <blockquote className="feedback-quote">{words}</blockquote> : null}
      {hasOutput ? <Value value={turn.output} label={`Input given to ${turn.label}`} /> : null}
    </HumanTurn>
  );
}
