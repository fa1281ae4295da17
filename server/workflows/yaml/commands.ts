/**
 * What people may do with YAML workflows: register a definition (a new version of its name), start a run, and
 * decide on its nodes (approve, reject, reply to an interactive loop, retry a failed node), cancel or resume it.
 * Each command is one engine transaction; the projection writes the run's turns and status in that same transaction.
 * A command on a run locks the engine's run row first (engine.ts `onRun`), then the workflow run's row: the product's
 * one lock order, so commands, the executor's reports and the engine's own events never deadlock.
 */
import { randomUUID } from "node:crypto";
import { LineCounter, isMap, isScalar, parseDocument } from "yaml";
import type { Executor } from "../../../db/client";
import { type Engine, EngineError, type RunOps, type RunOwner } from "../../engine/engine";
import { nameAuditTarget, noteAudit } from "../../audit/scope";
import { type DecisionHandler, admitDecision, feedbackOf, unsupportedOutcome } from "../../decisions/commands";
import type { Decider } from "../../decisions/schemas";
import { takeOpenComments } from "../../review/commands";
import { editedOutput } from "../../review/sources";
import { composeFeedback } from "../../review/feedback";
import { hashedUuid, isUuid } from "../../lib/uuid";
import { requireRoleOrStarter } from "../../people/roles";
import { killRun } from "../runtime/processes";
import { lowerWorkflow } from "./compile";
import { type LocatedIssue, type WorkflowDefinition, type WorkflowNode, rejectionOutcome } from "./definition";
import { InvalidWorkflow, WorkflowError, yamlDefinition, yamlRun } from "./errors";
import { loadWorkflow } from "./loader";
import type { WorkflowQueries } from "./queries";
import type { RegisteredWorkflow, StartRunBody, WorkflowRunView } from "./schemas";
import * as store from "../store";

export interface WorkflowCommandOptions {
  /** WORKFLOW_SHELL=on: workflows with bash and script nodes may be registered. */
  shellAllowed: boolean;
}

/**
 * A run that is not a YAML workflow's. Only YAML runs take decisions (approve, reject, input), so this is where a step
 * run's decision is refused, whichever door (REST or tRPC) it came through.
 */
function notThisFrontDoor(runId: string, owner: RunOwner | null): WorkflowError {
  if (owner?.front_door === "steps") return new WorkflowError("conflict", `run ${runId} is a step workflow's: its steps take no approval, rejection or input`);
  return new WorkflowError("not_found", `no workflow run with id "${runId}"`);
}

/** Names the API's paths use under /api/workflows/, which a workflow's name would shadow. */
const RESERVED_NAMES = new Set(["runs", "validate", "tools", "execute", "new"]);

/** Where the value of `name:` stands in the text (a text that loaded), for a located problem with the name itself. */
function locationOfName(yaml: string): { line: number; column: number } {
  const lines = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: lines });
  const name = isMap(doc.contents) ? doc.contents.get("name", true) : undefined;
  const { line, col } = lines.linePos(isScalar(name) ? (name.range?.[0] ?? 0) : 0);
  return { line, column: col };
}

/** A stable flow id per definition version: every process registering the same text gets the same flow (the input and variant of stored ids). */
const flowIdOf = (name: string, version: number, definition: WorkflowDefinition) => hashedUuid(JSON.stringify({ name, version, definition }), "b");

export class WorkflowCommands {
  constructor(
    private readonly engine: Engine,
    private readonly queries: WorkflowQueries,
    private readonly options: WorkflowCommandOptions,
  ) {}

  /** Checks a definition and stores nothing: its warnings, or InvalidWorkflow with every problem located. */
  validate(yaml: string): { valid: true; warnings: LocatedIssue[] } {
    return { valid: true, warnings: this.load(yaml).warnings };
  }

  /** The definition the text holds, with what registering would refuse (reserved names included), or InvalidWorkflow. */
  private load(yaml: string): { definition: WorkflowDefinition; warnings: LocatedIssue[] } {
    const loaded = loadWorkflow(yaml, { shellAllowed: this.options.shellAllowed });
    if (!loaded.ok) throw new InvalidWorkflow(loaded.issues, loaded.warnings);
    const { definition, warnings } = loaded;
    if (RESERVED_NAMES.has(definition.name)) {
      throw new InvalidWorkflow([{ path: "name", ...locationOfName(yaml), message: `"${definition.name}" is reserved by the API's and the app's paths; choose another name` }], warnings);
    }
    return { definition, warnings };
  }

