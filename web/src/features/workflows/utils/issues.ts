/**
 * A definition's problems as the server locates them. A refused `validate` or `register` is a BAD_REQUEST whose
 * `data.refusalDetails` holds `{ issues, warnings }`, each `{ path, line, column, message }`.
 */
import { TRPCClientError } from "@trpc/client";
import type { WorkflowIssue } from "../../../lib/trpc";

function isIssue(value: unknown): value is WorkflowIssue {
  if (typeof value !== "object" || value === null) return false;
  const { path, line, column, message } = value as Record<string, unknown>;
  return typeof path === "string" && typeof line === "number" && typeof column === "number" && typeof message === "string";
}

const issuesIn = (value: unknown): WorkflowIssue[] => (Array.isArray(value) ? value.filter(isIssue) : []);

/** The located problems and warnings of a refused definition, or null when the error is something else. */
export function locatedIssuesOf(error: unknown): { problems: WorkflowIssue[]; warnings: WorkflowIssue[] } | null {
  if (!(error instanceof TRPCClientError)) return null;
  const details: unknown = (error.data as { refusalDetails?: unknown } | undefined)?.refusalDetails;
  if (typeof details !== "object" || details === null) return null;
  const { issues, warnings } = details as { issues?: unknown; warnings?: unknown };
  const problems = issuesIn(issues);
  return problems.length > 0 ? { problems, warnings: issuesIn(warnings) } : null;
}

/** "line 4, column 5: depends_on names unknown node "x"". */
export function describeIssue(issue: Pick<WorkflowIssue, "line" | "column" | "message">): string {
  return `line ${issue.line}, column ${issue.column}: ${issue.message}`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

export function countIssues(problems: number, warnings: number): string {
  const parts = [...(problems > 0 ? [plural(problems, "problem")] : []), ...(warnings > 0 ? [plural(warnings, "warning")] : [])];
  return parts.length > 0 ? parts.join(" and ") : "no problems";
}
