/**
 * A workflow run as a conversation, like a pipeline run: the message, each node starting and answering, the waits
 * for a person with their composers inline, failures with Retry, the cancellation and the outcome. Read again when
 * its change marker moves (polled while the run is active, left alone once it has ended); its decisions and comments
 * are read again with it, not polled on their own.
 */
import { useMemo } from "react";
import { RunConversation as ConversationPage } from "../../../components/Chat";
import { QueryPage } from "../../../components/QueryPage";
import { useOpenDecisions } from "../../../lib/decisions";
import type { ResendControl } from "../../../components/RefusedDecisionCard";
import { type RefusedDecision, useRefusedDecision } from "../../../lib/refusedDecision";
import { RunWatched } from "../../../lib/runChanges";
import { trpc, type WorkflowConversation } from "../../../lib/trpc";
import { useApproveNode, useRejectNode, useReplyToNode, useRetryWorkflowNode, useWorkflowConversation } from "../api/runs";
import { type TurnNotes, annotateTurns } from "../utils/turns";
import { type NodeAction, type TurnActions, TurnItem, workflowDraftKey } from "./Turns";
import { WorkflowRunHeader } from "./WorkflowRunHeader";
import "../workflows.css";

export function WorkflowRunView({ runId }: { runId: string }) {
  return (
    <QueryPage query={useWorkflowConversation(runId)} what="run">
      {(conversation, refreshError) => (
        <RunWatched.Provider value>
          <RunConversation conversation={conversation} refreshError={refreshError} />
        </RunWatched.Provider>
      )}
    </QueryPage>
  );
}

/** The node actions of one run: one mutation per kind of action, each answering for the node it was sent for. */
function useTurnActions({ run, turns }: WorkflowConversation, notes: TurnNotes): TurnActions {
  const runId = run.id;
  const decisions = useOpenDecisions(runId, run.status === "waiting_for_user");
  // A decision someone else took first (409) keeps its text on a card under the wait it answered.
  const refusal = useRefusedDecision(`workflow:${runId}`);
  const utils = trpc.useUtils();
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
  /** A decision refused with 409 is kept (with its text and its composer's draft) for the card under its wait. */
  const kept = (sent: Promise<unknown>, decision: { action: "approve" | "reject"; text: string; waitId: string }) =>
    refusal.settle(sent, { action: decision.action, text: decision.text, target: decision.waitId, draftKey: workflowDraftKey(decision.waitId) }, () => {
      forget();
      void utils.workflows.conversation.invalidate({ runId });
    });
  const approveNode = (nodeId: string, comment: string, waitId: string) => {
    forget();
    return kept(approve.mutateAsync({ runId, nodeId, ...(comment ? { comment } : {}) }), { action: "approve", text: comment, waitId });
  };
  const rejectNode = (nodeId: string, reason: string, waitId: string) => {
    forget();
    return kept(reject.mutateAsync({ runId, nodeId, reason }), { action: "reject", text: reason, waitId });
  };
  /** The refused text sent again on the node's new wait (after a colleague's request for changes was revised); the card goes once accepted. */
  const resendOf = (found: RefusedDecision, nodeId: string, newer: string): ResendControl => ({
    label: "Send against the new version",
    consequence:
      found.action === "approve"
        ? `Approves ${nodeId} as it waits now, with this comment; read the new version first.`
        : `Sends this request for changes on ${nodeId} as it waits now.`,
    pending: approve.isPending || reject.isPending,
    error: approve.error ?? reject.error,
    onSend: () => void (found.action === "approve" ? approveNode(nodeId, found.text, newer) : rejectNode(nodeId, found.text, newer)).then((sent) => sent && refusal.forget(found)),
  });
  const sentFor = (nodeId: string) => mutations.find(([, mutation]) => mutation.variables?.nodeId === nodeId && (mutation.isPending || mutation.error));
  return {
    runId,
    pending: (nodeId) => {
      const found = sentFor(nodeId);
      return found && found[1].isPending ? (found[0] as NodeAction) : null;
    },
    error: (nodeId) => sentFor(nodeId)?.[1].error ?? null,
    approve: approveNode,
    reject: rejectNode,
    refused: (waitId) => {
      const found = refusal.refused;
      if (found?.target !== waitId) return null;
      // The same node waiting again (its on_reject revised the work): the text can go to that wait.
      const nodeId = turns.find((t) => t.id === waitId)?.node_id ?? "";
      const newer = turns.find((t) => t.kind === "waiting" && t.node_id === nodeId && t.id !== waitId && notes.awaiting.has(t.id));
      return { refused: found, change: changeAfter(turns, waitId), onDiscard: () => refusal.forget(), resend: newer ? resendOf(found, nodeId, newer.id) : null };
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
    // A fork of a YAML run changes the run's input (its message), not one node's.
    forkOf: (nodeId) => ({ runId, nodeId, label: nodeId, nodeType: "workflow", input: { message: run.message }, inputLabel: "The run's message (JSON)" }),
  };
}

function RunConversation({ conversation, refreshError }: { conversation: WorkflowConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const notes = useMemo(() => annotateTurns(conversation), [conversation]);
  const actions = useTurnActions(conversation, notes);
  return (
    <ConversationPage className="workflow-run" header={<WorkflowRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      {turns.map((turn) => (notes.repeated.has(turn.id) ? null : <TurnItem key={turn.id} turn={turn} notes={notes} actions={actions} />))}
    </ConversationPage>
  );
}

/** What happened after the wait `waitId`, for a refused decision's card: who decided it, or that the run was cancelled. */
function changeAfter(turns: WorkflowConversation["turns"], waitId: string): string | null {
  const wait = turns.findIndex((t) => t.id === waitId);
  const node = turns[wait]?.node_id;
  const decided = turns.slice(wait + 1).find((t) => ((t.kind === "approved" || t.kind === "rejected") && t.node_id === node) || t.kind === "cancelled");
  const who = decided?.actor ?? "Someone";
  if (decided?.kind === "approved") return `${who} approved ${node}.`;
  if (decided?.kind === "rejected") return `${who} rejected ${node}.`;
  if (decided?.kind === "cancelled") return `${who} cancelled the run.`;
  return null;
}
