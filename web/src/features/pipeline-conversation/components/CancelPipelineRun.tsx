/** "Cancel run" for a pipeline run (operators, and the analyst who submitted it), recorded as the signed-in account like every decision. */
import { CancelRun } from "../../../components/CancelRun";
import { useCancelRun } from "../api/review-run";

export function CancelPipelineRun({ runId, submittedById, onCancelled }: { runId: string; submittedById?: string | null; onCancelled?(): void }) {
  const cancel = useCancelRun();
  return (
    <CancelRun
      consequence="The agent at work stops, and nothing in this run can be approved, sent back or retried afterwards."
      pending={cancel.isPending}
      error={cancel.error}
      onConfirm={(reason) => cancel.mutateAsync({ runId, reason })}
      onDismiss={cancel.reset}
      onCancelled={onCancelled}
      startedById={submittedById}
    />
  );
}
