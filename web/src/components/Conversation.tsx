/**
 * Every run told as a conversation, whichever front door owns it: one component draws the nine kinds of turn the
 * server speaks (see `turns.ts`), and an adapter per door supplies what differs: each node's avatar, how a body
 * renders where the door tells more (an agent's artifact, a YAML node's text, a step's result), the composers a
 * waiting turn offers, a door's own system events, where its runs live, and "Re-run from here" under a node's turn.
 * What a door does not override is drawn the same for every door: a node starting (live while it works), failing
 * (with Retry while it can be retried), skipped, a person's decision, a retry, a resumption, forks, and the outcome.
 */
import { Fragment, type ReactNode } from "react";
import { CancelledNote, HumanTurn, OutcomeLine, ResumedLine, type RetryControl, RetriedLine, SystemLine, cutLongText } from "./Chat";
import { CheckIcon } from "./icons";
import { NodeFailed, NodeMessage, NodeSkipped, NodeStarted } from "./NodeTurns";
import { type ForkTarget, WithRerunFromHere } from "./RerunFromHere";
import { Link } from "../lib/router";
import type { CommonTurn, ForkedBody, ForkedIntoBody, TurnKind, TurnNode, TurnNotes } from "./turns";

type KindOf<T extends CommonTurn, K extends TurnKind> = Extract<T, { kind: K }>;

/** What a door draws of its own: for each kind it overrides, its turn drawn (null: nothing; undefined: as every door). */
export type TurnRenderers<T extends CommonTurn> = { [K in TurnKind]?: (turn: KindOf<T, K>, notes: TurnNotes) => ReactNode | undefined };

export interface ConversationAdapter<T extends CommonTurn> {
  /** The run the turns are of. */
  runId: string;
  /** A node's avatar (null: the run's). */
  avatar(node: TurnNode | null): ReactNode;
  /** What a node does while it works ("working", "running"). */
  verb?: string;
  /** A node's kind, where the door names it beside the node's name in a line ("draft (prompt) started"); none unless given. */
  kindOf?(node: TurnNode): string | null;
  /** How the door names its input turn ("Input", "Message", "Inputs", "Brief"). */
  inputName?: string;
  /** Where one of its runs lives, how it is named in a line ("run 1a2b3c4d", "RUN_…"), and the comparison of two. */
  runPath(runId: string): string;
  runName(runId: string): string;
  comparePath?(a: string, b: string): string;
  /** Retry on a failure that can be retried now. */
  retry?(nodeId: string): RetryControl;
  /** "Re-run from here" under a node's output, failure, wait or decision; null or absent where none is offered. */
  forkOf?(nodeId: string): ForkTarget | null;
  /** What the door draws its own way. */
  render?: TurnRenderers<T>;
}

/**
 * Turns that show a node's work or its wait: "Re-run from here" goes under them, where the door offers forks. Not
 * under a person's decision: it is the person's turn, and the wait it answered already offers the node.
 */
const FORKABLE: ReadonlySet<TurnKind> = new Set(["output", "failed", "waiting"]);

export function Conversation<T extends CommonTurn>({ turns, notes, adapter }: { turns: readonly T[]; notes: TurnNotes; adapter: ConversationAdapter<T> }) {
  return (
    <>
      {turns.map((turn) => (
        <Fragment key={turn.id}>
          <TurnView turn={turn} notes={notes} adapter={adapter} />
        </Fragment>
      ))}
    </>
  );
}

export function TurnView<T extends CommonTurn>({ turn, notes, adapter }: { turn: T; notes: TurnNotes; adapter: ConversationAdapter<T> }) {
  const own = adapter.render?.[turn.kind] as ((turn: T, notes: TurnNotes) => ReactNode | undefined) | undefined;
  const drawn = own?.(turn, notes);
  const body = drawn !== undefined ? drawn : <CommonTurnView turn={turn} notes={notes} adapter={adapter} />;
  if (body === null) return null;
  const target = FORKABLE.has(turn.kind) && turn.node ? (adapter.forkOf?.(turn.node.id) ?? null) : null;
  return <WithRerunFromHere target={target}>{body}</WithRerunFromHere>;
}

/** A value as a turn's body shows it: text as itself, anything else as JSON. */
export function TurnValue({ value, label }: { value: unknown; label: string }) {
  if (typeof value === "string") return <p className="turn-text">{cutLongText(value)}</p>;
  const text = value === undefined ? "null" : JSON.stringify(value, null, 2);
  return (
    <pre className="code-block json flow-value" tabIndex={0} aria-label={label}>
      <code>{cutLongText(text)}</code>
    </pre>
  );
}

const decidedWords: Record<CommonTurn<"decided">["body"]["decision"], string> = {
  approve: "Approved", request_changes: "Requested changes to", complete: "Completed", answer: "Replied to",
};

