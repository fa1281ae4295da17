/** The step workflows' read models: registered workflows, runs with their `run_steps` and outputs, a run as a conversation, the tools. */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Database } from "../../../db/client";
import type { Engine } from "../../engine/engine";
import { withForksInto } from "../../forks/turns";
import * as store from "../store";
import type { StepWorkflowDefinition } from "./definition";
import { stepDefinition, stepRun } from "./errors";
import { TURN } from "./projection";
import { type RegisteredStepWorkflow, type RunStep, type StepConversation, type StepRunSummary, StepRunStatus, type StepRunView, StepStatus, type StepTurn, type StepWorkflowDetail } from "./schemas";
import type { RunStepRow } from "./store";
import { RenderedOutputs } from "./templates";
import type { ToolDescription, ToolRegistry } from "./tools/registry";

const iso = (value: string | Date) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));
const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** A fork's first turn as stored (forkCommands.ts): the run it came from, its inputs, whether they were changed. */
const ForkedTurn = z.object({ from_run_id: z.string(), version: z.string(), inputs: z.record(z.string(), z.unknown()), edited: z.boolean() });
const POLL_MS = 100;

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

  /** The run as a conversation: its inputs, each step's turns (tool, resolved params, result, attempts), the outcome with the outputs. */
  async conversation(runId: string): Promise<StepConversation> {
    const { view, definition } = await this.read(runId);
    const turns = await this.database.run((db) => store.listTurns(db, runId));
    const toolOf = new Map(definition.steps.map((step) => [step.id, step.tool]));
    const stepOf = new Map(view.steps.map((step) => [step.step_id, step]));
    const out: StepTurn[] = [];
    for (const turn of turns) {
      const payload = record(turn.payload);
      const step = turn.nodeId === null ? undefined : stepOf.get(turn.nodeId);
      const add = (kind: StepTurn["kind"], text: string | null, data: Record<string, unknown> | null = payload) =>
        out.push({ id: `t${turn.id}`, at: iso(turn.createdAt), kind, step_id: turn.nodeId, tool: turn.nodeId === null ? null : (toolOf.get(turn.nodeId) ?? null), text, actor: turn.actor, data });
      const said = (key: string) => (typeof payload[key] === "string" ? (payload[key] as string) : null);
      switch (turn.kind) {
        case TURN.inputs:
          add("inputs", null);
          break;
        case TURN.started:
          add("started", null);
          break;
        case TURN.input:
          add("params", JSON.stringify(payload.input ?? {}, null, 2));
          break;
        case TURN.retrying:
          add("retrying", said("error"));
          break;
        case TURN.completed: {
          const output = step?.status === "COMPLETED" ? step.output : null;
          add("output", renderResult(output), { ...payload, output, attempts: step?.attempts ?? null });
          break;
        }
        case TURN.failed:
          add("failed", said("error"));
          break;
        case TURN.skipped:
          add("skipped", said("reason"));
          break;
        case TURN.cancelled:
        case TURN.runCancelled:
          add("cancelled", said("reason"));
          break;
        case TURN.retried:
          add("retried", null);
          break;
        case TURN.resumed:
          add("resumed", null);
          break;
        case TURN.outcome:
          add("outcome", said("status"), { status: payload.status, ...outputsOf(RenderedOutputs.nullable().parse(payload.outputs ?? null)) });
          break;
        case TURN.forked:
          add("forked", null, ForkedTurn.parse(payload));
          break;
        // Turns of other kinds are not a step run's.
      }
    }
    const forkTurn = (fork: StepRunView["forks"][number]): StepTurn => ({
      id: `fork-${fork.run_id}`, at: fork.at, kind: "forked_into", step_id: fork.node_id, tool: toolOf.get(fork.node_id) ?? null, text: null,
      actor: fork.by?.name ?? null, data: { fork_run_id: fork.run_id, version: fork.version },
    });
    return { run: view, turns: withForksInto(out, view.forks, forkTurn) };
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
