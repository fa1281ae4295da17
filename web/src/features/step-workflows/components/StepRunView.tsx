/**
 * A step workflow run as a conversation: the inputs, each step's turn as it starts, works and answers, the steps
 * skipped or cancelled, a person's retries and resumptions, and the outcome with the outputs; "Re-run from here" under
 * each step's turn. Read again when its
 * change marker moves (polled while the run is running, left alone once it has ended).
 */
import { useMemo } from "react";
import { RunConversation as ConversationPage } from "../../../components/Chat";
import { Conversation } from "../../../components/Conversation";
import { WatchedRunPage } from "../../../components/WatchedRunPage";
import type { StepConversation } from "../../../lib/trpc";
import { useRetryStep, useStepConversation } from "../api/runs";
import { stepEpisodes, stepNotes } from "../utils/turns";
import { StepRunHeader } from "./StepRunHeader";
import { type StepActions, stepTurnAdapter } from "./stepTurnAdapter";
import "../step-workflows.css";

export function StepRunView({ runId }: { runId: string }) {
  return <WatchedRunPage query={useStepConversation(runId)} Conversation={RunConversation} />;
}

function RunConversation({ conversation, refreshError }: { conversation: StepConversation; refreshError: unknown }) {
  const { run, turns } = conversation;
  const episodes = useMemo(() => stepEpisodes(turns), [turns]);
  const notes = useMemo(() => stepNotes(conversation), [conversation]);
  const retry = useRetryStep();
  const actions: StepActions = {
    retry: (stepId) => {
      const mine = retry.variables?.stepId === stepId;
      return { pending: mine && retry.isPending, error: mine ? retry.error : null, onRetry: () => retry.mutate({ runId: run.id, stepId }) };
    },
    // A fork of a step run changes the run's inputs, not one step's.
    forkOf: (stepId) => ({ runId: run.id, nodeId: stepId, label: stepId, nodeType: "step", input: { inputs: run.inputs }, inputLabel: "The run's inputs (JSON)" }),
  };
  return (
    <ConversationPage className="step-run" header={<StepRunHeader run={run} view="conversation" />} refreshError={refreshError} count={turns.length}>
      <Conversation turns={turns} notes={notes} adapter={stepTurnAdapter(run.id, episodes, actions)} />
    </ConversationPage>
  );
}
