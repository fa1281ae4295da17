import { navigate, paths } from "../../../lib/router";
import { useCreateRun } from "../api/create-run";
import { forgetDraft } from "../../../lib/useDraft";
import { NewBriefForm, newBriefDraftKeys } from "./NewBriefForm";

/** Starts a run from a brief and opens its conversation. */
export function NewBrief() {
  const createRun = useCreateRun();
  return (
    <NewBriefForm
      autoFocus
      pending={createRun.isPending}
      error={createRun.error}
      onSubmit={(brief) =>
        createRun.mutate(brief, {
          onSuccess: (run) => {
            // Sent: the brief is the run's now.
            forgetDraft(newBriefDraftKeys.domain);
            forgetDraft(newBriefDraftKeys.brief);
            navigate(paths.run(run.run_id));
          },
        })
      }
    />
  );
}
