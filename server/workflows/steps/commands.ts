/**
 * What people may do with step workflows: register a definition (the next version of its `id`), start a run with
 * inputs checked first, execute (a stored workflow or one given inline, registered unless unchanged), cancel a run,
 * resume a failed one and retry a failed step. Each command is one engine transaction; the projection writes the
 * run's status and turns in that same transaction. A refused command stores nothing.
 */
import { randomUUID } from "node:crypto";
import type { Executor } from "../../../db/client";
import { type Engine, EngineError, type EngineOps, type RunOps } from "../../engine/engine";
import { nameAuditTarget } from "../../audit/scope";
import { hashedUuid, isUuid } from "../../lib/uuid";
import { isPlainObject, stableJson } from "../../lib/json";
import type { Decider } from "../../decisions/schemas";
import { requireRole, requireRoleOrStarter } from "../../people/roles";
import type { Identity } from "../../people/schemas";

/** Who starts a run: the account (its id, when it has one) the run is recorded as started by. */
type Starter = Pick<Decider, "accountId" | "name">;
import type { Problem, StepWorkflowDefinition } from "./definition";
import { InvalidInputs, InvalidStepWorkflow, StepWorkflowError, stepDefinition } from "./errors";
import { abortRun } from "./executor";
import { lowerSteps } from "./lower";
import { TURN } from "./projection";
import type { StepWorkflowQueries } from "./queries";
import type { RegisteredStepWorkflow, StepRunView } from "./schemas";
import * as store from "../store";
import type { ToolRegistry } from "./tools/registry";
import { checkInputs, validateDefinition } from "./validate";

/** Segments of the API's paths under /api/workflows/, which a workflow named so would be shadowed by. */
export const RESERVED_WORKFLOW_NAMES: readonly string[] = ["runs", "validate", "tools", "execute", "new"];

/** The flow of one version of a step workflow: the same id in every process that registers the same definition (the input and variant of stored ids). */
const flowIdOf = (name: string, version: number, definition: StepWorkflowDefinition) => hashedUuid(`steps\n${name}\n${version}\n${stableJson(definition)}`, "a");

export class StepWorkflowCommands {
  constructor(
    private readonly engine: Engine,
    private readonly queries: StepWorkflowQueries,
    private readonly tools: ToolRegistry,
  ) {}

  /**
   * The definition validated (every problem at once, InvalidStepWorkflow) and normalised: every step's `depends_on`
   * is the steps it runs after, as resolved. Stores nothing.
   */
  check(raw: unknown): StepWorkflowDefinition {
    const validated = validateDefinition(raw, this.tools);
    const id = isPlainObject(raw) ? raw.id : undefined;
    const reserved: Problem[] =
      typeof id === "string" && RESERVED_WORKFLOW_NAMES.includes(id) ? [{ path: "id", message: `"${id}" is reserved by the API's and the app's paths (/api/workflows/${id}, /app/steps/${id}); choose another id` }] : [];
    if (!validated.ok || reserved.length > 0) throw new InvalidStepWorkflow([...reserved, ...(validated.ok ? [] : validated.problems)]);
    const { definition, order } = validated;
    return { ...definition, steps: definition.steps.map((step) => ({ ...step, depends_on: order[step.id] ?? [] })) };
  }

  /** Checks a definition and stores nothing: InvalidStepWorkflow with every problem, or valid (a step workflow has no warnings). */
  validate(raw: unknown): { valid: true; warnings: [] } {
    this.check(raw);
    return { valid: true, warnings: [] };
  }

  /** Registers the definition as the next version of its `id`. */
  async register(raw: unknown): Promise<RegisteredStepWorkflow> {
    const checked = this.check(raw);
    const row = await this.engine.transaction((ops, tx) => this.registerWithin(ops, tx, checked, raw, { reuseUnchanged: false }));
    return this.queries.registered(row);
  }

  /** Starts a run of the latest version of `name` with `inputs`, checked against its `inputs` first. */
  async startRun(name: string, inputs: Record<string, unknown> = {}, by: Starter | null = null): Promise<StepRunView> {
    const runId = await this.engine.transaction(async (ops, tx) => {
      return this.startWithin(ops, tx, stepDefinition(await store.latestDefinition(tx, name), name), inputs, by);
    });
    return this.queries.getRun(runId);
  }