function CommonTurnView<T extends CommonTurn>({ turn: given, notes, adapter }: { turn: T; notes: TurnNotes; adapter: ConversationAdapter<T> }) {
  const turn: CommonTurn = given;
  const name = turn.node?.label ?? "the run";
  const kind = turn.node ? (adapter.kindOf?.(turn.node) ?? null) : null;
  /** The node as a line names it: with its kind, where the door names one. */
  const line = kind ? `${name} (${kind})` : name;
  switch (turn.kind) {
    case "input":
      return (
        <HumanTurn label={adapter.inputName ?? "Input"} author={<span className="message-author">{adapter.inputName ?? "Input"}</span>} actor={turn.who} actorWord="from" at={turn.at}>
          {turn.body.value === null ? <p className="turn-text muted">The run was started without an input.</p> : <TurnValue value={turn.body.value} label="The run's input" />}
        </HumanTurn>
      );
    case "started":
      return (
        <NodeStarted
          name={name} detail={kind ? `(${kind}) ` : ""} line={line} avatar={adapter.avatar(turn.node)} verb={adapter.verb ?? "working"}
          revising={turn.body.revising} attempt={turn.attempt ?? 1} at={turn.at} live={notes.working.has(turn.id)}
        />
      );
    case "output":
      return (
        <NodeMessage label={`Output of ${name}`} avatar={adapter.avatar(turn.node)} name={name} at={turn.at} body="flow-turn-body"
          tags={turn.attempt !== null && turn.attempt > 1 ? <span className="version-badge">attempt {turn.attempt}</span> : null}>
          <TurnValue value={turn.body.value} label={`Output of ${name}`} />
        </NodeMessage>
      );
    case "failed": {
      const retry = notes.retryable.has(turn.id) && turn.node && adapter.retry ? adapter.retry(turn.node.id) : null;
      return (
        <NodeFailed label={`${name} failed`} author={`${line} failed`} avatar={adapter.avatar(turn.node)} retrying={turn.body.retrying}
          attempt={turn.attempt ?? undefined} at={turn.at} error={turn.body.error || "No error was recorded."} retry={retry} />
      );
    }
    case "skipped":
      return <NodeSkipped name={line} at={turn.at} reason={turn.body.reason || "No reason was recorded."} />;
    case "waiting":
      return (
        <NodeMessage label={`${name} waits for a person`} avatar={adapter.avatar(turn.node)} name={name} at={turn.at} awaiting={notes.awaiting.has(turn.id)} body="flow-turn-body">
          {turn.body.prompt ? <p className="turn-text flow-prompt">{turn.body.prompt}</p> : null}
          {turn.body.value !== null && turn.body.value !== undefined ? <TurnValue value={turn.body.value} label={`What reached ${name}`} /> : null}
        </NodeMessage>
      );
    case "decided":
      return <DecidedTurn turn={turn} />;
    case "system":
      return <SystemTurn turn={turn} adapter={adapter} />;
    case "outcome":
      return turn.body.status === "cancelled" ? <CancelledNote at={turn.at} actor={turn.who} reason={turn.body.reason} /> : <OutcomeLine at={turn.at} actor={turn.who} outcome={turn.body.status} />;
  }
}

const isForked = (body: { event: string }): body is ForkedBody => body.event === "forked";
const isForkedInto = (body: { event: string }): body is ForkedIntoBody => body.event === "forked_into";

/** A person's decision at a node, signed, with their words quoted and what a completion gave the node. */
export function DecidedTurn({ turn, label: given, extra }: { turn: CommonTurn<"decided">; label?: string; extra?: ReactNode }) {
  const { decision, text, value } = turn.body;
  const label = given ?? `${decidedWords[decision]} ${turn.node?.label ?? "the run"}`;
  const hasValue = decision === "complete" && value !== null && value !== undefined;
  const tone = decision === "request_changes" ? "decision-rejected" : decision === "answer" ? "decision-reply" : "decision-approved";
  return (
    <HumanTurn
      label={label}
      author={
        <span className={`decision ${tone}`}>
          {decision === "approve" || decision === "complete" ? <CheckIcon /> : null}
          {label}
        </span>
      }
      extra={extra}
      actor={turn.who}
      at={turn.at}
      quiet={!(text || hasValue)}
    >
      {text ? <blockquote className="feedback-quote">{text}</blockquote> : null}
      {hasValue ? <TurnValue value={value} label={`Input given to ${turn.node?.label ?? "the run"}`} /> : null}
    </HumanTurn>
  );
}

/** The events every door tells alike; any other event is the door's to draw (and is not drawn without it). */
function SystemTurn<T extends CommonTurn>({ turn, adapter }: { turn: CommonTurn<"system">; adapter: ConversationAdapter<T> }) {
  const name = turn.node?.label ?? "the run";
  const body = turn.body;
  if (isForked(body)) {
    return (
      <HumanTurn
        label={`Forked from ${name}`}
        author={
          <span className="message-author">
            Forked from {name} of <Link to={adapter.runPath(body.from_run_id)}>{adapter.runName(body.from_run_id)}</Link>
          </span>
        }
        actor={turn.who}
        at={turn.at}
        className="turn-forked"
        quiet={!body.feedback}
      >
        {body.feedback ? <blockquote className="feedback-quote">{body.feedback}</blockquote> : null}
      </HumanTurn>
    );
  }
  if (isForkedInto(body)) {
    const fork = body.fork_run_id;
    return (
      <SystemLine at={turn.at} actor={turn.who}>
        Forked at {name} into <Link to={adapter.runPath(fork)}>{adapter.runName(fork)}</Link>
        {adapter.comparePath ? (
          <>
            {" "}(<Link to={adapter.comparePath(adapter.runId, fork)} aria-label={`Compare with ${adapter.runName(fork)}`}>compare</Link>)
          </>
        ) : null}
      </SystemLine>
    );
  }
  switch (body.event) {
    case "retried":
      return <RetriedLine name={name} at={turn.at} actor={turn.who} />;
    case "resumed":
      return <ResumedLine at={turn.at} actor={turn.who} />;
    default:
      return null;
  }
}

