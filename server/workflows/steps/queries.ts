/** The step workflows' read models: registered workflows, runs with their `run_steps` and outputs, a run as a conversation, the tools. */
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "../../../db/client";
import type { Engine } from "../../engine/engine";
import { withForksInto } from "../../forks/turns";
import * as store from "../store";
import type { StepWorkflowDefinition } from "./definition";
import { stepDefinition, stepRun } from "./errors";
import { TURN } from "./projection";
import { type RegisteredStepWorkflow, type RunStep, type StepConversation, type StepRunSummary, StepRunStatus, type StepRunView, StepStatus, type StepTurn, type StepWorkflowDetail } from "./schemas";
import type { RunStepRow } from "./store";
import { StoredStepTurn } from "./storedTurns";
import type { RenderedOutputs } from "./templates";
import type { ToolDescription, ToolRegistry } from "./tools/registry";

const iso = (value: string | Date) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));
const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

const ENDED = new Set(["completed", "failed", "cancelled"]);

const POLL_MS = 100;

type OutcomeTurn = Extract<StepTurn, { kind: "outcome" }>;
/** An attempt as turns tell it: the engine counts from 1 once a step has started (0: it never has). */
const counted = (attempt: number): number | null => (attempt > 0 ? attempt : null);

/** A step's result as a person reads it: its `text` (search results, an LLM's answer), its `summary`, or its JSON. */
export function renderResult(output: unknown): string {
  if (typeof output === "string") return output;
  const fields = record(output);
  if (typeof fields.text === "string") return fields.text;
  if (typeof fields.summary === "string") return fields.summary;
  return JSON.stringify(output, null, 2);
}

/** The stored outputs as clients read them: each value (null when it could not be resolved) and why not. */
function outputsOf(stored: RenderedOutputs | null): Pick<StepRunView, "outputs" | "output_errors"> {
  if (stored === null) return { outputs: null, output_errors: {} };
  const outputs: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [key, rendered] of Object.entries(stored)) {
    outputs[key] = "value" in rendered ? rendered.value : null;
    if ("error" in rendered) errors[key] = rendered.error;
  }
  return { outputs, output_errors: errors };
}

/** A run as the lists show it (without its steps). */
export function stepRunSummary(run: store.RunRow): StepRunSummary {
  return {
    id: run.id, run_id: run.id, workflow: run.workflow, version: run.version, format: "steps", status: StepRunStatus.parse(run.status),
    cancel_reason: run.cancelReason, inputs: run.inputs ?? {}, started_by: run.startedBy, created_at: iso(run.createdAt), updated_at: iso(run.updatedAt),
  };
}

function stepView(row: RunStepRow, tool: string): RunStep {
  return {
    id: row.id, run_id: row.runId, step_id: row.stepId, tool, status: StepStatus.parse(row.status), input: row.input ?? null, output: row.output ?? null,
    error: row.error, attempts: row.attempts, started_at: isoOrNull(row.startedAt), completed_at: isoOrNull(row.completedAt),
  };
}

/** A registered version as clients read it; `defaultTimeoutMs` gives a step without `timeout_ms` its tool's limit. */
export function registeredOf(row: store.StepDefinitionRow, defaultTimeoutMs: (tool: string) => number | undefined): RegisteredStepWorkflow {
  const { name: title, description, version, inputs = [], steps, outputs = {} } = row.definition;
  const stepSummary = (step: StepWorkflowDefinition["steps"][number]) => ({
    id: step.id, tool: step.tool, depends_on: step.depends_on ?? [], retries: step.retries ?? 0, timeout_ms: step.timeout_ms ?? defaultTimeoutMs(step.tool) ?? null,
  });
  return {
    name: row.name, version: row.version, format: "steps", title: title ?? null, description: description ?? "", definition_version: version ?? null,
    inputs: inputs.map((input) => ({ ...input, optional: input.optional ?? false })),
    steps: steps.map(stepSummary),
    outputs: Object.keys(outputs),
    created_at: iso(row.createdAt),
  };
}

