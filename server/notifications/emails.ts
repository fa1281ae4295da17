/**
 * What a person reads when the notifier emails them: a subject that says what happened and to what, a short plain-text
 * body with the link that opens it in the app, and how to stop these emails. Rendered when the event is recorded, so
 * the email says what was true then. Which events are emailed, and to whom, is the notifier's (notifier.ts).
 */
import type { NotificationPayload } from "./schemas";

export interface RenderedEmail {
  subject: string;
  body: string;
}

/** The events a person may be emailed about; the others (a decision taken, a run cancelled) go to webhooks only. */
export type EmailedEvent =
  | (Extract<NotificationPayload, { decision: unknown }> & { type: "decision.waiting" | "decision.assigned" | "decision.due_soon" | "decision.overdue" | "decision.undecidable" })
  | (Extract<NotificationPayload, { run: unknown }> & { type: "run.completed" | "run.failed" });

const dueLine = (dueAt: string | null) => (dueAt ? `It is due ${new Date(dueAt).toUTCString()}.` : "");

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

function decisionLines(payload: Extract<EmailedEvent, { decision: unknown }>): { subject: string; lines: string[]; because: string } {
  const { decision } = payload;
  const forYou = decision.assignee.kind === "account";
  const who = forYou ? "you" : `anyone with the ${decision.assignee.role} role`;
  const because = forYou ? "it is assigned to you" : `you are ${article(decision.assignee.role)}, and it is for your role`;
  switch (payload.type) {
    case "decision.waiting":
      return { subject: `Waiting for ${forYou ? "you" : `${article(decision.assignee.role)}`}: ${payload.title}`, lines: [`"${payload.title}" waits for a decision by ${who}.`, dueLine(decision.due_at)], because };
    case "decision.assigned":
      return { subject: `Assigned to ${forYou ? "you" : `the ${decision.assignee.role} role`}: ${payload.title}`, lines: [`"${payload.title}" was assigned to ${who}.`, dueLine(decision.due_at)], because };
    case "decision.due_soon":
      return { subject: `Due soon: ${payload.title}`, lines: [`"${payload.title}" still waits for a decision by ${who}.`, dueLine(decision.due_at)], because };
    case "decision.overdue":
      return {
        subject: `Overdue: ${payload.title}`,
        lines: [`"${payload.title}" is past its due time${decision.due_at ? ` (${new Date(decision.due_at).toUTCString()})` : ""} and still waits for a decision by ${who}.`],
        because,
      };
    case "decision.undecidable":
      return {
        subject: `Nobody can decide: ${payload.title}`,
        lines: [`"${payload.title}" waits for a decision that nobody can take now.`, "Open it to invite someone, assign it to someone who can, or change the policy."],
        because: "you are an operator, and only an operator can fix this",
      };
  }
}

function runLines(payload: Extract<EmailedEvent, { run: unknown }>): { subject: string; lines: string[]; because: string } {
  const because = "you started this run";
  if (payload.type === "run.completed") return { subject: `Completed: ${payload.title}`, lines: [`Your run "${payload.title}" has completed.`], because };
  return { subject: `Failed: ${payload.title}`, lines: [`Your run "${payload.title}" has failed.`], because };
}

/** The email to `name` about the event; `settingsUrl` is where they turn these emails off. */
export function renderEmail(payload: EmailedEvent, name: string, settingsUrl: string): RenderedEmail {
  const { subject, lines, because } = "decision" in payload ? decisionLines(payload) : runLines(payload);
  const body = [
    `Hello ${name},`,
    "",
    ...lines.filter(Boolean),
    ...(payload.reason ? [`Reason: ${payload.reason}`] : []),
    "",
    `Open it in Stitch: ${payload.links.app}`,
    "",
    "-- ",
    `You receive this email from Stitch because ${because}.`,
    `To stop these emails, turn off "Email me" in your settings: ${settingsUrl}`,
    "",
  ].join("\n");
  return { subject: subject.length > 200 ? `${subject.slice(0, 197)}...` : subject, body };
}
