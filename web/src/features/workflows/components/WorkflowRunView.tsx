/**
 * A workflow run as a conversation, like a pipeline run: the message, each node starting and answering, the waits
 * for a person with their composers inline, failures with Retry, the cancellation and the outcome. Polled every
 * second while the run is active; left alone once it has ended.
 */
import { useMemo } from "react";
import { RunConversation as ConversationPage } from "../../../components/Chat";
import { QueryPage } from "../../../components/QueryPage";
import { useOpenDecisions } from "../../../lib/decisions";
import type { WorkflowConversation } from "../../../lib/trpc";
import { useApproveNode, useRejectNode, useReplyToNode, useRetryWorkflowNode, useWorkflowConversation } from "../api/runs";
import { annotateTurns } from "../utils/turns";
import { type NodeAction, type TurnActions, TurnItem } from "./Turns";
import { WorkflowRunHeader } from "./WorkflowRunHeader";
import "../workflows.css";

export function WorkflowRunView({ runId }: { runId: string }) {
  return (
    <QueryPage query={useWorkflowConversation(runId)} what="run">
      {(conversation, refreshError) => <RunConversation conversation={conversation} refreshError={refreshError} />}
    </QueryPage>
  );
}

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useTurnActions(runId: string, waiting: boolean): TurnActions {
  const decisions = useOpenDecisions(runId, waiting);
  const approve = useApproveNode();
  const reject = useRejectNode();
  const reply = useReplyToNode();
  const retry = useRetryWorkflowNode();
  const mutations = [
    ["approve", approve],
    ["reject", reject],
    ["reply", reply],
    ["retry", retry],
  ] as const;
  // A new decision forgets the refusal of the previous one.
  const forget = () => mutations.forEach(([, mutation]) => mutation.reset());
  const accepted = (sent: Promise<unknown>) =>
    sent.then(
      () => true,
      // The refusal is on the mutation's `error` and shown by the composer.
      () => false,
    );
  const sentFor = (nodeId: string) => mutations.find(([, mutation]) => mutation.variables?.nodeId === nodeId && (mutation.isPending || mutation.error));
  return {
    runId,
    pending: (nodeId) => {
      const found = sentFor(nodeId);
      return found && found[1].isPending ? (found[0] as NodeAction) : null;
    },
    error: (nodeId) => sentFor(nodeId)?.[1].error ?? null,
    approve: (nodeId, comment) => {
      forget();
      approve.mutate({ runId, nodeId, ...(comment ? { comment } : {}) });
    },
    reject: (nodeId, reason) => {
      forget();
      return accepted(reject.mutateAsync({ runId, nodeId, reason }));
    },
    reply: (nodeId, text) => {
      forget();
      return accepted(reply.mutateAsync({ runId, nodeId, text }));
    },
    retry: (nodeId) => {
      forget();
      retry.mutate({ runId, nodeId });
    },
    decision: (nodeId) => decisions.of(nodeId),
  };
}

function RunConversation({ conversation, refreshError }: { conversation: WorkflowConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateTurns(conversation), [conversation]);
  const actions = useTurnActions(run.id, run.status === "waiting_for_user");
  return (
    <ConversationPage className="workflow-run" header={<WorkflowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      {turns.map((turn) => (notes.repeated.has(turn.id) ? null : <TurnItem key={turn.id} turn={turn} notes={notes} actions={actions} />))}
    </ConversationPage>
  );
}