export class StepWorkflowQueries {
  constructor(
    private readonly database: Database,
    private readonly tools: ToolRegistry,
    private readonly engine: Engine,
  ) {}

  registered(row: store.StepDefinitionRow): RegisteredStepWorkflow {
    return registeredOf(row, (tool) => this.tools.get(tool)?.defaultTimeoutMs);
  }

  /** Whether the latest version registered under `name` is a step workflow (the REST routes pick the front door by it). */
  async ownsWorkflow(name: string): Promise<boolean> {
    return (await this.database.run((db) => store.latestDefinition(db, name)))?.format === "steps";
  }

  /** Whether the run is a step workflow's. */
  async ownsRun(runId: string): Promise<boolean> {
    return (await this.database.run((db) => store.findRun(db, runId)))?.format === "steps";
  }

  async listWorkflows(): Promise<RegisteredStepWorkflow[]> {
    return (await this.database.run((db) => store.listLatestDefinitions(db, "steps"))).map((row) => this.registered(stepDefinition(row, row.name)));
  }

  /** The latest version, with its definition (every step's `depends_on` resolved) and the list of its versions. */
  async getWorkflow(name: string): Promise<StepWorkflowDetail> {
    const row = stepDefinition(await this.database.run((db) => store.latestDefinition(db, name)), name);
    const versions = await this.database.run((db) => store.listVersions(db, name));
    return { ...this.registered(row), definition: row.definition, versions: versions.map((v) => ({ version: v.version, created_at: iso(v.createdAt) })) };
  }

  /** The newest step runs (100 unless told), of one workflow or of all. */
  async listRuns(options: { workflow?: string; limit?: number } = {}): Promise<StepRunSummary[]> {
    const limit = Math.min(options.limit ?? 100, 500);
    return (await this.database.run((db) => store.listRuns(db, { workflow: options.workflow, format: "steps", limit }))).map((run) => stepRunSummary(run.item));
  }

  async getRun(runId: string): Promise<StepRunView> {
    return (await this.read(runId)).view;
  }

