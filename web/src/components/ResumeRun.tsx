/** "Resume" on a failed or cancelled workflow run, for operators only (others see nothing: they may not resume). */
import { useCan } from "../lib/session";
import { Spinner } from "./Spinner";

export function ResumeRun({ hint, pending, onResume }: { hint: string; pending: boolean; onResume: () => void }) {
  if (!useCan("operator")) return null;
  return (
    <button type="button" className="button button-secondary button-small" title={hint} disabled={pending} aria-busy={pending} onClick={onResume}>
      {pending ? <Spinner /> : null}
      Resume
    </button>
  );
}
