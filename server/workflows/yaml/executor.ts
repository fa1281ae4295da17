/**
 * The YAML workflows' protocol with the outside: performing a node's work. Around it, the skeleton every workflow
 * executor shares (../nodeExecution.ts: stale dispatches, the stop signal, late results); here, the work: the executor
 * evaluates the node's `when`, substitutes its references, runs it (an LLM call, bash, a script, one loop iteration, a
 * cancellation, an approval's on_reject prompt) and reports the outcome as an engine event, with the turns it adds
 * written in the same transaction.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Database } from "../../../db/client";
import type { NodeExecutor } from "../../engine/dispatcher";
import { type Engine, EngineError } from "../../engine/engine";
import type { NodeRow } from "../../engine/transition";
import type { LlmConfig } from "../../llm/chat";
import { LlmError } from "../../llm/chat";
import { runBash } from "../runtime/bash";
import { complete } from "../runtime/llm";
import { hasCompletionSignal } from "../runtime/loopSignal";
import { killRun } from "../runtime/processes";
import type { NodeOutcome } from "../runtime/sandbox";
import { runScript } from "../runtime/script";
import { type NodeExecution, type NodeTurn, nodeExecutor } from "../nodeExecution";
import * as store from "../store";
import { evaluateCondition, parseCondition } from "./condition";
import { DEFAULT_TIMEOUT_MS, YamlNodeConfig } from "./compile";
import type { WorkflowNode } from "./definition";
import { type OutputLookup, ReferenceProblem, type SubstitutionContext, substitute } from "./references";
import { substituteForShell } from "./shellReferences";

export interface ExecutorOptions {
  engine: Engine;
  database: Database;
  /** WORKFLOWS_DIR: `commands/<name>.md` and `scripts/` live there. */
  workflowsDir: string;
  /** Where each run gets its working directory for bash and scripts. */
  workDir: string;
  /** Shared across runs: installed script dependencies. */
  cacheDir?: string;
  llm: LlmConfig | undefined;
  /** WORKFLOW_SHELL=on: bash and script nodes may run. */
  shellAllowed: boolean;
  /** How often a running node checks that it is still wanted (its run may have been cancelled by another process). */
  watchMs?: number;
}

/** What an iteration turn of a loop holds: its prompt and answer, and the attempt it was (written since attempts were counted). */
const IterationPayload = z.object({ attempt: z.number().int().optional(), prompt: z.string(), output: z.string() });

/** How a node's work ended. `retryable`: whether the node's retry policy may try again. */
type Outcome =
  | { type: "completed"; output: string; responder?: { responder: string; model?: string } }
  | { type: "failed"; error: string; retryable: boolean }
  | { type: "skipped"; reason: string };

