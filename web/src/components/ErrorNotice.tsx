import type { ReactNode } from "react";
import { errorMessage } from "../lib/errors";

/** An error the person should read: announced to screen readers, never a silent console line. */
export function ErrorNotice({ title, error, action }: { title: string; error: unknown; action?: ReactNode }) {
  return (
    <div className="notice notice-error" role="alert">
      <div>
        <strong className="notice-title">{title}</strong>
        <p className="notice-body">{errorMessage(error)}</p>
      </div>
      {action ? <div className="notice-action">{action}</div> : null}
    </div>
  );
}
