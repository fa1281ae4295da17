/** How a zod validation failure is told to a person: every problem, each with the path of the field it concerns. */
import type { z } from "zod";

/** `name: must not be empty; graph.nodes.0.id: ...`; `root` names the whole value when an issue has no path. */
export function describeZodError(error: z.ZodError, root = "body"): string {
  return describeIssues(error.issues, root);
}

export function describeIssues(issues: readonly z.core.$ZodIssue[], root = "body"): string {
  return issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : root}: ${issue.message}`).join("; ");
}
