/**
 * Structured feedback: a request for changes carries the reviewer's general feedback and her open comments on parts
 * of the output. Agents that read `comments` get them as data; agents that only read the seed's `feedback` string (n8n
 * flows written for it) get the same comments listed in it, each with its anchor and the text it quotes.
 */
import type { SentComment } from "./schemas";

/** The heading under which the feedback string lists the comments; what comes before it is the general feedback. */
export const COMMENTS_HEADING = "Comments on parts of the output:";

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The `feedback` string an agent receives: the general feedback, then one line per comment
 * (`- [core_capabilities[CAP-001]] on "Reserve tools": limit reservations to 3 days`).
 */
export function composeFeedback(general: string, comments: readonly SentComment[]): string {
  const text = general.trim();
  if (comments.length === 0) return text;
  const lines = comments.map((c) => `- [${c.anchor || "the whole output"}]${c.quote.trim() ? ` on "${oneLine(c.quote).slice(0, 200)}"` : ""}: ${oneLine(c.text)}`);
  return [text, `${COMMENTS_HEADING}\n${lines.join("\n")}`].filter(Boolean).join("\n\n");
}

/** The general part of a feedback string composed by `composeFeedback` (an agent that reads `comments` applies those itself). */
export function generalFeedback(feedback: string): string {
  const at = feedback.indexOf(COMMENTS_HEADING);
  return (at < 0 ? feedback : feedback.slice(0, at)).trim();
}
