/**
 * A workflow run as a conversation, like a pipeline run: the message, each node starting and answering, the waits
 * for a person with their composers inline, failures with Retry, the cancellation and the outcome. Read again when
 * its change marker moves (polled while the run is active, left alone once it has ended); its decisions and comments
 * are read again with it, not polled on their own.
 */
import { useMemo } from "react";
import { RunConversation as ConversationPage } from "../../../components/Chat";
import { Conversation } from "../../../components/Conversation";
import { type TurnNotes, annotateTurns } from "../../../components/turns";
import { WatchedRunPage } from "../../../components/WatchedRunPage";
import { useOpenDecisions } from "../../../lib/decisions";
import { type RunWaits, accepted, useNodeActions } from "../../../components/useNodeActions";
import { trpc, type WorkflowConversation, type WorkflowTurn } from "../../../lib/trpc";
import { useApproveNode, useRejectNode, useReplyToNode, useRetryWorkflowNode, useWorkflowConversation } from "../api/runs";
import { isWorkflowRunOver } from "../utils/turns";
import { type NodeAction, type TurnActions, workflowDraftKey } from "./Turns";
import { yamlTurnAdapter } from "./yamlTurnAdapter";
import { WorkflowRunHeader } from "./WorkflowRunHeader";
import "../workflows.css";

export function WorkflowRunView({ runId }: { runId: string }) {
  return <WatchedRunPage query={useWorkflowConversation(runId)} Conversation={RunConversation} />;
}

/** How a YAML run's turns tell its approvals' waits and the decisions on them. */
const workflowWaits: RunWaits<WorkflowTurn> = {
  nodeOf: (turn) => turn.node?.id ?? null,
  decided: (turn) => (turn.kind !== "decided" ? null : turn.body.decision === "approve" ? `approved ${turn.node?.id}` : turn.body.decision === "request_changes" ? `rejected ${turn.node?.id}` : null),
};

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useTurnActions({ run, turns }: WorkflowConversation, notes: TurnNotes): TurnActions {
  const runId = run.id;
  const decisions = useOpenDecisions(runId, run.status === "waiting_for_user");
  const utils = trpc.useUtils();
  const approve = useApproveNode();
  const reject = useRejectNode();
  const reply = useReplyToNode();
  const retry = useRetryWorkflowNode();
  // A decision someone else took first (409) keeps its text on a card under the wait it answered.
  const nodes = useNodeActions<NodeAction, WorkflowTurn>({
    scope: `workflow:${runId}`,
    mutations: [
      ["approve", approve],
      ["reject", reject],
      ["reply", reply],
      ["retry", retry],
    ],
    deciders: [approve, reject],
    send: (nodeId, action, text) => (action === "approve" ? approve.mutateAsync({ runId, nodeId, ...(text ? { comment: text } : {}) }) : reject.mutateAsync({ runId, nodeId, reason: text })),
    draftKey: (_nodeId, waitId) => workflowDraftKey(waitId),
    refresh: () => void utils.workflows.conversation.invalidate({ runId }),
    turns,
    awaiting: notes.awaiting,
    waits: workflowWaits,
  });
  return {
    runId,
    pending: nodes.pending,
    error: nodes.error,
    approve: (nodeId, comment, waitId) => nodes.decide(nodeId, "approve", comment, waitId),
    reject: (nodeId, reason, waitId) => nodes.decide(nodeId, "reject", reason, waitId),
    refused: nodes.refused,
    reply: (nodeId, text) => {
      nodes.forget();
      return accepted(reply.mutateAsync({ runId, nodeId, text }));
    },
    retry: (nodeId) => {
      nodes.forget();
      retry.mutate({ runId, nodeId });
    },
    decision: (nodeId) => decisions.of(nodeId),
    // A fork of a YAML run changes the run's input (its message), not one node's.
    forkOf: (nodeId) => ({ runId, nodeId, label: nodeId, nodeType: "workflow", input: { message: run.message }, inputLabel: "The run's message (JSON)" }),
  };
}

function RunConversation({ conversation, refreshError }: { conversation: WorkflowConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateTurns(conversation.turns, conversation.run.nodes, isWorkflowRunOver(conversation.run.status)), [conversation]);
  const actions = useTurnActions(conversation, notes);
  return (
    <ConversationPage className="workflow-run" header={<WorkflowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      <Conversation turns={turns} notes={notes} adapter={yamlTurnAdapter(run.id, actions)} />
    </ConversationPage>
  );
}