  /** Registers the definition as the next version of its name; a refused definition stores nothing. */
  async register(yaml: string): Promise<RegisteredWorkflow>;
  /** `unlessUnchanged`: when the latest version has this very text, nothing is added (start-up loading of WORKFLOWS_DIR). */
  async register(yaml: string, options: { unlessUnchanged: true }): Promise<{ workflow: RegisteredWorkflow; unchanged: boolean }>;
  async register(yaml: string, options?: { unlessUnchanged: true }): Promise<RegisteredWorkflow | { workflow: RegisteredWorkflow; unchanged: boolean }> {
    const { definition, warnings } = this.load(yaml);
    const graph = lowerWorkflow(definition);
    const { row, unchanged } = await this.engine.transaction(async (ops, tx) => {
      await store.lockName(tx, definition.name);
      const latest = await store.latestDefinition(tx, definition.name);
      if (latest && latest.format !== "yaml") {
        throw new InvalidWorkflow([{ path: "name", ...locationOfName(yaml), message: `"${definition.name}" is the name of a ${latest.format} workflow; a YAML workflow needs a name of its own` }], warnings);
      }
      if (options?.unlessUnchanged && latest?.source === yaml) return { row: latest, unchanged: true };
      const version = (latest?.version ?? 0) + 1;
      const flowId = flowIdOf(definition.name, version, definition);
      await ops.ensureFlow(flowId, `workflow ${definition.name} v${version}`, graph);
      const row = await store.insertDefinition(tx, { name: definition.name, version, format: "yaml", source: yaml, definition, warnings, flowId });
      nameAuditTarget("workflow", definition.name);
      return { row: yamlDefinition(row, definition.name), unchanged: false };
    });
    const workflow = this.queries.registered(row);
    return options?.unlessUnchanged ? { workflow, unchanged } : workflow;
  }

  /** Starts a run of the latest version; the run keeps that version whatever is registered later. */
  async startRun(name: string, body: StartRunBody, by: Decider | null = null): Promise<WorkflowRunView> {
    const runId = randomUUID();
    await this.engine.transaction(async (ops, tx) => {
      const definition = yamlDefinition(await store.latestDefinition(tx, name), name);
      await store.insertRun(tx, { id: runId, definitionId: definition.id, workflow: definition.name, version: definition.version, format: "yaml", message: body.message, inputs: body.inputs ?? null });
      nameAuditTarget("run", runId);
      await store.insertTurns(tx, [{ runId, kind: "message", nodeId: null, payload: { text: body.message, inputs: body.inputs ?? null } }]);
      await ops.startRun(definition.flowId, { message: body.message, inputs: body.inputs ?? null }, { runId, owner: { kind: "yaml" }, startedBy: by?.name ? { id: by.accountId, name: by.name } : null });
    });
    return this.queries.getRun(runId);
  }

