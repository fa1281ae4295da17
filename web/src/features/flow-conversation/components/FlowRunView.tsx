/**
 * A plain flow run as a conversation, like the other front doors' runs: its input, each node starting and answering,
 * each gate waiting for a person with its composer inline (or who it waits for), the decisions, failures with Retry,
 * the cancellation and the outcome. Polled every second while the run is active; left alone once it has ended.
 */
import { useMemo } from "react";
import { RunConversation } from "../../../components/Chat";
import { EmptyState } from "../../../components/EmptyState";
import { QueryPage } from "../../../components/QueryPage";
import { useOpenDecisions } from "../../../lib/decisions";
import type { FlowConversation } from "../../../lib/trpc";
import { useCompleteFlowNode, useFlowConversation, useRetryFlowNode, useReviewFlowNode } from "../api/runs";
import { annotateFlowTurns } from "../utils/turns";
import { FlowRunHeader } from "./FlowRunHeader";
import { type FlowTurnActions, FlowTurnItem } from "./FlowTurns";
import "../flow-conversation.css";

export function FlowRunView({ runId }: { runId: string }) {
  return (
    <QueryPage query={useFlowConversation(runId)} what="run">
      {(conversation, refreshError) => <FlowRunConversation conversation={conversation} refreshError={refreshError} />}
    </QueryPage>
  );
}

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useFlowTurnActions(runId: string, waiting: boolean): FlowTurnActions {
  const complete = useCompleteFlowNode();
  const review = useReviewFlowNode();
  const retry = useRetryFlowNode();
  const decisions = useOpenDecisions(runId, waiting);
  const forget = () => [complete, review, retry].forEach((mutation) => mutation.reset());
  const accepted = (sent: Promise<unknown>) =>
    sent.then(
      () => true,
      // The refusal is on the mutation's `error` and shown by the composer.
      () => false,
    );
  const sentFor = (nodeId: string) => [complete, review, retry].find((mutation) => mutation.variables?.nodeId === nodeId && (mutation.isPending || mutation.error));
  return {
    runId,
    pending(nodeId) {
      const found = sentFor(nodeId);
      if (!found?.isPending) return null;
      if (found === complete) return "complete";
      if (found === retry) return "retry";
      return review.variables?.decision === "reject" ? "reject" : "approve";
    },
    error: (nodeId) => sentFor(nodeId)?.error ?? null,
    complete(nodeId, output) {
      forget();
      return accepted(complete.mutateAsync({ runId, nodeId, output }));
    },
    approve(nodeId) {
      forget();
      return accepted(review.mutateAsync({ runId, nodeId, decision: "approve" }));
    },
    requestChanges(nodeId, feedback) {
      forget();
      return accepted(review.mutateAsync({ runId, nodeId, decision: "reject", feedback }));
    },
    retry(nodeId) {
      forget();
      retry.mutate({ runId, nodeId });
    },
    decision: (nodeId) => decisions.of(nodeId, runId),
  };
}

function FlowRunConversation({ conversation, refreshError }: { conversation: FlowConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateFlowTurns(conversation), [conversation]);
  const actions = useFlowTurnActions(run.id, run.status === "waiting_for_user");
  return (
    <RunConversation className="flow-run" header={<FlowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      {turns.length === 0 ? <EmptyState title="Nothing here yet">The run's first event is being recorded.</EmptyState> : null}
      {turns.map((turn) => (
        <FlowTurnItem key={turn.id} turn={turn} notes={notes} actions={actions} />
      ))}
    </RunConversation>
  );
}
