/**
 * Who a run waits for, read from its decision: "Waiting for Rita Ramos since 10:02, due tomorrow 10:00" (a decision
 * assigned to a role: "Waiting for a reviewer since ..."; past its due time: "overdue since ..."; with a quorum:
 * "1 of 2 approvals: approved by Sam"). Shown wherever a run waits for a person: in place of the decision controls to
 * anyone who may not take the decision, and beside them to whoever may. Never "your review" to someone who may not.
 */
import { useMe } from "../lib/session";
import { formatDateTime, formatDayTime } from "../lib/time";
import type { Decision } from "../lib/trpc";
import { DecisionHistory } from "./DecisionHistory";
import { UndecidableNotice } from "./Undecidable";
import "./Chat.css";

/** The parts of a decision this line reads (a decision from the inbox's list is one). */
export type WaitingDecision = Pick<
  Decision,
  "id" | "run_id" | "kind" | "front_door" | "waiting_since" | "due_at" | "assignee" | "approvals_needed" | "approvals" | "started_by" | "self_approval" | "undecidable"
>;

const withArticle = (role: string) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;

/** Who it waits for, as the line names them: "you", the person it is assigned to, or "a reviewer". */
export function waitingForWhom(decision: WaitingDecision, meId: string | null | undefined): string {
  const { assignee } = decision;
  if (assignee.kind === "account") return meId && assignee.id === meId ? "you" : (assignee.name ?? "someone");
  return withArticle(assignee.role);
}

interface Parts {
  who: string;
  since: string;
  due: { overdue: boolean; at: string } | null;
  quorum: string | null;
}

function partsOf(decision: WaitingDecision, meId: string | null | undefined, now: number): Parts {
  const due = decision.due_at ? { overdue: new Date(decision.due_at).getTime() < now, at: formatDayTime(decision.due_at, now) } : null;
  const given = decision.approvals.length;
  const quorum =
    decision.approvals_needed > 1
      ? `${given} of ${decision.approvals_needed} approvals${given > 0 ? `: approved by ${decision.approvals.map((a) => a.by).join(", ")}` : ""}`
      : null;
  return { who: waitingForWhom(decision, meId), since: formatDayTime(decision.waiting_since, now), due, quorum };
}

/** The line as text: "Waiting for Rita Ramos since 10:02, due tomorrow 10:00". */
export function waitingForText(decision: WaitingDecision, meId: string | null | undefined, now: number = Date.now()): string {
  const { who, since, due, quorum } = partsOf(decision, meId, now);
  return `Waiting for ${who} since ${since}${due ? `, ${due.overdue ? "overdue since" : "due"} ${due.at}` : ""}${quorum ? ` · ${quorum}` : ""}`;
}

/** The line, its times in <time> elements (the full date and time on hover); a span, so it fits in a notice's paragraph too. */
export function WaitingFor({ decision, now = Date.now() }: { decision: WaitingDecision; now?: number }) {
  const me = useMe();
  const { who, since, due, quorum } = partsOf(decision, me?.id, now);
  return (
    <span className={`waiting-for${due?.overdue ? " is-overdue" : ""}`}>
      Waiting for <strong>{who}</strong> since{" "}
      <time dateTime={decision.waiting_since} title={formatDateTime(decision.waiting_since)}>
        {since}
      </time>
      {due && decision.due_at ? (
        <>
          , {due.overdue ? "overdue since" : "due"}{" "}
          <time dateTime={decision.due_at} title={formatDateTime(decision.due_at)}>
            {due.at}
          </time>
        </>
      ) : null}
      {quorum ? ` · ${quorum}` : null}
    </span>
  );
}

/** The line above a decision's controls, and under it what has happened to the decision so far. */
export function WaitingForWithHistory({ decision }: { decision: WaitingDecision }) {
  return (
    <>
      <WaitingFor decision={decision} />
      <DecisionHistory decision={decision} />
    </>
  );
}

/**
 * Why separation of duties keeps `me` from a decision, in words, with who can take it instead: "You submitted this
 * brief; a colleague reviews it: anyone with the reviewer role but you." Null when it does not.
 */
export function separationText(decision: WaitingDecision, meId: string | null | undefined): string | null {
  if (decision.self_approval || !meId || decision.started_by?.id !== meId) return null;
  const brief = decision.front_door === "pipeline" && decision.kind === "review";
  const who = decision.assignee.kind === "account" ? decision.assignee.name ?? "the person it is assigned to" : `anyone but you with the ${decision.assignee.role} role (or an operator)`;
  return `${brief ? "You submitted this brief; a colleague reviews it" : "You started this run; a colleague decides it"} (separation of duties, set by an operator). Who can: ${who}.`;
}

/**
 * Where the decision controls would be, for someone who may not take the decision: who it waits for and since when,
 * why not them when separation of duties is the reason, and, when nobody can take it, why and the fix; or, with no
 * decision known, that it waits for a reviewer or an operator.
 */
export function WaitingForDecision({ decision, subject, what }: { decision: WaitingDecision | undefined; subject: string; what: string }) {
  const me = useMe();
  const who = decision ? waitingForWhom(decision, me?.id) : "a reviewer";
  return (
    <section className="composer waiting-for-reviewer" aria-label={`Waiting for ${who} on ${subject}`} role="status">
      {decision ? (
        <>
          <UndecidableNotice decision={decision} />
          {separationText(decision, me?.id) ? <p className="separation-reason">{separationText(decision, me?.id)}</p> : null}
          <WaitingForWithHistory decision={decision} />
          <p className="muted small">
            {subject} waits for {what}; this page shows it as soon as there is one.
          </p>
        </>
      ) : (
        <p className="muted">
          <strong>Waiting for a reviewer.</strong> {subject} waits for {what} from a reviewer or an operator; this page shows it as soon as there is one.
        </p>
      )}
    </section>
  );
}