  /** Approves a waiting approval node; a repeated approve is a no-op. The comment is kept on the turn and the audit entry. */
  async approve(runId: string, nodeId: string, comment: string | undefined, by: Decider): Promise<WorkflowRunView> {
    await this.onRun(runId, async (ops, tx) => {
      const { node } = await this.nodeOf(tx, runId, nodeId);
      if (node.kind !== "approval") throw new WorkflowError("conflict", `node "${nodeId}" is a ${node.kind} node, not an approval`);
      if (comment?.trim()) noteAudit("comment", comment.trim());
      // Several approvers needed: this approval is recorded, and the gate waits for the next.
      if (!(await admitDecision(tx, runId, nodeId, by, "approve"))) return;
      // Her edited version of the output she reviewed, when she edited it, replaces that step's output (later steps read it).
      const edited = await editedOutput(tx, { engine_run_id: runId, node_id: nodeId });
      await ops.handle({ type: "review", key: nodeId, decision: "approve", ...(comment ? { feedback: comment } : {}), ...(edited ? { output: edited.output } : {}) }, by.name);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Rejects a waiting approval node. With `on_reject`, its prompt runs with the reason and the node waits again,
   * until the rejection that reaches `max_attempts`; without it (or at that limit) the run is cancelled with the reason.
   */
  async reject(runId: string, nodeId: string, reason: string | undefined, by: Decider): Promise<WorkflowRunView> {
    const why = reason?.trim() || "rejected";
    const actor = by.name;
    let cancelled = false;
    await this.onRun(runId, async (ops, tx) => {
      const { node } = await this.nodeOf(tx, runId, nodeId);
      if (node.kind !== "approval") throw new WorkflowError("conflict", `node "${nodeId}" is a ${node.kind} node, not an approval`);
      const row = await ops.nodeRow(nodeId);
      if (row?.status !== "waiting_for_user") throw new WorkflowError("conflict", `node "${nodeId}" is ${row?.status ?? "unknown"}; it is not waiting for approval`);
      await admitDecision(tx, runId, nodeId, by, "reject");
      if (reason?.trim()) noteAudit("reason", reason.trim());
      const onReject = node.approval.on_reject;
      if (rejectionOutcome(node, await store.listTurns(tx, runId)) === "revise") {
        // The open comments on parts of the output under review go with the reason, to the prompt that revises it.
        const comments = await takeOpenComments(tx, { engine_run_id: runId, node_id: nodeId });
        await ops.handle({ type: "review", key: nodeId, decision: "reject", feedback: composeFeedback(why, comments), ...(comments.length ? { comments } : {}) }, actor);
        return;
      }
      await store.insertTurns(tx, [{ runId, nodeId, kind: "rejected", payload: { reason: why, limit: onReject ? onReject.max_attempts : null }, actor }]);
      await ops.cancel(onReject ? `rejected at ${nodeId} ${onReject.max_attempts} times: ${why}` : `rejected at ${nodeId}: ${why}`, actor);
      cancelled = true;
    });
    if (cancelled) killRun(runId);
    return this.queries.getRun(runId);
  }

  /** A person's reply to an interactive loop waiting between iterations. */
  async input(runId: string, nodeId: string, text: string, by: Decider): Promise<WorkflowRunView> {
    await this.onRun(runId, async (ops, tx) => {
      const { node } = await this.nodeOf(tx, runId, nodeId);
      if (node.kind !== "loop" || !node.loop.interactive) throw new WorkflowError("conflict", `node "${nodeId}" is not an interactive loop`);
      await admitDecision(tx, runId, nodeId, by, "answer");
      await ops.handle({ type: "input", key: nodeId, text }, by.name);
    });
    return this.queries.getRun(runId);
  }

  /** Fires a failed node again. */
  async retry(runId: string, nodeId: string, actor: string | null): Promise<WorkflowRunView> {
    await this.onRun(runId, async (ops, tx) => {
      await this.nodeOf(tx, runId, nodeId);
      await ops.handle({ type: "retry", key: nodeId }, actor);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Cancels the run: running nodes' processes are killed and their late results refused. An operator may cancel any
   * run, whoever started it her own.
   */
  async cancel(runId: string, reason: string | undefined, by: Decider): Promise<WorkflowRunView> {
    await this.onRun(runId, async (ops, tx) => {
      await this.lock(tx, runId);
      requireRoleOrStarter(by, ops.startedBy, "operator");
      await ops.cancel(reason, by.name);
    });
    killRun(runId);
    return this.queries.getRun(runId);
  }

  /**
   * Resumes a failed run, or one cancelled by a rejected approval: failed nodes fire again (their skipped descendants
   * return to pending) and completed `always_run` nodes run again; completed nodes otherwise keep their outputs.
   */
  async resume(runId: string, actor: string | null): Promise<WorkflowRunView> {
    await this.onRun(runId, async (ops, tx) => {
      const run = await this.lock(tx, runId);
      const byApproval = run.status === "cancelled" && (run.cancelReason ?? "").startsWith("rejected at ");
      if (run.status !== "failed" && !byApproval) {
        throw new WorkflowError("conflict", `run ${runId} is ${run.status}; only a failed run, or one cancelled by a rejected approval, can be resumed`);
      }
      await ops.resume(actor);
    });
    return this.queries.getRun(runId);
  }

  /**
   * Runs `fn` on the run with its engine row locked first. A run the YAML workflows do not own (a step workflow's, a
   * pipeline's, a plain flow's, or none) is refused before anything else: not_found for no run, conflict naming the
   * owner otherwise, whichever door (REST or tRPC) the command came through.
   */
  private onRun<T>(runId: string, fn: (ops: RunOps, tx: Executor) => Promise<T>): Promise<T> {
    if (!isUuid(runId)) throw new WorkflowError("not_found", `no workflow run with id "${runId}"`);
    return this.engine.onRun(runId, (ops, tx) => {
      if (ops.owner?.front_door !== "yaml") throw notThisFrontDoor(runId, ops.owner);
      return fn(ops, tx);
    }).catch((error: unknown) => {
      if (error instanceof EngineError && error.code === "not_found" && error.message === `no run with id "${runId}"`) throw new WorkflowError("not_found", `no workflow run with id "${runId}"`);
      throw error;
    });
  }

  /** The workflow run's row, locked after the engine's (this runs inside `onRun`). */
  private async lock(tx: Executor, runId: string): Promise<store.RunRow> {
    return yamlRun(await store.lockRun(tx, runId), runId);
  }

  private async nodeOf(tx: Executor, runId: string, nodeId: string): Promise<{ run: store.RunRow; node: WorkflowNode }> {
    const run = await this.lock(tx, runId);
    const node = yamlDefinition(await store.definitionById(tx, run.definitionId), run.workflow).definition.nodes.find((n) => n.id === nodeId);
    if (!node) throw new WorkflowError("not_found", `run ${runId} has no node "${nodeId}"`);
    return { run, node };
  }
}

/** How the decisions of YAML runs (approvals, interactive loops' questions) are taken from the inbox and by their deadlines. */
export function workflowDecisionHandler(commands: WorkflowCommands): DecisionHandler {
  return {
    async decide(decision, body, by) {
      if (decision.kind === "answer") {
        if (body.outcome !== "answer") throw unsupportedOutcome(decision, ["answer"]);
        const text = body.text?.trim();
        if (!text) throw new WorkflowError("bad_request", "text: write the answer to send");
        await commands.input(decision.run_id, decision.node_id, text, by);
      } else if (body.outcome === "approve") await commands.approve(decision.run_id, decision.node_id, body.comment?.trim() || undefined, by);
      else if (body.outcome === "request_changes" || body.outcome === "reject") await commands.reject(decision.run_id, decision.node_id, feedbackOf(body), by);
      else throw unsupportedOutcome(decision, ["approve", "request_changes", "reject"]);
    },
    async cancel(decision, reason, by) {
      await commands.cancel(decision.run_id, reason, by);
    },
  };
}