  /** The run once it has ended, or as it stands when `timeoutMs` has passed (`ended: false`). */
  async waitForEnd(runId: string, timeoutMs: number): Promise<{ run: StepRunView; ended: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = stepRun(await this.database.run((db) => store.findRun(db, runId)), runId);
      const ended = ENDED.has(run.status);
      if (ended || Date.now() >= deadline) {
        const view = await this.getRun(runId);
        return { run: view, ended: ENDED.has(view.status) };
      }
      await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * The run as a conversation: its inputs, each step's turns (started, its params as resolved, the attempts that failed
   * and were tried again, its result, failure, skip or cancellation), a person's retries and resumptions, forks, and
   * the outcome with the outputs, the run's cancellation told in it once (who cancelled and why).
   */
  async conversation(runId: string): Promise<StepConversation> {
    const { view, definition } = await this.read(runId);
    const stored = await this.database.run((db) => store.listTurns(db, runId));
    const toolOf = new Map(definition.steps.map((step) => [step.id, step.tool]));
    const stepOf = new Map(view.steps.map((step) => [step.step_id, step]));
    const node = (id: string | null) => (id === null ? null : { id, label: id, type: toolOf.get(id) ?? "unknown" });
    const turns: StepTurn[] = [];
    // The outcome a cancellation began, which the outcome stored right after it completes with the outputs.
    let cancellation: OutcomeTurn | null = null;
    for (const turn of stored) {
      const told = { id: `t${turn.id}`, at: iso(turn.createdAt), who: turn.actor, node: node(turn.nodeId), attempt: null };
      switch (turn.kind) {
        case TURN.inputs:
          turns.push({ kind: "input", ...told, body: { value: StoredStepTurn[TURN.inputs].parse(turn.payload).inputs } });
          break;
        case TURN.started: {
          const { attempt } = StoredStepTurn[TURN.started].parse(turn.payload);
          turns.push({ kind: "started", ...told, attempt: counted(attempt), body: { revising: false, feedback: null } });
          break;
        }
        case TURN.input: {
          const { attempt, input } = StoredStepTurn[TURN.input].parse(turn.payload);
          turns.push({ kind: "system", ...told, attempt: counted(attempt), body: { event: "params", value: input ?? null } });
          break;
        }
        case TURN.retrying: {
          const { attempt, error } = StoredStepTurn[TURN.retrying].parse(turn.payload);
          turns.push({ kind: "failed", ...told, attempt: counted(attempt), body: { error, retrying: true } });
          break;
        }
        case TURN.completed: {
          const { attempt } = StoredStepTurn[TURN.completed].parse(turn.payload);
          const step = turn.nodeId === null ? undefined : stepOf.get(turn.nodeId);
          const output = step?.status === "COMPLETED" ? step.output : null;
          turns.push({ kind: "output", ...told, attempt: counted(attempt), body: { value: output, text: renderResult(output), attempts: step?.attempts ?? null } });
          break;
        }
        case TURN.failed: {
          const { attempt, error } = StoredStepTurn[TURN.failed].parse(turn.payload);
          turns.push({ kind: "failed", ...told, attempt: counted(attempt), body: { error: error ?? "", retrying: false } });
          break;
        }
        case TURN.skipped:
        case TURN.cancelled: {
          const { reason } = StoredStepTurn[turn.kind].parse(turn.payload);
          turns.push({ kind: "skipped", ...told, body: { reason: reason ?? "", status: turn.kind === TURN.skipped ? "skipped" : "cancelled" } });
          break;
        }
        case TURN.retried:
          turns.push({ kind: "system", ...told, body: { event: "retried" } });
          break;
        case TURN.resumed:
          turns.push({ kind: "system", ...told, body: { event: "resumed" } });
          break;
        case TURN.runCancelled:
          cancellation = { kind: "outcome", ...told, body: { status: "cancelled", reason: StoredStepTurn[TURN.runCancelled].parse(turn.payload).reason, outputs: null, output_errors: {} } };
          turns.push(cancellation);
          break;
        case TURN.outcome: {
          const { status, outputs } = StoredStepTurn[TURN.outcome].parse(turn.payload);
          if (cancellation && status === "cancelled") cancellation.body = { ...cancellation.body, ...outputsOf(outputs) };
          else turns.push({ kind: "outcome", ...told, body: { status, reason: null, ...outputsOf(outputs) } });
          cancellation = null;
          break;
        }
        case TURN.forked: {
          const { from_run_id, version, inputs, edited } = StoredStepTurn[TURN.forked].parse(turn.payload);
          turns.push({ kind: "system", ...told, body: { event: "forked", from_run_id, feedback: null, value: inputs, decided: {}, edited, version } });
          break;
        }
        // Turns of other kinds are not a step run's.
      }
    }
    const forkTurn = (fork: StepRunView["forks"][number]): StepTurn => ({
      kind: "system", id: `fork-${fork.run_id}`, at: fork.at, who: fork.by?.name ?? null, node: node(fork.node_id), attempt: null,
      body: { event: "forked_into", fork_run_id: fork.run_id, version: fork.version },
    });
    return { run: view, turns: withForksInto(turns, view.forks, forkTurn) };
  }

  listTools(): ToolDescription[] {
    return this.tools.listTools();
  }

  private async read(runId: string): Promise<{ view: StepRunView; definition: StepWorkflowDefinition }> {
    const found = await this.database.run((db) => store.findRunWithSteps(db, runId));
    const run = stepRun(found?.run, runId);
    const steps = found?.steps ?? [];
    const { definition } = stepDefinition(await this.database.run((db) => store.definitionById(db, run.definitionId)), run.workflow);
    const byId = new Map(steps.map((row) => [row.stepId, row]));
    const view: StepRunView = {
      ...stepRunSummary(run),
      steps: definition.steps.flatMap((step) => {
        const row = byId.get(step.id);
        return row ? [stepView(row, step.tool)] : [];
      }),
      ...outputsOf(run.outputs),
      ...(await this.engine.lineage(run.id)),
    };
    return { view, definition };
  }
}