  /**
   * `POST /api/workflows/execute`: a run of the stored workflow `workflow` names, or of the definition it is. A definition
   * given inline is code no operator registered, and running it is as good as registering it: the caller must be an
   * operator (403 otherwise, before anything is read). It is validated like a registration and its inputs checked
   * before anything is stored; it is then registered as the next version of its id unless that version is this very
   * definition, and the run started, in one transaction.
   */
  async execute(workflow: string | Record<string, unknown>, inputs: Record<string, unknown> = {}, caller: Identity): Promise<StepRunView> {
    if (typeof workflow === "string") return this.startRun(workflow, inputs, caller);
    requireRole(caller, "operator");
    const checked = this.check(workflow);
    const problems = checkInputs(checked, inputs);
    if (problems.length > 0) throw new InvalidInputs(checked.id, problems);
    const runId = await this.engine.transaction(async (ops, tx) => {
      const row = await this.registerWithin(ops, tx, checked, workflow, { reuseUnchanged: true });
      return this.startWithin(ops, tx, row, inputs, caller);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Cancels the run: its steps stop (a running tool is aborted) and their late results are refused. An operator may
   * cancel any run, whoever started it her own.
   */
  async cancel(runId: string, reason: string | undefined, by: Decider): Promise<StepRunView> {
    await this.onStepRun(runId, (ops) => {
      requireRoleOrStarter(by, ops.startedBy, "operator");
      return ops.cancel(reason, by.name);
    });
    abortRun(runId);
    return this.queries.getRun(runId);
  }

  /** Resumes a failed or cancelled run: its failed, cancelled and skipped steps run again; completed steps keep their outputs. */
  async resume(runId: string, actor: string | null): Promise<StepRunView> {
    await this.onStepRun(runId, async (ops) => {
      if (ops.status !== "failed" && ops.status !== "cancelled") throw new StepWorkflowError("conflict", `run ${runId} is ${ops.status}; only a failed or cancelled run can be resumed`);
      await ops.resume(actor);
    });
    return this.queries.getRun(runId);
  }

  /** Runs a failed step again; the steps its failure skipped are decided again once it settles. */
  async retryStep(runId: string, stepId: string, actor: string | null): Promise<StepRunView> {
    await this.onStepRun(runId, async (ops) => {
      if (!(await ops.nodeRow(stepId))) throw new StepWorkflowError("not_found", `run ${runId} has no step "${stepId}"`);
      await ops.handle({ type: "retry", key: stepId }, actor);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Runs `fn` on a step run, its engine row locked first (engine.ts `onRun`, the product's one lock order). A run the
   * step workflows do not own is refused before anything else, whichever door the command came through.
   */
  private onStepRun<T>(runId: string, fn: (ops: RunOps) => Promise<T>): Promise<T> {
    const noSuchRun = () => new StepWorkflowError("not_found", `no step workflow run with id "${runId}"`);
    if (!isUuid(runId)) throw noSuchRun();
    return this.engine.onRun(runId, (ops) => {
      if (ops.owner?.front_door !== "steps") throw noSuchRun();
      return fn(ops);
    }).catch((error: unknown) => {
      throw error instanceof EngineError && error.code === "not_found" && error.message === `no run with id "${runId}"` ? noSuchRun() : error;
    });
  }

  private async registerWithin(ops: EngineOps, tx: Executor, definition: StepWorkflowDefinition, raw: unknown, options: { reuseUnchanged: boolean }): Promise<store.StepDefinitionRow> {
    await store.lockName(tx, definition.id);
    const latest = await store.latestDefinition(tx, definition.id);
    if (latest && latest.format !== "steps") {
      throw new InvalidStepWorkflow([{ path: "id", message: `"${definition.id}" is the name of a ${latest.format} workflow; a step workflow needs an id of its own` }]);
    }
    if (options.reuseUnchanged && latest && stableJson(latest.definition) === stableJson(definition)) return latest;
    const version = (latest?.version ?? 0) + 1;
    const flowId = flowIdOf(definition.id, version, definition);
    const graph = lowerSteps(definition, Object.fromEntries(definition.steps.map((step) => [step.id, step.depends_on ?? []])), (tool) => this.tools.get(tool)!.defaultTimeoutMs);
    await ops.ensureFlow(flowId, `steps ${definition.id} v${version}`, graph);
    const row = await store.insertDefinition(tx, { name: definition.id, version, format: "steps", source: JSON.stringify(raw, null, 2), definition, warnings: [], flowId });
    nameAuditTarget("workflow", definition.id);
    return stepDefinition(row, definition.id);
  }

  private async startWithin(ops: EngineOps, tx: Executor, row: store.StepDefinitionRow, inputs: Record<string, unknown>, by: Starter | null): Promise<string> {
    const actor = by?.name ?? null;
    const problems = checkInputs(row.definition, inputs);
    if (problems.length > 0) throw new InvalidInputs(row.name, problems);
    const runId = randomUUID();
    await store.insertRun(tx, { id: runId, definitionId: row.id, workflow: row.name, version: row.version, format: "steps", message: "", inputs });
    nameAuditTarget("run", runId);
    await store.insertTurns(tx, [{ runId, kind: TURN.inputs, nodeId: null, payload: { inputs }, actor }]);
    await ops.startRun(row.flowId, { inputs }, { runId, owner: { kind: "steps" }, startedBy: actor === null ? null : { id: by!.accountId, name: actor } });
    return runId;
  }
}
