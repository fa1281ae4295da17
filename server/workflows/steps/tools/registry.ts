/**
 * THE tool registry: every tool a step workflow's step may name, each one module of this folder.
 *
 * Adding a tool is one file and one line here: write `family.verb.ts` default-exporting `defineTool({ name,
 * description, params, result, defaultTimeoutMs, run })` (tool.ts; utils.echo.ts is the smallest), then add its line
 * to TOOLS below. Each line imports its module and lists it at once (a top-level await, so there is no separate import
 * to keep in step); a tool module therefore never imports this file. Its params then appear in `listTools()` as JSON
 * Schema, and steps are checked against them (this registry is the ToolCatalog the validation reads).
 *
 * `run` is the one way a tool runs: the params are checked against the tool's schema, the tool gets the caller's
 * signal joined with its time limit (the step's `timeout_ms`, else the tool's default), its answer is checked against
 * its result schema, and every failure is a ToolError that says whether a retry may help.
 */
import { z } from "zod";
import { describeZodError } from "../../../lib/zodIssues";
import type { ToolCatalog } from "./catalog";
import { ToolError, type Tool, type ToolContext } from "./tool";

const TOOLS: readonly Tool[] = [
  (await import("./utils.echo")).default,
  (await import("./utils.delay")).default,
  (await import("./utils.http")).default,
  (await import("./llm.generate")).default,
  (await import("./llm.extract_entities")).default,
  (await import("./search.google")).default,
  (await import("./graph.create_nodes")).default,
  (await import("./graph.cypher")).default,
];

export interface ToolDescription {
  name: string;
  description: string;
  /** The params as JSON Schema (what a step may write, defaults optional). */
  params: Record<string, unknown>;
}

export interface RunOptions {
  /** The step's `timeout_ms`; the tool's `defaultTimeoutMs` when absent. */
  timeoutMs?: number;
}

/** An error's own word on retrying (LlmError's `transient`), else false. */
const transientOf = (error: unknown) => typeof error === "object" && error !== null && (error as { transient?: unknown }).transient === true;

export class ToolRegistry implements ToolCatalog {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      this.tools.set(tool.name, tool);
    }
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): readonly string[] {
    return [...this.tools.keys()];
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  paramsSchema(name: string): z.ZodType {
    return this.require(name).params;
  }

  listTools(): ToolDescription[] {
    return [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      params: z.toJSONSchema(tool.params, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
    }));
  }

  /** Runs tool `name` with `params` (see the top of this file); answers its checked result. */
  async run(name: string, params: unknown, context: ToolContext, options: RunOptions = {}): Promise<unknown> {
    const tool = this.require(name);
    const label = context.label;
    const parsed = tool.params.safeParse(params ?? {});
    if (!parsed.success) throw new ToolError(`${label}: ${name} cannot take these params: ${describeZodError(parsed.error, { root: "params", prefix: "params" })}`);
    const timeoutMs = options.timeoutMs ?? tool.defaultTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    const stopped = (): ToolError | undefined => {
      if (context.signal.aborted) return new ToolError(`${label}: ${name} was cancelled`);
      if (timeout.aborted) return new ToolError(`${label}: ${name} did not finish within ${timeoutMs} ms`, { transient: true });
      return undefined;
    };
    const early = stopped();
    if (early) throw early;
    // A tool that does not stop on its signal (a native query) is left behind: the step ends when the signal fires.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(stopped() ?? new ToolError(`${label}: ${name} was stopped`));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    let answer: unknown;
    try {
      answer = await Promise.race([tool.run(parsed.data, { ...context, signal }), aborted]);
    } catch (error) {
      const stop = stopped();
      if (stop) throw stop;
      if (error instanceof ToolError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new ToolError(message.startsWith(label) ? message : `${label}: ${name}: ${message}`, { transient: transientOf(error), cause: error });
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
      aborted.catch(() => undefined);
    }
    const result = tool.result.safeParse(answer);
    if (!result.success) throw new ToolError(`${label}: ${name} answered something that is not its result (${describeZodError(result.error, { root: "result" })})`);
    return result.data;
  }

  private require(name: string): Tool {
    const tool = this.tools.get(name);
    if (!tool) throw new ToolError(`there is no tool ${name}: the tools are ${this.names().join(", ")}`);
    return tool;
  }
}

/** The registry of every tool. */
export const toolRegistry = new ToolRegistry(TOOLS);

/** Each tool's name, description and params (JSON Schema): what an editor or a model choosing a tool reads. */
export const listTools = (): ToolDescription[] => toolRegistry.listTools();
