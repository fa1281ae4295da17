/**
 * What every workflow front door's executor does around a node's work, whatever the work is (yaml/executor.ts,
 * steps/executor.ts): the dispatcher hands over one dispatch of one node (durably, from the outbox); the work is
 * performed only while the node is still running at that dispatch's attempt, with a signal that stops it as soon as
 * the node is no longer wanted; its outcome is reported as an engine event with the turns it adds.
 *
 * What must hold:
 * - a stale dispatch (the run was cancelled, the attempt moved on) does nothing;
 * - a node stops when its run no longer wants it, in whichever process that was decided: the watch reads the node's
 *   own row every `watchMs` (one row, not the run's);
 * - when this process stops, the work is left unreported for the next process (the dispatch ends with an error, and
 *   the dispatcher lets another process claim it once its lease passes);
 * - a result that arrives after its node moved on is refused by the engine and dropped here, with its turns.
 */
import type { z } from "zod";
import type { Database } from "../../db/client";
import type { NodeExecutor } from "../engine/dispatcher";
import { type Engine, EngineError, type KeyedEvent } from "../engine/engine";
import type { NodeRow } from "../engine/transition";
import { describeZodError } from "../lib/zodIssues";
import * as store from "./store";

export type Dispatch = Parameters<NodeExecutor>[0];

/** Turns a node's work adds to its run's conversation (the run's id is the dispatch's). */
export type NodeTurn = Omit<store.NewTurn, "runId">;

/** What a front door's `perform` is given: the dispatch, the node's config, the run, its node rows as the work starts, and how to report. */
export interface NodeExecution<Config> {
  dispatch: Dispatch;
  config: Config;
  run: store.RunRow;
  /** The node's own row, running at the dispatch's attempt. */
  row: NodeRow;
  /** Every node row of the run, as the work starts (what references and templates read). */
  rows: readonly NodeRow[];
  /** Aborts when the node is no longer wanted or this process stops. */
  signal: AbortSignal;
  /** Reports an event on the run with the turns it adds; a late one is dropped. Throws when this process is stopping. */
  report(event: KeyedEvent, turns?: NodeTurn[]): Promise<void>;
}

export interface NodeExecutionOptions<Config> {
  engine: Engine;
  database: Database;
  /** How the dispatch's `config` is read: the task config the front door's lowering wrote. */
  config: z.ZodType<Config>;
  /** How often a running node reads its row to notice that it is no longer wanted; default 1 s. */
  watchMs?: number;
  /** Registers the node's stop with the front door's own registry (a cancellation in this process stops it at once); answers how to unregister. */
  register?: (runId: string, stop: () => void) => () => void;
}

/** Whether the node is still running at the dispatch's attempt; anything else is a stale dispatch. */
export const runningAt = (row: NodeRow | undefined, attempt: number): row is NodeRow => row?.status === "running" && row.attempt === attempt;

/** Thrown inside a report's transaction to roll it back when the engine took the event as a repeat. */
class LateResult extends Error {}

/**
 * Reports an event on the run with the turns it adds, in one transaction that locks the engine's run row first (engine.ts
 * `onRun`), as every writer of a run's turns does. An event the engine refuses or takes as a repeat because the node
 * moved on (a late result: the run was cancelled, another process performed the same attempt) is dropped, and so are
 * its turns: the transaction rolls back.
 */
export async function reportEvent(engine: Engine, runId: string, event: KeyedEvent, turns: readonly NodeTurn[] = []): Promise<void> {
  try {
    await engine.onRun(runId, async (ops, tx) => {
      await store.insertTurns(tx, turns.map((turn) => ({ ...turn, runId })));
      if ((await ops.handle(event)).duplicate) throw new LateResult();
    });
  } catch (error) {
    if (error instanceof LateResult) return;
    if (error instanceof EngineError && (error.code === "conflict" || error.code === "not_found")) return;
    throw error;
  }
}

/**
 * Writes turns for a node still running at the dispatch's attempt (the params a step is about to run with), under the
 * run's lock; false, writing nothing, when the node moved on meanwhile.
 */
export async function recordWhileRunning(engine: Engine, dispatch: Dispatch, turns: readonly NodeTurn[]): Promise<boolean> {
  try {
    return await engine.onRun(dispatch.runId, async (ops, tx) => {
      if (!runningAt(await ops.nodeRow(dispatch.nodeId), dispatch.attempt)) return false;
      await store.insertTurns(tx, turns.map((turn) => ({ ...turn, runId: dispatch.runId })));
      return true;
    });
  } catch (error) {
    if (error instanceof EngineError && error.code === "not_found") return false;
    throw error;
  }
}

/**
 * A front door's executor: `perform` does the node's work, given its config, the run and a signal, and reports the
 * outcome; this does the rest (see the module comment). `what` names the node in messages: `node "x"`, `step "x"`.
 */
export function nodeExecutor<Config>(
  options: NodeExecutionOptions<Config>, what: (nodeId: string) => string, perform: (execution: NodeExecution<Config>) => Promise<void>,
): NodeExecutor {
  const { engine, database } = options;
  return async (dispatch) => {
    const { runId, nodeId, attempt, signal: stopping } = dispatch;
    const givenUp = () => new Error(`${what(nodeId)} of run ${runId}: this server is stopping; its work is left to the next one`);
    if (stopping.aborted) throw givenUp();
    const config = options.config.safeParse(dispatch.payload.config);
    if (!config.success) {
      // Only a config this server's own lowering did not write gets here: the node fails, naming what does not fit.
      const error = `${what(nodeId)}: its config does not fit this server's executor (${describeZodError(config.error, { root: "config", prefix: "config" })})`;
      return reportEvent(engine, runId, { type: "callback", key: nodeId, status: "failed", error, attempt, retryable: false });
    }
    const run = await database.run((db) => store.findRun(db, runId));
    if (!run) return;
    const rows = await engine.nodeRows(runId);
    const row = rows.find((r) => r.key === nodeId);
    if (!runningAt(row, attempt)) return;

    const controller = new AbortController();
    const stop = () => controller.abort();
    stopping.addEventListener("abort", stop, { once: true });
    const unregister = options.register?.(runId, stop);
    const watch = setInterval(() => {
      void engine.nodeRow(runId, nodeId).then((now) => {
        if (!runningAt(now, attempt)) stop();
      }, () => undefined);
    }, options.watchMs ?? 1000);
    watch.unref();
    try {
      await perform({
        dispatch, config: config.data, run, row, rows, signal: controller.signal,
        report: async (event, turns) => {
          if (stopping.aborted) throw givenUp();
          return reportEvent(engine, runId, event, turns);
        },
      });
    } catch (error) {
      // Work cut short because this process is stopping is left to the next one, whatever it failed with.
      if (stopping.aborted) throw givenUp();
      throw error;
    } finally {
      stopping.removeEventListener("abort", stop);
      clearInterval(watch);
      unregister?.();
    }
  };
}
