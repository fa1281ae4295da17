/**
 * What the step workflows need to know of the tools a step may name: which exist, and the zod schema of each one's
 * `params`. Types only: the tool registry implements it; validation (../validate.ts) reads it.
 */
import type { z } from "zod";

export interface ToolCatalog {
  /** Whether a step may name this tool (`search.google`). */
  has(name: string): boolean;
  /** Every tool a step may name, for messages that list them. */
  names(): readonly string[];
  /** The schema a step's `params` must fit (an absent `params` is checked as `{}`). Only asked for a name `has` accepts. */
  paramsSchema(name: string): z.ZodType;
}
