/**
 * The turns a plain flow run draws its own way in the one conversation (`flowTurnAdapter`): a node's output with its
 * type, a gate waiting for a person (with its composer while it can be answered, or who it waits for), a Splitter's
 * paths, where a fork came from (with its edited input), and a node the fork copied. Each renders only what its turn
 * holds; what a person can do arrives as `actions`, so every state renders from props.
 */
import { HumanTurn, SystemLine, Time } from "../../../components/Chat";
import { TurnValue } from "../../../components/Conversation";
import { NodeMessage } from "../../../components/NodeTurns";
import { RefusedDecisionCard, type RefusedDecisionCardProps } from "../../../components/RefusedDecisionCard";
import type { ForkTarget } from "../../../components/RerunFromHere";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import type { PendingDecision } from "../../../components/ReviewForm";
import type { TurnNode } from "../../../components/turns";
import { useMayDecide } from "../../../lib/decisions";
import { Link, paths } from "../../../lib/router";
import type { Decision, FlowTurn } from "../../../lib/trpc";
import { FlowNodeAvatar } from "./FlowNodeAvatar";
import { CompletionComposer, ReviewGateComposer } from "./GateComposers";

type TurnOf<K extends FlowTurn["kind"]> = Extract<FlowTurn, { kind: K }>;
type EventOf<E extends TurnOf<"system">["body"]["event"]> = Extract<TurnOf<"system">["body"], { event: E }>;

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

/** How a flow run is named in a line: "run 1a2b3c4d". */
export const flowRunName = (runId: string) => `run ${runId.slice(0, 8)}`;

/** A node's output, tagged with its type (and its attempt after the first). */
export function OutputTurn({ turn, node }: { turn: TurnOf<"output">; node: TurnNode }) {
  const label = `Output of ${node.label}`;
  return (
    <NodeMessage
      label={label}
      avatar={<FlowNodeAvatar type={node.type} />}
      name={node.label}
      tags={
        <>
          <span className="tag flow-node-type">{node.type}</span>
          {turn.attempt !== null && turn.attempt > 1 ? <span className="version-badge">attempt {turn.attempt}</span> : null}
        </>
      }
      at={turn.at}
      body="flow-turn-body"
    >
      <TurnValue value={turn.body.value} label={label} />
    </NodeMessage>
  );
}

/** A Splitter's array fanned out into its paths. */
export function SplitLine({ at, node, body }: { at: string; node: TurnNode; body: EventOf<"split"> }) {
  return (
    <SystemLine at={at} actor={null}>
      {node.label} split its input into {body.paths} {body.paths === 1 ? "path" : "paths"}
    </SystemLine>
  );
}

/** The fork's first turn: where it came from, with what was changed. */
export function ForkedTurn({ turn, node, body }: { turn: TurnOf<"system">; node: TurnNode; body: EventOf<"forked"> }) {
  return (
    <HumanTurn
      label={`Forked from ${node.label}`}
      author={
        <span className="message-author">
          Forked from {node.label} of <Link to={paths.flowRun(body.from_run_id)}>{flowRunName(body.from_run_id)}</Link>
        </span>
      }
      actor={turn.who}
      at={turn.at}
      className="turn-forked"
    >
      {body.feedback ? <p className="turn-text">“{body.feedback}”</p> : null}
      {body.value !== null ? (
        <TurnValue value={body.value} label={`The edited input of ${node.label}`} />
      ) : (
        <p className="muted small">{node.label} started again from what the nodes before it gave.</p>
      )}
    </HumanTurn>
  );
}

/** A node the fork copied from its parent, collapsed: its output as the parent had it. */
export function CopiedTurn({ at, node, body }: { at: string; node: TurnNode; body: EventOf<"copied"> }) {
  return (
    <details className="turn-copied turn-not-run">
      <summary>
        {node.label} {body.status} in {flowRunName(body.from_run_id)} · copied · <Time at={at} />
      </summary>
      <p className="small">
        Copied as <Link to={paths.flowRun(body.from_run_id)}>{flowRunName(body.from_run_id)}</Link> had it: not run again here.
      </p>
      {body.decided ? <CopiedDecisionLine decided={body.decided} /> : null}
      <TurnValue value={body.output} label={`Output of ${node.label}, copied`} />
    </details>
  );
}

