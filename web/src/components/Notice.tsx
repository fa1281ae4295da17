import type { ReactNode } from "react";
import "./Notice.css";

export type NoticeTone = "error" | "warning" | "neutral";

/** A boxed message with a title: an error, a warning or a plain note; `alert` announces it to screen readers as it appears. */
export function Notice({ tone, title, children, action, alert = false }: { tone: NoticeTone; title: string; children: ReactNode; action?: ReactNode; alert?: boolean }) {
  return (
    <div className={`notice notice-${tone}`} role={alert ? "alert" : undefined}>
      <div>
        <strong className="notice-title">{title}</strong>
        <p className="notice-body">{children}</p>
      </div>
      {action ? <div className="notice-action">{action}</div> : null}
    </div>
  );
}
