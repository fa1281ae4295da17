/**
 * A plain flow run as a conversation, like the other front doors' runs: its input, each node starting and answering,
 * each gate waiting for a person with its composer inline (or who it waits for), the decisions, failures with Retry,
 * the cancellation and the outcome. Read again when its change marker moves (polled while the run is active, left
 * alone once it has ended); its decisions are read again with it, not polled on their own.
 */
import { useMemo } from "react";
import { RunConversation } from "../../../components/Chat";
import { Conversation } from "../../../components/Conversation";
import type { TurnNotes } from "../../../components/turns";
import { WatchedRunPage } from "../../../components/WatchedRunPage";
import { EmptyState } from "../../../components/EmptyState";
import { useOpenDecisions } from "../../../lib/decisions";
import { type RunWaits, accepted, useNodeActions } from "../../../components/useNodeActions";
import { type FlowConversation, type FlowTurn, trpc } from "../../../lib/trpc";
import { flowDraftKey } from "../../../lib/useDraft";
import { useCompleteFlowNode, useFlowConversation, useRetryFlowNode, useReviewFlowNode } from "../api/runs";
import { annotateFlowTurns } from "../utils/turns";
import { FlowRunHeader } from "./FlowRunHeader";
import type { FlowTurnActions } from "./FlowTurns";
import { flowTurnAdapter } from "./flowTurnAdapter";
import "../flow-conversation.css";

export function FlowRunView({ runId }: { runId: string }) {
  return <WatchedRunPage query={useFlowConversation(runId)} Conversation={FlowRunConversation} />;
}

/** How a flow's turns tell its gates' waits and the decisions on them. */
const flowWaits: RunWaits<FlowTurn> = {
  nodeOf: (turn) => turn.node?.id ?? null,
  decided: (turn) => (turn.kind === "decided" && turn.node ? `${turn.body.decision === "approve" ? "approved" : "requested changes to"} ${turn.node.label}` : null),
  label: (wait, nodeId) => (wait?.kind === "waiting" && wait.node ? wait.node.label : nodeId),
};

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useFlowTurnActions(conversation: FlowConversation, notes: TurnNotes): FlowTurnActions {
  const { run, turns } = conversation;
  const runId = run.id;
  const complete = useCompleteFlowNode();
  const review = useReviewFlowNode();
  const retry = useRetryFlowNode();
  const decisions = useOpenDecisions(runId, run.status === "waiting_for_user");
  const utils = trpc.useUtils();
  // A review someone else took first (409) keeps its text on a card under the wait it answered.
  const nodes = useNodeActions({
    scope: `flow:${runId}`,
    mutations: [
      ["complete", complete],
      ["review", review],
      ["retry", retry],
    ],
    deciders: [review],
    send: (nodeId, action, feedback) => review.mutateAsync(action === "approve" ? { runId, nodeId, decision: "approve" } : { runId, nodeId, decision: "reject", feedback }),
    draftKey: (nodeId) => flowDraftKey(runId, nodeId, "feedback"),
    refresh: () => void utils.engine.runs.conversation.invalidate({ id: runId }),
    turns,
    awaiting: notes.awaiting,
    waits: flowWaits,
  });
  return {
    runId,
    pending(nodeId) {
      const kind = nodes.pending(nodeId);
      if (kind !== "review") return kind;
      return review.variables?.decision === "reject" ? "reject" : "approve";
    },
    error: nodes.error,
    complete(nodeId, output) {
      nodes.forget();
      return accepted(complete.mutateAsync({ runId, nodeId, output }));
    },
    approve: (nodeId, waitId) => nodes.decide(nodeId, "approve", "", waitId),
    requestChanges: (nodeId, feedback, waitId) => nodes.decide(nodeId, "reject", feedback, waitId),
    refused: nodes.refused,
    retry(nodeId) {
      nodes.forget();
      retry.mutate({ runId, nodeId });
    },
    decision: (nodeId) => decisions.of(nodeId, runId),
    forkOf(nodeId) {
      const node = conversation.nodes[nodeId];
      if (!node || node.status === "pending" || node.status === "split" || (node.status === "skipped" && node.input === null)) return null;
      return { runId, nodeId, label: node.label, nodeType: node.node_type, input: node.input };
    },
  };
}

function FlowRunConversation({ conversation, refreshError }: { conversation: FlowConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateFlowTurns(conversation), [conversation]);
  const actions = useFlowTurnActions(conversation, notes);
  const adapter = flowTurnAdapter(actions);
  return (
    <RunConversation className="flow-run" header={<FlowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      {turns.length === 0 ? <EmptyState title="Nothing here yet">The run's first event is being recorded.</EmptyState> : null}
      <Conversation turns={turns} notes={notes} adapter={adapter} />
    </RunConversation>
  );
}