const text = (value: unknown): string => (value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** Whether a failure may be retried under the node's `on_error`: `all` retries anything, `transient` only timeouts, network errors and 5xx/429. */
const retryableUnder = (node: WorkflowNode, transient: boolean) => node.retry?.on_error === "all" || transient;

function processOutcome(node: WorkflowNode, outcome: NodeOutcome): Outcome {
  if (outcome.ok) return { type: "completed", output: outcome.output };
  return { type: "failed", error: outcome.error, retryable: retryableUnder(node, outcome.timedOut) };
}

export function workflowExecutor(options: ExecutorOptions): NodeExecutor {
  const skeleton = { engine: options.engine, database: options.database, config: YamlNodeConfig, watchMs: options.watchMs };
  return nodeExecutor(skeleton, (nodeId) => `node "${nodeId}"`, ({ config, run, row, rows, signal, report, dispatch }) => {
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const outputOf: OutputLookup = (id) => {
      const r = byKey.get(id);
      return r ? { status: r.status, output: text(r.output) } : undefined;
    };
    return new NodeWork(options, run, config.node, config.workflow, row, outputOf, dispatch.payload.feedback?.text, signal).perform(report);
  });
}

type Report = NodeExecution<YamlNodeConfig>["report"];

/** One dispatch of one node: what it needs to know, and how each kind of node is performed. */
class NodeWork {
  private readonly ctx: SubstitutionContext;

  constructor(
    private readonly options: ExecutorOptions,
    private readonly run: store.RunRow,
    private readonly node: WorkflowNode,
    private readonly workflow: { provider: string | null; model: string | null },
    private readonly row: NodeRow,
    private readonly outputOf: OutputLookup,
    /** The reviewer's reason (an approval's on_reject) or the user's reply (an interactive loop). */
    private readonly feedback: string | undefined,
    private readonly signal: AbortSignal,
  ) {
    this.ctx = { runMessage: run.message, runId: run.id, outputOf };
  }

  async perform(report: Report): Promise<void> {
    const { node, row } = this;
    const key = node.id;
    if (node.kind === "loop") return this.loop(report);
    let outcome: Outcome;
    try {
      outcome = node.kind !== "approval" ? (this.skipReason() ?? (await this.work())) : await this.approvalWork();
    } catch (error) {
      if (!(error instanceof ReferenceProblem)) throw error;
      outcome = { type: "failed", error: error.message, retryable: false };
    }
    if (outcome.type === "skipped") return report({ type: "skip", key, attempt: row.attempt, reason: outcome.reason });
    if (outcome.type === "failed") {
      return report({ type: "callback", key, status: "failed", error: outcome.error, attempt: row.attempt, retryable: outcome.retryable });
    }
    if (node.kind === "cancel") return this.cancelRun(outcome.output);
    const turns: NodeTurn[] = outcome.responder ? [{ kind: "responder", nodeId: key, payload: outcome.responder }] : [];
    if (node.kind === "approval" && this.feedback !== undefined) {
      turns.push({ kind: "followup", nodeId: key, payload: { output: outcome.output, reason: this.feedback, ...outcome.responder } });
    }
    return report({ type: "callback", key, status: "completed", output: outcome.output, attempt: row.attempt }, turns);
  }

  /** `when: ...` evaluated once the trigger rule passed; a false condition skips the node with the reason. */
  private skipReason(): Outcome | undefined {
    if (!this.node.when) return undefined;
    const parsed = parseCondition(this.node.when);
    if (!parsed.ok) return { type: "failed", error: `when: ${parsed.message}`, retryable: false };
    return evaluateCondition(parsed.ast, this.outputOf) ? undefined : { type: "skipped", reason: `when: ${this.node.when} was false` };
  }

  private timeoutMs(): number {
    return this.node.timeout ?? DEFAULT_TIMEOUT_MS;
  }

  private async llm(prompt: string, extra: { history?: { role: "user" | "assistant"; content: string }[]; completionSignal?: string } = {}): Promise<Outcome> {
    const { node } = this;
    const provider = node.provider ?? this.workflow.provider;
    const model = node.model ?? this.workflow.model ?? undefined;
    // An AI call is bounded by the node's own `timeout` when it names one, and otherwise by LLM_TIMEOUT_MS alone.
    const limit = this.node.timeout;
    const signal = limit ? AbortSignal.any([this.signal, AbortSignal.timeout(limit)]) : this.signal;
    try {
      const answer = await complete({ prompt, ...(model ? { model } : {}), ...extra }, provider === "offline" ? undefined : this.options.llm, { signal, label: `node "${this.node.id}"` });
      return { type: "completed", output: answer.text, responder: { responder: answer.responder, ...(answer.model ? { model: answer.model } : {}) } };
    } catch (error) {
      if (error instanceof LlmError) return { type: "failed", error: error.message, retryable: retryableUnder(this.node, error.transient) };
      if (limit && signal.aborted && !this.signal.aborted) return { type: "failed", error: `timed out after ${limit} ms`, retryable: retryableUnder(this.node, true) };
      throw error;
    }
  }

  private shellRefused(): Outcome | undefined {
    if (this.options.shellAllowed) return undefined;
    return { type: "failed", error: `${this.node.kind} nodes run code on this server and are disabled here: set WORKFLOW_SHELL=on to allow them`, retryable: false };
  }

  private async work(): Promise<Outcome> {
    const { node } = this;
    switch (node.kind) {
      case "prompt":
        return this.llm(substitute(node.prompt, this.ctx));
      case "command": {
        const file = join(this.options.workflowsDir, "commands", `${node.command}.md`);
        let prompt: string;
        try {
          prompt = await readFile(file, "utf8");
        } catch {
          return { type: "failed", error: `command "${node.command}": no file ${file}`, retryable: false };
        }
        return this.llm(substitute(prompt, this.ctx));
      }
      case "bash": {
        const refused = this.shellRefused();
        if (refused) return refused;
        const { script, env } = substituteForShell(node.bash, this.ctx);
        return processOutcome(node, await runBash({ runId: this.run.id, script, env, timeoutMs: this.timeoutMs(), workDir: this.options.workDir, signal: this.signal }));
      }
      case "script": {
        const refused = this.shellRefused();
        if (refused) return refused;
        const outcome = await runScript({
          runId: this.run.id, runtime: node.runtime, script: node.script, deps: node.deps, timeoutMs: this.timeoutMs(), workDir: this.options.workDir,
          scriptsDir: join(this.options.workflowsDir, "scripts"), ...(this.options.cacheDir ? { cacheDir: this.options.cacheDir } : {}), signal: this.signal,
        });
        return processOutcome(node, outcome);
      }
      case "cancel":
        return { type: "completed", output: substitute(node.cancel, this.ctx) };
      default:
        return { type: "failed", error: `a ${node.kind} node has no work of its own`, retryable: false };
    }
  }

  /**
   * An approval gate's work: before it waits (no reviewer's reason yet), its `when`, which skips it or lets it wait;
   * after a rejection, its on_reject prompt.
   */
  private async approvalWork(): Promise<Outcome> {
    if (this.feedback === undefined) return this.skipReason() ?? { type: "completed", output: "" };
    return this.rejectionWork();
  }

  /** A rejected approval's on_reject prompt, with the reviewer's reason as $REJECTION_REASON. */
  private async rejectionWork(): Promise<Outcome> {
    const onReject = this.node.kind === "approval" ? this.node.approval.on_reject : undefined;
    if (!onReject) return { type: "failed", error: "this approval has no on_reject prompt", retryable: false };
    return this.llm(substitute(onReject.prompt, { ...this.ctx, variables: { REJECTION_REASON: this.feedback ?? "" } }));
  }

  /** The cancel node completes with its reason, and the run is cancelled with it, in one transaction; running siblings stop. */
  private async cancelRun(reason: string): Promise<void> {
    const { engine } = this.options;
    try {
      await engine.onRun(this.run.id, async (ops) => {
        await ops.handle({ type: "callback", key: this.node.id, status: "completed", output: reason, attempt: this.row.attempt });
        await ops.cancel(reason);
      });
    } catch (error) {
      if (!(error instanceof EngineError && error.code === "conflict")) throw error;
    }
    killRun(this.run.id);
  }

  /**
   * One iteration of a loop: its prompt (with $LOOP_PREV_OUTPUT and $LOOP_USER_INPUT), and unless `fresh_context`
   * the earlier iterations as history. The completion signal (or `until_bash` exiting 0) completes the node; the
   * last allowed iteration without it fails the node; otherwise the next iteration is an `iterate` event.
   */
  private async loop(report: Report): Promise<void> {
    if (this.node.kind !== "loop") return;
    const { loop } = this.node;
    const key = this.node.id;
    const runId = this.run.id;
    // Each iteration is an attempt of the node: this firing's first is attempt `retryFrom` (a retry or a resume fires
    // the loop afresh; the user's reply to an interactive loop does not), and each earlier one left an iteration turn.
    const iteration = this.row.attempt - this.row.retryFrom + 1;
    const earlier = iteration > 1 ? await this.options.database.run((db) => store.listNodeTurnPayloads(db, runId, key, "iteration", IterationPayload)) : [];
    const iterations = earlier.filter((it) => it.attempt !== undefined && it.attempt >= this.row.retryFrom && it.attempt < this.row.attempt);
    const fail = (error: string, retryable = false) => report({ type: "callback", key, status: "failed", error, attempt: this.row.attempt, retryable });
    if (iteration === 1) {
      const skip = this.skipReason();
      if (skip?.type === "skipped") return report({ type: "skip", key, attempt: this.row.attempt, reason: skip.reason });
      if (skip?.type === "failed") return fail(skip.error);
    }
    let prompt: string;
    try {
      prompt = substitute(loop.prompt, { ...this.ctx, variables: { LOOP_PREV_OUTPUT: text(this.row.output), LOOP_USER_INPUT: this.feedback ?? "" } });
    } catch (error) {
      if (error instanceof ReferenceProblem) return fail(error.message);
      throw error;
    }
    const history = loop.fresh_context ? [] : iterations.flatMap((it) => [{ role: "user" as const, content: it.prompt }, { role: "assistant" as const, content: it.output }]);
    const answer = await this.llm(prompt, { history, completionSignal: loop.until });
    if (answer.type !== "completed") return answer.type === "failed" ? fail(answer.error, answer.retryable) : undefined;
    let done = hasCompletionSignal(answer.output, loop.until);
    if (!done && loop.until_bash) {
      const refused = this.shellRefused();
      if (refused?.type === "failed") return fail(refused.error);
      const { script, env } = substituteForShell(loop.until_bash, this.ctx);
      done = (await runBash({ runId, script, env, timeoutMs: this.timeoutMs(), workDir: this.options.workDir, signal: this.signal })).ok;
    }
    const turns = [{ kind: "iteration", nodeId: key, payload: { iteration, attempt: this.row.attempt, prompt, output: answer.output, ...answer.responder } }];
    if (done) return report({ type: "callback", key, status: "completed", output: answer.output, attempt: this.row.attempt }, turns);
    if (iteration >= loop.max_iterations) {
      return report(
        { type: "callback", key, status: "failed", attempt: this.row.attempt, retryable: false, error: `reached max_iterations (${loop.max_iterations}) without the completion signal "${loop.until}"` },
        turns,
      );
    }
    return report({ type: "iterate", key, attempt: this.row.attempt, output: answer.output }, turns);
  }
}
