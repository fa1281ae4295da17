/**
 * What happened to a waiting decision, under the line that says who it waits for: who claimed or released it, who
 * assigned it to whom, each approval of several, the reminder, the deadline and its escalation. Read from the
 * decision's activity (tRPC `decisions.activity`) once the person opens it, and polled while open.
 */
import { useState } from "react";
import { useDecisionActivity } from "../lib/decisions";
import { formatDateTime, formatDayTime } from "../lib/time";
import type { DecisionActivity } from "../lib/trpc";

const whom = (assignee: DecisionActivity["detail"]["assignee"]) =>
  !assignee ? "someone" : assignee.kind === "account" ? (assignee.name ?? "a person") : `every ${assignee.role}`;

/** One event as a person reads it: "Rita Ramos claimed it", "Olga Operator assigned it to Uma Urgent". */
export function activityText(event: DecisionActivity): string | undefined {
  const by = event.by?.name ?? "Someone";
  const reason = event.detail.reason ? ` (${event.detail.reason})` : "";
  switch (event.type) {
    case "opened":
      return `Waiting for ${whom(event.detail.assignee)}${reason}`;
    case "claimed":
      return `${by} claimed it`;
    case "released":
      return `${by} gave it back to ${whom(event.detail.assignee)}`;
    case "assigned":
      return `${by} assigned it to ${whom(event.detail.assignee)}`;
    case "approved":
      return `${event.detail.approvals ?? 1} of ${event.detail.approvals_needed ?? 2} approvals: approved by ${by}`;
    case "reminded":
      return "Reminder sent: the due time is near";
    case "overdue":
      return `Overdue${reason}`;
    case "escalated":
      return `Overdue: handed to ${whom(event.detail.assignee)}`;
    case "decided":
    case "expired":
      return `Decided by ${event.by?.name ?? "the deadline"}`;
    case "cancelled":
      return "Closed: the run ended";
  }
  return undefined;
}

/** A disclosure under "Waiting for ...": the history is read only once it is opened. */
export function DecisionHistory({ decision }: { decision: { id: string; run_id: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="decision-history" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>What happened to it so far</summary>
      {open ? <HistoryList decision={decision} /> : null}
    </details>
  );
}

function HistoryList({ decision }: { decision: { id: string; run_id: string } }) {
  const activity = useDecisionActivity(decision.run_id);
  if (!activity.data) return <p className="muted">{activity.error ? "The history could not be read." : "Reading…"}</p>;
  const events = activity.data.items.filter((event) => event.decision_id === decision.id);
  return (
    <ol aria-label="What happened to this decision">
      {events.map((event) => (
        <li key={event.id}>
          {activityText(event)} ·{" "}
          <time dateTime={event.at} title={formatDateTime(event.at)}>
            {formatDayTime(event.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
