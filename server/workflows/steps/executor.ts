/**
 * The step workflows' protocol with the outside: performing a step. Around it, the skeleton every workflow executor
 * shares (../nodeExecution.ts: stale dispatches, the stop signal, late results). The dispatcher hands over each
 * dispatch of a step (durably, from the outbox, to `data.executor: "steps"`); the executor renders the step's params with its templates
 * against the run's inputs and the completed steps' outputs, records them as the step's `input`, runs the tool through
 * the registry with the step's time limit and the run's abort signal, and reports the outcome as an engine event:
 * `completed` with the tool's result as output, or `failed`, retryable when the tool says a retry may help (the
 * engine then applies the step's `retries` with backoff). A template that cannot be resolved fails the step, naming
 * the template; it never becomes the string "undefined". A result that arrives after its step moved on (the run was
 * cancelled, another process performed the attempt) is refused by the engine and dropped here.
 */
import type { Database } from "../../../db/client";
import type { NodeExecutor } from "../../engine/dispatcher";
import type { Engine, KeyedEvent } from "../../engine/engine";
import { nodeExecutor, recordWhileRunning } from "../nodeExecution";
import { StepTaskConfig } from "./lower";
import { TURN } from "./projection";
import { UnresolvableTemplate, renderParams } from "./templates";
import type { ToolServices } from "./tools/context";
import type { ToolRegistry } from "./tools/registry";
import { ToolError } from "./tools/tool";

export interface StepExecutorOptions {
  engine: Engine;
  database: Database;
  tools: ToolRegistry;
  services: ToolServices;
  /** How often a running step checks that its run still wants it (a cancellation by another process); default 1 s. */
  watchMs?: number;
}

/** How to stop each step running in this process, by run: a cancellation here stops their tools at once. */
const running = new Map<string, Set<() => void>>();

/** Stops every step of the run that this process is performing (their late results are refused by the engine). */
export function abortRun(runId: string): void {
  for (const stop of running.get(runId) ?? []) stop();
}

function track(runId: string, stop: () => void): () => void {
  let stops = running.get(runId);
  if (!stops) running.set(runId, (stops = new Set()));
  stops.add(stop);
  return () => {
    stops.delete(stop);
    if (stops.size === 0) running.delete(runId);
  };
}

export function stepExecutor(options: StepExecutorOptions): NodeExecutor {
  const { engine, database, tools, services } = options;
  return nodeExecutor(
    { engine, database, config: StepTaskConfig, watchMs: options.watchMs, register: track },
    (nodeId) => `step "${nodeId}"`,
    async ({ dispatch, config, run, rows, signal, report }) => {
      const { nodeId, attempt } = dispatch;
      const failed = (error: string, retryable: boolean): KeyedEvent => ({ type: "callback", key: nodeId, status: "failed", error, attempt, retryable });
      let params: Record<string, unknown>;
      try {
        const byKey = new Map(rows.map((r) => [r.key, r]));
        params = renderParams(config.step.params, { inputs: run.inputs ?? {}, outputs: (id) => byKey.get(id) });
      } catch (error) {
        if (!(error instanceof UnresolvableTemplate)) throw error;
        const where = !error.path ? "params" : error.path.startsWith("[") ? `params${error.path}` : `params.${error.path}`;
        return report(failed(`step ${nodeId}: ${where}: ${error.template} cannot be resolved: ${error.problem}`, false));
      }
      if (!(await recordWhileRunning(engine, dispatch, [{ nodeId, kind: TURN.input, payload: { attempt, input: params } }]))) return;
      let outcome: KeyedEvent;
      try {
        const output = await tools.run(config.tool, params, { ...services, signal, label: `step ${nodeId}` }, { timeoutMs: config.stepTimeoutMs });
        outcome = { type: "callback", key: nodeId, status: "completed", output, attempt };
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        outcome = failed(error.message, error.transient);
      }
      return report(outcome);
    },
  );
}
