/**
 * What the server says is wrong, located by JSON path: a refused definition (400 `invalid_workflow`) or refused
 * inputs (400 `invalid_inputs`) is a BAD_REQUEST whose `data.refusalDetails.issues` holds `{ path, message }`, each
 * path into the definition (`steps[1].params.text`) or the inputs (`inputs.count`). And the pasted text read as a
 * JSON object before it is sent, with where it stops being JSON.
 */
import { TRPCClientError } from "@trpc/client";

export interface DefinitionProblem {
  /** `steps[1].params.text`; empty for the definition as a whole. */
  path: string;
  message: string;
}

function isProblem(value: unknown): value is DefinitionProblem {
  if (typeof value !== "object" || value === null) return false;
  const { path, message } = value as Record<string, unknown>;
  return typeof path === "string" && typeof message === "string";
}

/** The located problems of a refusal, or null when the error is something else (the server unreachable, say). */
export function problemsOf(error: unknown): DefinitionProblem[] | null {
  if (!(error instanceof TRPCClientError)) return null;
  const details: unknown = (error.data as { refusalDetails?: unknown } | undefined)?.refusalDetails;
  const issues = typeof details === "object" && details !== null ? (details as { issues?: unknown }).issues : undefined;
  const problems = Array.isArray(issues) ? issues.filter(isProblem) : [];
  return problems.length > 0 ? problems : null;
}

/** Refused inputs by the input they name (`inputs.count` → `count`); what names no input stays in `other`. */
export function inputProblems(problems: readonly DefinitionProblem[]): { byInput: Record<string, string>; other: DefinitionProblem[] } {
  const byInput: Record<string, string> = {};
  const other: DefinitionProblem[] = [];
  for (const problem of problems) {
    const name = /^inputs\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(problem.path)?.[1];
    if (name) byInput[name] = byInput[name] ? `${byInput[name]}; ${problem.message}` : problem.message;
    else other.push(problem);
  }
  return { byInput, other };
}

export type ParsedDefinition = { ok: true; definition: Record<string, unknown> } | { ok: false; problem: string };

/** "line 3, column 7" of a character offset into the text. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The pasted text as a JSON object; otherwise why it is not one, with where the JSON stops making sense. */
export function parseDefinition(text: string): ParsedDefinition {
  if (text.trim() === "") return { ok: false, problem: "Paste or write a definition: a JSON object with id and steps." };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message)?.[1];
    const where = position !== undefined && !/\(line \d+ column \d+\)/.test(message) ? ` (${lineAndColumn(text, Number(position))})` : "";
    return { ok: false, problem: `This is not valid JSON: ${message}${where}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, problem: "A definition is a JSON object ({ ... }) with id and steps." };
  return { ok: true, definition: value as Record<string, unknown> };
}
