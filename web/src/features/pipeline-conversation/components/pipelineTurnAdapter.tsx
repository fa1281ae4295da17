/**
 * How a pipeline run's turns differ from every door's (`Conversation`): its brief with "Edit brief", an agent at work
 * with Retry when it is stuck, its output folded once decided and open for inline review while it waits, an approval
 * with the run it was decided in, a failure naming the agent, "All agents approved" at the end, its forks' lines, and
 * "Re-run from here" under an agent's latest output and its failure. A request for changes and a cancellation are
 * drawn as every door draws them.
 */
import type { ReactNode } from "react";
import { AgentAvatar } from "../../../components/AgentAvatar";
import type { RetryControl } from "../../../components/Chat";
import type { ConversationAdapter } from "../../../components/Conversation";
import { type ForkTarget, WithRerunFromHere } from "../../../components/RerunFromHere";
import type { TurnNode } from "../../../components/turns";
import { paths } from "../../../lib/router";
import type { AgentRef, ConversationTurn } from "../../../lib/trpc";
import { agentOf } from "../utils/agentOf";
import type { ConversationNotes } from "../utils/annotate";
import type { RevealRequest } from "../utils/useConversationFocus";
import { ApprovalMessage, ArtifactMessage, BriefMessage, CompletedLine, ErrorMessage, ForkedIntoLine, ForkedMessage, isEvent, WorkingMessage } from "./Messages";

export interface PipelineTurnContext {
  runId: string;
  /** The run's agents, whose turns these are. */
  agents: readonly AgentRef[];
  notes: ConversationNotes;
  /** Whether the signed-in person may take the review an output waits for. */
  decidable: boolean;
  /** The output last asked to be opened (the step bar, the arrival), if any. */
  reveal: RevealRequest | null;
  /** Moves focus to the reviewer's decision ("Skip to the decision"). */
  onSkipToDecision(): void;
  retry: RetryControl;
  /** The agent at work has been for longer than the server allows before it may be retried. */
  stuck: boolean;
  /** "Edit brief" under the brief's latest version (its turn's id), when she may edit it. */
  editBrief: { turnId: string; control: ReactNode } | null;
  /** "Re-run from here" at an agent. */
  forkAt(agent: AgentRef): ForkTarget;
}

export function pipelineTurnAdapter(c: PipelineTurnContext): ConversationAdapter<ConversationTurn> {
  const agent = (node: TurnNode | null) => agentOf(c.agents, node);
  return {
    runId: c.runId,
    avatar: (node) => <AgentAvatar agent={agent(node)} />,
    runPath: paths.run,
    runName: (runId) => runId,
    comparePath: paths.runCompare,
    render: {
      input: (turn) => <BriefMessage turn={turn} edit={c.editBrief?.turnId === turn.id ? c.editBrief.control : undefined} />,
      started: (turn, notes) => {
        const of = agent(turn.node);
        const live = notes.working.has(turn.id);
        return of ? <WorkingMessage turn={turn} agent={of} live={live} retry={c.stuck && live ? c.retry : null} /> : null;
      },
      output: (turn) => {
        const of = agent(turn.node);
        const note = c.notes.artifacts.get(turn.id);
        if (!of || !note) return null;
        return (
          <WithRerunFromHere target={note.superseded ? null : c.forkAt(of)}>
            <ArtifactMessage
              turn={turn} agent={of} note={note} decidable={c.decidable} runId={c.runId}
              reveal={c.reveal?.turnId === turn.id ? c.reveal.seq : 0} onSkipToDecision={c.onSkipToDecision}
            />
          </WithRerunFromHere>
        );
      },
      decided: (turn) => (turn.body.decision === "approve" ? <ApprovalMessage turn={turn} /> : undefined),
      failed: (turn, notes) => {
        const of = agent(turn.node);
        return (
          <WithRerunFromHere target={of ? c.forkAt(of) : null}>
            <ErrorMessage turn={turn} retry={notes.retryable.has(turn.id) ? c.retry : null} />
          </WithRerunFromHere>
        );
      },
      system: (turn) => {
        if (isEvent(turn, "forked")) return <ForkedMessage turn={turn} agent={agent(turn.node)} />;
        if (isEvent(turn, "forked_into")) return <ForkedIntoLine turn={turn} agent={agent(turn.node)} runId={c.runId} />;
        return undefined;
      },
      outcome: (turn) => (turn.body.status === "completed" ? <CompletedLine turn={turn} /> : undefined),
    },
  };
}
