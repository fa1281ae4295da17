/**
 * A tool's result (and an input or output value) as a person reads it: a string as text; an object's `text` field
 * (search results as lines, a model's answer) or `summary` as text, with the whole result as pretty JSON beside it;
 * anything else as pretty JSON. Always text: what a tool answered is never read as markup.
 */

import { isRecord } from "../../../lib/json";

export interface ResultView {
  /** What to read first: the result itself when it is a string, else its `text` or `summary` field. */
  text: string | null;
  /** The field `text` came from, or null when the result is itself the text. */
  textField: "text" | "summary" | null;
  /** The result pretty-printed, unless it is a plain string. */
  json: string | null;
}


export function describeResult(output: unknown): ResultView {
  if (output === undefined) return { text: null, textField: null, json: null };
  if (typeof output === "string") return { text: output, textField: null, json: null };
  const json = JSON.stringify(output, null, 2);
  if (isRecord(output)) {
    if (typeof output.text === "string") return { text: output.text, textField: "text", json };
    if (typeof output.summary === "string") return { text: output.summary, textField: "summary", json };
  }
  return { text: null, textField: null, json };
}

/** A single value (an input, an output): a string as itself, anything else as JSON, multi-line when it is an object or list. */
export function formatValue(value: unknown): { text: string; json: boolean } {
  if (typeof value === "string") return { text: value, json: false };
  if (value === undefined) return { text: "(none)", json: false };
  return { text: JSON.stringify(value, null, typeof value === "object" && value !== null ? 2 : undefined), json: typeof value === "object" && value !== null };
}

/** `company=ACME, limit=3`, cut short: what a run was started with. */
export function inputsInShort(inputs: Record<string, unknown>): string {
  const text = Object.entries(inputs)
    .map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
  if (text === "") return "Run without inputs";
  return text.length > 90 ? `${text.slice(0, 90)}…` : text;
}