type CopiedDecision = NonNullable<EventOf<"copied">["decided"]>;

const decisionWords: Record<CopiedDecision["decision"], string> = {
  approve: "Approved", request_changes: "Changes requested", complete: "Completed", answer: "Answered",
};

/** A copied node's decision: it stays decided in the fork, as who took it, when and in which run. */
function CopiedDecisionLine({ decided }: { decided: CopiedDecision }) {
  return (
    <p className="small copied-decision">
      {decisionWords[decided.decision]}
      {decided.by ? ` by ${decided.by}` : ""} · <Time at={decided.at} /> · decided in <Link to={paths.flowRun(decided.run_id)}>{flowRunName(decided.run_id)}</Link>
    </p>
  );
}

const gateWords = {
  review: { asks: "asks for a review", chip: "review" },
  approval: { asks: "asks for approval", chip: "approval" },
  completion: { asks: "asks for input", chip: "input" },
} as const;

/** A gate waiting for a person: what it asks (the output under review, or its prompt and what reached it), with the composer while it can be answered. */
export function WaitingTurn({ turn, node, open, actions }: { turn: TurnOf<"waiting">; node: TurnNode; open: boolean; actions: FlowTurnActions }) {
  const { gate, prompt, reviewed, value } = turn.body;
  const words = gateWords[gate];
  const decision = open ? actions.decision(node.id) : undefined;
  // "Your" only for whoever may answer it; anyone else reads that it waits for one.
  const yours = useMayDecide(decision);
  const pending = actions.pending(node.id);
  const review = gate !== "completion";
  const refused = review ? actions.refused(turn.id) : null;
  return (
    <>
      <NodeMessage
        label={`${node.label} ${words.asks}`}
        avatar={<FlowNodeAvatar type={node.type} />}
        name={node.label}
        tags={
          <>
            <span className="tag flow-node-type">{gate === "completion" ? "UX" : `${gate} gate`}</span>
            {open ? <span className="waiting-chip">Awaiting {yours ? "your" : "a person's"} {words.chip}</span> : null}
          </>
        }
        at={turn.at}
        awaiting={open}
        body="flow-turn-body"
      >
        {prompt ? <p className="turn-text flow-prompt">{prompt}</p> : null}
        {reviewed ? (
          <>
            <p className="turn-note">The output of {reviewed.label}, for review:</p>
            {open ? (
              <ReviewedOutput target={{ runId: actions.runId, nodeId: node.id, waiting: true }}>
                <TurnValue value={reviewed.output} label={`Output of ${reviewed.label} under review`} />
              </ReviewedOutput>
            ) : (
              <TurnValue value={reviewed.output} label={`Output of ${reviewed.label} under review`} />
            )}
          </>
        ) : value !== null ? (
          <details className="flow-received">
            <summary>What reached {node.label}</summary>
            <TurnValue value={value} label={`Input of ${node.label}`} />
          </details>
        ) : prompt ? null : (
          <p className="muted small">Complete it to go on.</p>
        )}
      </NodeMessage>
      {open && review ? (
        <ReviewGateComposer
          runId={actions.runId}
          nodeId={node.id}
          label={node.label}
          reviewedLabel={reviewed?.label ?? node.label}
          decision={decision}
          pending={pending === "approve" || pending === "reject" ? (pending as PendingDecision) : null}
          error={actions.error(node.id)}
          onApprove={() => actions.approve(node.id, turn.id)}
          onRequestChanges={(feedback) => actions.requestChanges(node.id, feedback, turn.id)}
        />
      ) : null}
      {!open && refused ? <RefusedDecisionCard {...refused} subject={node.label} /> : null}
      {open && !review ? (
        <CompletionComposer
          runId={actions.runId}
          nodeId={node.id}
          label={node.label}
          decision={decision}
          pending={pending === "complete"}
          error={actions.error(node.id)}
          onComplete={(output) => actions.complete(node.id, output)}
        />
      ) : null}
    </>
  );
}
