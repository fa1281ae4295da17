/**
 * What a tool is (one module each, listed in registry.ts), what it is given when it runs, and how it fails.
 */
import type { z } from "zod";
import type { LlmConfig } from "../../../llm/chat";
import type { OutboundPolicy } from "../../../lib/outboundPolicy";
import type { ResolveHost } from "../../../lib/policedFetch";
import type { GraphStore } from "./graph/store";

/** The environment a tool may read (SERPAPI_API_KEY, SERPAPI_BASE_URL, ...): process.env or a test's own. */
export type ToolEnv = Readonly<Record<string, string | undefined>>;

export interface ToolContext {
  /** The chat endpoint (LLM_BASE_URL...); undefined: the LLM tools answer offline. */
  llm: LlmConfig | undefined;
  env: ToolEnv;
  /** Which addresses the tools that fetch a URL may reach (OUTBOUND_ALLOW). */
  outbound: OutboundPolicy;
  /** Resolves host names for the outbound check; `dns.promises.lookup` when absent (tests stub it). */
  lookup?: ResolveHost;
  /** Aborted when the step is cancelled or runs out of time: a tool stops its work and I/O on it. */
  signal: AbortSignal;
  graph: GraphStore;
  /** Starts the messages of failures: the step that ran the tool (`step google_search`). */
  label: string;
}

/**
 * One tool: its params and result as zod schemas (the registry checks both), and `run`, which may assume its params
 * are valid. Write `run` with method syntax, so that a tool with narrower params still fits `Tool`.
 */
export interface Tool<Params extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  /** `family.verb`: what a step's `tool` names. */
  name: string;
  /** One or two sentences for a person (or a model) choosing a tool. */
  description: string;
  params: Params;
  result: Result;
  /** How long one run may take unless the step's `timeout_ms` says otherwise. */
  defaultTimeoutMs: number;
  run(params: z.output<Params>, context: ToolContext): Promise<z.input<Result>>;
}

/** Keeps a tool module's own param and result types (a plain `Tool` annotation would widen them). */
export const defineTool = <Params extends z.ZodType, Result extends z.ZodType>(tool: Tool<Params, Result>): Tool<Params, Result> => tool;

/**
 * A tool's failure, with what a person needs to act on it. `transient`: retrying the same step may help (a timeout,
 * a network failure, a rate limit, a server error, a model's malformed answer); otherwise it will fail the same way.
 */
export class ToolError extends Error {
  override name = "ToolError";
  readonly transient: boolean;
  constructor(message: string, options: { transient?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.transient = options.transient ?? false;
  }
}
