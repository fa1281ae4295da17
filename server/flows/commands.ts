/**
 * The plain flows' front door: what workers, people and integrators may do with a flow graph's runs through the
 * engine's generic doors (`/api/stitch/*`, tRPC `engine.*`). A run that another front door owns (the agent pipeline,
 * a YAML or step workflow) is that front door's to change: every change here refuses it with 409, naming the owner's
 * door, so the owner's rules (a pipeline reviewer's version check, a YAML approval's on_reject limit) cannot be
 * bypassed. Reads stay open (they are the engine's queries).
 */
import { randomUUID } from "node:crypto";
import type { Executor } from "../../db/client";
import { recordAcceptedTogether } from "../audit/auditedDatabase";
import { type AuditScope, currentAuditScope, inAuditScope, nameAuditTarget } from "../audit/scope";
import { type DecisionHandler, admitDecision, unsupportedOutcome } from "../decisions/commands";
import type { Decider } from "../decisions/schemas";
import { type BatchedEvent, type BatchedStart, type Engine, EngineError, type EventResult, type KeyedEvent, type RunOps, type RunOwner, type StartedBy, toNodeState } from "../engine/engine";
import { Coalescer, asError } from "../lib/coalesce";
import type { StitchRun } from "../engine/schemas";
import { takeOpenComments } from "../review/commands";
import { editedOutput } from "../review/sources";
import { composeFeedback } from "../review/feedback";

/** Where an owner's runs are changed, for the refusal's message: the app composes it from the front doors' paths. */
export type OwnerDoor = (owner: RunOwner) => string;

/** A start waiting for its batch, with its request's audit scope. */
interface PendingStart extends BatchedStart {
  audit: AuditScope | undefined;
}

/** How a refusal names the front door that owns a run. */
export const OWNER_NAMES: Record<RunOwner["front_door"], string> = { pipeline: "the agent pipeline", yaml: "a YAML workflow", steps: "a step workflow" };

export class FlowCommands {
  /**
   * Workers' callbacks are applied in batches: those that arrive while the last batch is written go into one
   * transaction (Engine.handleAll), each still checked, applied or refused as alone.
   */
  private readonly callbacks = new Coalescer<BatchedEvent, EventResult | Error>((events) => this.engine.handleAll(events));
  /** Starts likewise: those asked for while the last batch is written are created together (`startTogether`). */
  private readonly starts = new Coalescer<PendingStart, StitchRun | Error>((starts) => this.startTogether(starts));

  constructor(
    private readonly engine: Engine,
    private readonly ownerDoor: OwnerDoor,
  ) {}

  /**
   * Starts a run of a flow; the run has no owner, so this front door's commands are the ones that change it. Starts
   * asked for together are created in one transaction (see `startTogether`), each answered as alone. `audit`: the
   * request's audit scope when its door hands it over (REST), else the current one (tRPC). `version`: the flow's
   * version to run (its latest when absent), refused with 404 before the start is batched when the flow has no such
   * version (versions are never removed, so it still has it when the run is created).
   */
  async startRun(flowId: string, input: unknown, startedBy: StartedBy | null = null, audit: AuditScope | undefined = currentAuditScope(), version?: number): Promise<StitchRun> {
    if (version !== undefined) await this.engine.getFlowVersion(flowId, version);
    const start: PendingStart = { flowId, input, options: { runId: randomUUID(), startedBy, ...(version === undefined ? {} : { flowVersion: version }) }, audit };
    const answer = await this.starts.add(start);
    if (answer instanceof Error) throw answer;
    return answer;
  }

  /**
   * Starts that arrived while the last batch was written, in one transaction (Engine.startRuns): each request's
   * accepted audit entry, naming its new run, is written in it too. A start refused (no such flow) is answered with
   * its refusal; if the batch cannot be written together, nothing of it is kept and each start goes alone, in its own
   * request's audit scope, with its own outcome.
   */
  private async startTogether(starts: PendingStart[]): Promise<(StitchRun | Error)[]> {
    if (starts.length > 1) {
      let undoAudit = () => {};
      try {
        return await this.engine.startRuns(starts, async (tx, started) => {
          undoAudit = await recordAcceptedTogether(tx, started.map((i) => ({ scope: starts[i]!.audit, target: { kind: "run", id: starts[i]!.options.runId } })));
        });
      } catch {
        undoAudit();
      }
    }
    return Promise.all(starts.map((start) => (start.audit ? inAuditScope(start.audit, () => this.startAlone(start)) : this.startAlone(start)).catch(asError)));
  }

  private startAlone({ flowId, input, options }: BatchedStart): Promise<StitchRun> {
    return this.engine.transaction(async (ops) => {
      const run = await ops.startRun(flowId, input, options);
      nameAuditTarget("run", options.runId);
      return run;
    });
  }

