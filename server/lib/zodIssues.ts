/** How a zod validation failure is told to a person: every problem, each with the path of the field it concerns. */
import type { z } from "zod";

export interface DescribeOptions {
  /** Names the whole value when an issue has no path (default "body"). */
  root?: string;
  /** Where the validated value sits in a larger one (`context.requirements`). */
  prefix?: string;
  /** Between problems (default "; "). */
  separator?: string;
}

/** `name: must not be empty; graph.nodes.0.id: ...` */
export function describeZodError(error: z.ZodError, { root = "body", prefix = "", separator = "; " }: DescribeOptions = {}): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
      return `${path || root}: ${issue.message}`;
    })
    .join(separator);
}
