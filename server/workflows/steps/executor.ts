/**
 * The step workflows' protocol with the outside: performing a step. The dispatcher hands over each dispatch of a step
 * (durably, from the outbox, to `data.executor: "steps"`); the executor renders the step's params with its templates
 * against the run's inputs and the completed steps' outputs, records them as the step's `input`, runs the tool through
 * the registry with the step's time limit and the run's abort signal, and reports the outcome as an engine event:
 * `completed` with the tool's result as output, or `failed`, retryable when the tool says a retry may help (the
 * engine then applies the step's `retries` with backoff). A template that cannot be resolved fails the step, naming
 * the template; it never becomes the string "undefined". A result that arrives after its step moved on (the run was
 * cancelled, another process performed the attempt) is refused by the engine and dropped here.
 */
import type { Database } from "../../../db/client";
import type { NodeExecutor } from "../../engine/dispatcher";
import { type Engine, EngineError, type KeyedEvent } from "../../engine/engine";
import * as store from "../store";
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

/** The steps running in this process, by run: a cancellation here stops their tools at once. */
const running = new Map<string, Set<AbortController>>();

/** Stops every step of the run that this process is performing (their late results are refused by the engine). */
export function abortRun(runId: string): void {
  for (const controller of running.get(runId) ?? []) controller.abort();
}

function track(runId: string, controller: AbortController): () => void {
  let controllers = running.get(runId);
  if (!controllers) running.set(runId, (controllers = new Set()));
  controllers.add(controller);
  return () => {
    controllers.delete(controller);
    if (controllers.size === 0) running.delete(runId);
  };
}

export function stepExecutor(options: StepExecutorOptions): NodeExecutor {
  const { engine, database, tools, services } = options;

  /** Reports the step's outcome; a result the engine refuses because the step moved on is dropped. */
  async function report(runId: string, event: KeyedEvent): Promise<void> {
    try {
      await engine.handle(runId, event);
    } catch (error) {
      if (error instanceof EngineError && (error.code === "conflict" || error.code === "not_found")) return;
      throw error;
    }
  }

  return async ({ runId, nodeId, attempt, payload, signal: stopping }) => {
    // This process is stopping: the work is left, unreported, for the next process to perform.
    const givenUp = () => new Error(`step "${nodeId}" of run ${runId}: this server is stopping; the step is left to the next one`);
    if (stopping.aborted) throw givenUp();
    const config = StepTaskConfig.parse(payload.config);
    const run = await database.run((db) => store.findRun(db, runId));
    if (!run) return;
    const rows = await engine.nodeRows(runId);
    const row = rows.find((r) => r.key === nodeId);
    if (!row || row.status !== "running" || row.attempt !== attempt) return;
    const failed = (error: string, retryable: boolean): KeyedEvent => ({ type: "callback", key: nodeId, status: "failed", error, attempt, retryable });

    let params: Record<string, unknown>;
    try {
      const byKey = new Map(rows.map((r) => [r.key, r]));
      params = renderParams(config.step.params, { inputs: run.inputs ?? {}, outputs: (id) => byKey.get(id) });
    } catch (error) {
      if (!(error instanceof UnresolvableTemplate)) throw error;
      const where = !error.path ? "params" : error.path.startsWith("[") ? `params${error.path}` : `params.${error.path}`;
      return report(runId, failed(`step ${nodeId}: ${where}: ${error.template} cannot be resolved: ${error.problem}`, false));
    }
    await database.run((db) => store.insertTurns(db, [{ runId, nodeId, kind: TURN.input, payload: { attempt, input: params } }]));

    // The tool stops when the run no longer wants the step (cancelled here or in another process) or this process stops.
    const controller = new AbortController();
    const stop = () => controller.abort();
    stopping.addEventListener("abort", stop, { once: true });
    const untrack = track(runId, controller);
    const watch = setInterval(() => {
      void engine.nodeRows(runId).then((now) => {
        const current = now.find((r) => r.key === nodeId);
        if (current?.status !== "running" || current.attempt !== attempt) controller.abort();
      }, () => undefined);
    }, options.watchMs ?? 1000);
    watch.unref();
    let outcome: KeyedEvent;
    try {
      const output = await tools.run(config.tool, params, { ...services, signal: controller.signal, label: `step ${nodeId}` }, { timeoutMs: config.stepTimeoutMs });
      outcome = { type: "callback", key: nodeId, status: "completed", output, attempt };
    } catch (error) {
      if (stopping.aborted) throw givenUp();
      if (!(error instanceof ToolError)) throw error;
      outcome = failed(error.message, error.transient);
    } finally {
      stopping.removeEventListener("abort", stop);
      clearInterval(watch);
      untrack();
    }
    if (stopping.aborted) throw givenUp();
    return report(runId, outcome);
  };
}
