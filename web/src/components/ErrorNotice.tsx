import type { ReactNode } from "react";
import { errorMessage } from "../lib/errors";
import { Notice } from "./Notice";

/** An error the person should read: announced to screen readers, never a silent console line. */
export function ErrorNotice({ title, error, action }: { title: string; error: unknown; action?: ReactNode }) {
  return (
    <Notice tone="error" title={title} action={action} alert>
      {errorMessage(error)}
    </Notice>
  );
}
