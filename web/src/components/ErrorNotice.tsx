import type { ReactNode } from "react";
import { errorMessage, isPermanentError } from "../lib/errors";
import { Notice } from "./Notice";

/** An error the person should read: announced to screen readers, never a silent console line. */
export function ErrorNotice({ title, error, action }: { title: string; error: unknown; action?: ReactNode }) {
  return (
    <Notice tone="error" title={title} action={action} alert>
      {errorMessage(error)}
    </Notice>
  );
}

/**
 * A page whose data could not be read: `permanent` when asking again cannot help (not found, refused), else
 * `transient`, with "Try again".
 */
export function PageLoadError({ permanent, transient, error, onRetry }: { permanent: string; transient: string; error: unknown; onRetry(): void }) {
  return (
    <div className="page-pad">
      <ErrorNotice
        title={isPermanentError(error) ? permanent : transient}
        error={error}
        action={
          <button type="button" className="button button-secondary" onClick={onRetry}>
            Try again
          </button>
        }
      />
    </div>
  );
}
