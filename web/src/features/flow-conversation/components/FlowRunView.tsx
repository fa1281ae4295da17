/**
 * A plain flow run as a conversation, like the other front doors' runs: its input, each node starting and answering,
 * each gate waiting for a person with its composer inline (or who it waits for), the decisions, failures with Retry,
 * the cancellation and the outcome. Read again when its change marker moves (polled while the run is active, left
 * alone once it has ended); its decisions are read again with it, not polled on their own.
 */
import { useMemo } from "react";
import { RunConversation } from "../../../components/Chat";
import { EmptyState } from "../../../components/EmptyState";
import { QueryPage } from "../../../components/QueryPage";
import { useOpenDecisions } from "../../../lib/decisions";
import type { ResendControl } from "../../../components/RefusedDecisionCard";
import { type RefusedDecision, useRefusedDecision } from "../../../lib/refusedDecision";
import { RunWatched } from "../../../lib/runChanges";
import { type FlowConversation, trpc } from "../../../lib/trpc";
import { flowDraftKey } from "../../../lib/useDraft";
import { useCompleteFlowNode, useFlowConversation, useRetryFlowNode, useReviewFlowNode } from "../api/runs";
import { type FlowTurnNotes, annotateFlowTurns } from "../utils/turns";
import { FlowRunHeader } from "./FlowRunHeader";
import { type FlowTurnActions, FlowTurnItem } from "./FlowTurns";
import "../flow-conversation.css";

export function FlowRunView({ runId }: { runId: string }) {
  return (
    <QueryPage query={useFlowConversation(runId)} what="run">
      {(conversation, refreshError) => (
        <RunWatched.Provider value>
          <FlowRunConversation conversation={conversation} refreshError={refreshError} />
        </RunWatched.Provider>
      )}
    </QueryPage>
  );
}

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useFlowTurnActions(conversation: FlowConversation, notes: FlowTurnNotes): FlowTurnActions {
  const { run, turns } = conversation;
  const runId = run.id;
  const complete = useCompleteFlowNode();
  const review = useReviewFlowNode();
  const retry = useRetryFlowNode();
  const decisions = useOpenDecisions(runId, run.status === "waiting_for_user");
  // A review someone else took first (409) keeps its text on a card under the wait it answered.
  const refusal = useRefusedDecision(`flow:${runId}`);
  const utils = trpc.useUtils();
  const forget = () => [complete, review, retry].forEach((mutation) => mutation.reset());
  const kept = (sent: Promise<unknown>, nodeId: string, decision: { action: "approve" | "reject"; text: string; waitId: string }) =>
    refusal.settle(sent, { action: decision.action, text: decision.text, target: decision.waitId, draftKey: flowDraftKey(runId, nodeId, "feedback") }, () => {
      forget();
      void utils.engine.runs.conversation.invalidate({ id: runId });
    });
  const accepted = (sent: Promise<unknown>) =>
    sent.then(
      () => true,
      // The refusal is on the mutation's `error` and shown by the composer.
      () => false,
    );
  const decide = (nodeId: string, action: "approve" | "reject", feedback: string, waitId: string) => {
    forget();
    const sent = review.mutateAsync(action === "approve" ? { runId, nodeId, decision: "approve" } : { runId, nodeId, decision: "reject", feedback });
    return kept(sent, nodeId, { action, text: action === "approve" ? "" : feedback, waitId });
  };
  /** The refused decision sent again on the gate's new wait (its Worker revised the output); the card goes once accepted. */
  const resendOf = (found: RefusedDecision, nodeId: string, label: string, newer: string): ResendControl => ({
    label: "Send against the new version",
    consequence: found.action === "approve" ? `Approves ${label} as it waits now; read the new version first.` : `Sends this request for changes on ${label} as it waits now.`,
    pending: review.isPending,
    error: review.error,
    onSend: () => void decide(nodeId, found.action, found.text, newer).then((sent) => sent && refusal.forget(found)),
  });
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
    approve: (nodeId, waitId) => decide(nodeId, "approve", "", waitId),
    requestChanges: (nodeId, feedback, waitId) => decide(nodeId, "reject", feedback, waitId),
    refused(waitId) {
      const found = refusal.refused;
      if (found?.target !== waitId) return null;
      // The same gate waiting again (a colleague's request for changes was revised): the text can go to that wait.
      const wait = turns.find((t) => t.id === waitId);
      const nodeId = wait && "node_id" in wait ? wait.node_id : "";
      const newer = turns.find((t) => t.kind === "waiting" && t.node_id === nodeId && t.id !== waitId && notes.awaiting.has(t.id));
      const label = wait && wait.kind === "waiting" ? wait.label : nodeId;
      return { refused: found, change: changeAfter(turns, waitId), onDiscard: () => refusal.forget(), resend: newer ? resendOf(found, nodeId, label, newer.id) : null };
    },
    retry(nodeId) {
      forget();
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
  return (
    <RunConversation className="flow-run" header={<FlowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      {turns.length === 0 ? <EmptyState title="Nothing here yet">The run's first event is being recorded.</EmptyState> : null}
      {turns.map((turn) => (
        <FlowTurnItem key={turn.id} turn={turn} notes={notes} actions={actions} />
      ))}
    </RunConversation>
  );
}

/** What happened after the wait `waitId`, for a refused review's card: who decided the gate, or that the run was cancelled. */
function changeAfter(turns: FlowConversation["turns"], waitId: string): string | null {
  const wait = turns.findIndex((t) => t.id === waitId);
  const node = turns[wait] && "node_id" in turns[wait] ? turns[wait].node_id : null;
  const decided = turns.slice(wait + 1).find((t) => (t.kind === "decided" && t.node_id === node) || t.kind === "cancelled");
  if (decided?.kind === "decided") return `${decided.actor ?? "Someone"} ${decided.decision === "approve" ? "approved" : "requested changes to"} ${decided.label}.`;
  if (decided?.kind === "cancelled") return `${decided.actor ?? "Someone"} cancelled the run.`;
  return null;
}
