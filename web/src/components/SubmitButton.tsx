import type { ReactNode } from "react";
import { Spinner } from "./Spinner";

/** A form's primary button: disabled while what it sent is pending, with a spinner in its icon's place. */
export function SubmitButton({ pending, icon, disabled = false, children }: { pending: boolean; icon?: ReactNode; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="button button-primary" disabled={pending || disabled} aria-busy={pending}>
      {pending ? <Spinner /> : (icon ?? null)}
      {children}
    </button>
  );
}