  /** A worker's callback (authenticated by its URL's token when callbacks are). */
  async callback(runId: string, nodeId: string, token: string | undefined, body: Omit<Extract<KeyedEvent, { type: "callback" }>, "type" | "key">): Promise<EventResult> {
    this.engine.authorizeCallback(runId, nodeId, token);
    const answer = await this.callbacks.add({ runId, event: { type: "callback", key: nodeId, ...body }, admit: (run) => this.refuseOwned(run, "report a callback on") });
    if (answer instanceof Error) throw answer;
    return answer;
  }

  /** A person completes a UX node with their input as its output. */
  async complete(runId: string, nodeId: string, output: unknown, by: Decider): Promise<EventResult> {
    return this.onPlainRun(runId, "complete a node of", async (run, tx) => {
      await admitDecision(tx, run.id, nodeId, by, "complete");
      return run.handle({ type: "complete", key: nodeId, output }, by.name);
    });
  }

  /** A review gate's decision: approve the output before it, or reject it with feedback so its worker runs again. */
  review(runId: string, nodeId: string, decision: { decision: "approve" } | { decision: "reject"; feedback: string }, by: Decider): Promise<EventResult> {
    const feedback = decision.decision === "reject" ? decision.feedback : undefined;
    return this.onPlainRun(runId, "review a node of", async (run, tx) => {
      // Several approvers needed: this approval is recorded, and the gate waits for the next (the run as it is).
      if (!(await admitDecision(tx, run.id, nodeId, by, decision.decision === "approve" ? "approve" : "request_changes"))) {
        const node = await run.nodeRow(nodeId);
        return { runId: run.id, nodeId, duplicate: false, message: "approval recorded: the gate waits for another person's approval", ...(node ? { node: toNodeState(node) } : {}), runStatus: run.status };
      }
      // The reviewer's edited version, when she edited the output under review: the gate passes it on, or its Worker revises it.
      const edited = await editedOutput(tx, { engine_run_id: run.id, node_id: nodeId });
      const output = edited ? { output: edited.output } : {};
      if (feedback === undefined) return run.handle({ type: "review", key: nodeId, decision: "approve", ...output }, by.name);
      // The open comments on parts of the output under review go with the feedback, to the worker that revises it.
      const comments = await takeOpenComments(tx, { engine_run_id: run.id, node_id: nodeId });
      if (feedback.trim() === "" && comments.length === 0) {
        throw new EngineError("bad_request", "feedback must not be empty when rejecting: say what should change, or comment on a part of the output");
      }
      return run.handle({ type: "review", key: nodeId, decision: "reject", feedback: composeFeedback(feedback, comments), ...(comments.length ? { comments } : {}), ...output }, by.name);
    });
  }

  /** Fires a failed node again. */
  retry(runId: string, nodeId: string, actor: string | null): Promise<EventResult> {
    return this.onPlainRun(runId, "retry a node of", (run) => run.handle({ type: "retry", key: nodeId }, actor));
  }

  /** Cancels the whole run: unfinished nodes become cancelled and nothing more is sent. */
  cancel(runId: string, reason: string | undefined, actor: string | null): Promise<EventResult> {
    return this.onPlainRun(runId, "cancel", (run) => run.cancel(reason, actor));
  }

  /** The run's row is locked first (engine.onRun); an owned run is refused before any event is applied. */
  private onPlainRun<T>(runId: string, action: string, fn: (run: RunOps, tx: Executor) => Promise<T>): Promise<T> {
    return this.engine.onRun(runId, (run, tx) => {
      this.refuseOwned(run, action);
      return fn(run, tx);
    });
  }

  /** Refuses to change a run another front door owns, naming that front door's own door for it. */
  private refuseOwned(run: Pick<RunOps, "id" | "owner">, action: string): void {
    if (!run.owner) return;
    throw new EngineError(
      "conflict",
      `run ${run.id} belongs to ${OWNER_NAMES[run.owner.front_door]} (${run.owner.run_id}); the engine's generic doors cannot ${action} it: use ${this.ownerDoor(run.owner)}`,
    );
  }
}

/** How the decisions of plain flow runs (review gates, UX gates to complete) are taken from the inbox and by their deadlines. */
export function flowDecisionHandler(commands: FlowCommands): DecisionHandler {
  return {
    async decide(decision, body, by) {
      if (decision.kind === "completion") {
        // A gate completed from the inbox: its output is the text given (an approval's comment, or nothing).
        if (body.outcome !== "answer" && body.outcome !== "approve") throw unsupportedOutcome(decision, ["answer", "approve"]);
        await commands.complete(decision.run_id, decision.node_id, (body.outcome === "answer" ? body.text : body.comment) ?? null, by);
      } else if (body.outcome === "approve") await commands.review(decision.run_id, decision.node_id, { decision: "approve" }, by);
      else if (body.outcome === "request_changes" || body.outcome === "reject") await commands.review(decision.run_id, decision.node_id, { decision: "reject", feedback: body.comment ?? "" }, by);
      else throw unsupportedOutcome(decision, ["approve", "request_changes"]);
    },
    async cancel(decision, reason, by) {
      await commands.cancel(decision.run_id, reason, by.name);
    },
  };
}
