/**
 * The engine's heart: a pure function from (graph, node states, event) to (state changes, effects, follow-up events).
 * It performs no I/O, reads no clock and keeps nothing between calls; the store applies its changes in one
 * transaction and the dispatcher performs its effects after commit.
 *
 * External events (start, callback, complete, review, retry, delivery_failed, timeout, cancel) answer with an outcome;
 * the follow-up events (fire, completed, collect, member_failed, member_recovered) are how one event's
 * consequences ripple through the graph inside the same transaction.
 */
import { type CompiledGraph, type InstanceRef, editedSourceOf, instanceKey, isApprovalGate, isReviewGate, keyInPath, parseKey, readPath } from "./graph";
import { isPlainObject, sameJson } from "../lib/json";
import type { ExternalEvent, NodeStatus, ReviewedPartComment, RunStatus, TriggerRule, WorkerPayload } from "./schemas";

/** One row of `stitch_node_states`: a node of the graph, or one path's instance of it. */
export interface NodeRow {
  key: string;
  status: NodeStatus;
  output: unknown;
  error: string | null;
  input: unknown;
  /** How many times the node has been fired; a worker may echo it to mark its callback. */
  attempt: number;
  /** Collectors: how many feeder completions make the paths complete (paths x feeders), once the splitter ran. */
  pathTotal: number | null;
  pathDone: number;
  /** Collectors: member instances of the scope currently failed. */
  pathFailed: number;
  /** Workers re-run after a review rejection: the feedback they owe an answer to, kept until they deliver it (a retry resends it). */
  feedback: { text: string; round: number; comments?: ReviewedPartComment[] } | null;
  /** Workers with `data.retry`: the attempt their current budget of automatic attempts began with (set whenever the node is fired afresh). */
  retryFrom: number;
}

export const newRow = (key: string): NodeRow => ({
  key, status: "pending", output: null, error: null, input: null, attempt: 0, pathTotal: null, pathDone: 0, pathFailed: 0, feedback: null, retryFrom: 0,
});

/** The events that come from outside, defined (as zod, for the event log) in schemas.ts. */
export type { ExternalEvent };

export type InternalEvent =
  | { type: "fire"; key: string }
  /** A node failed or was skipped: the nodes after it that fire by trigger rule check whether they can now run. */
  | { type: "settled"; key: string }
  | { type: "completed"; key: string }
  | { type: "collect"; key: string; paths: number }
  | { type: "member_failed"; key: string; member: string }
  | { type: "member_recovered"; key: string };

export type EngineEvent = ExternalEvent | InternalEvent;

export type Effect =
  | { type: "dispatch"; key: string; attempt: number; url: string; payload: WorkerPayload }
  | { type: "cancel_dispatches"; key: string }
  /** Deliver a `timeout` event for this attempt after `afterMs`, unless the node's outbox rows are cancelled first. */
  | { type: "schedule_timeout"; key: string; attempt: number; afterMs: number }
  /** Deliver a `retry_due` event for this (failed) attempt after `afterMs`, unless the node's outbox rows are cancelled first. */
  | { type: "schedule_retry"; key: string; attempt: number; afterMs: number };

export type RejectionCode = "not_found" | "conflict" | "bad_request";
export type Outcome =
  | { kind: "applied" }
  | { kind: "duplicate"; message: string }
  | { kind: "rejected"; code: RejectionCode; message: string };

export interface StepResult {
  outcome: Outcome;
  changes: NodeRow[];
  effects: Effect[];
  next: InternalEvent[];
}

export interface RunContext {
  runId: string;
  runInput: unknown;
  /**
   * The URL a Worker instance calls back to. The shell builds it from NEXT_PUBLIC_BASE_URL and the REST route (with
   * the callback token when callbacks are authenticated); the core knows no paths. A deterministic function of the key.
   */
  callbackUrl: (key: string) => string;
}

const applied: Outcome = { kind: "applied" };
const duplicate = (message: string): Outcome => ({ kind: "duplicate", message });
const rejected = (code: RejectionCode, message: string): Outcome => ({ kind: "rejected", code, message });

/** The events the shell hands every row of the run (cancel, resume, restart). */
export const readsEveryRow = (event: EngineEvent): event is Extract<EngineEvent, { type: "cancel" | "resume" | "restart" }> =>
  event.type === "cancel" || event.type === "resume" || event.type === "restart";

/** The rows `transition` reads for an event; the store loads them (and keeps what earlier steps changed). */
export function requiredKeys(g: CompiledGraph, event: EngineEvent): string[] {
  if (event.type === "start") return [...g.entries];
  // A fork's rows are all seeded (forkPlan.ts): there is nothing stored to read.
  if (event.type === "fork") return [];
  // A cancellation, resumption or restart reads every row of the run, which no graph can list (splitter paths): the shell seeds them all.
  if (readsEveryRow(event)) return [];
  const ref = parseKey(g, event.key);
  if (!ref) return [];
  switch (event.type) {
    case "callback":
    case "complete":
    case "delivery_failed":
    case "timeout":
    case "retry_due":
    case "skip":
    case "iterate":
    case "input":
    case "member_failed":
    case "member_recovered":
      return [event.key];
    case "retry":
      // A node that fires by rule takes back the skips its failure caused, so its descendants are read too.
      return [event.key, ...upstreamKeys(g, ref), ...(ref.node.spec.triggerRule ? ruledDescendants(g, ref.nodeId) : [])];
    case "review":
    case "fire":
      return [event.key, ...upstreamKeys(g, ref)];
    case "collect": {
      const keys = [event.key];
      for (const feeder of g.upstream.get(ref.nodeId)!) {
        if (g.nodes.get(feeder)!.type === "Splitter") keys.push(instanceKey(feeder, ref.vector));
        else for (let k = 0; k < event.paths; k++) keys.push(instanceKey(feeder, [...ref.vector, k]));
      }
      return keys;
    }
    case "settled":
    case "completed": {
      const keys = [event.key];
      if (ref.node.type === "Splitter" && event.type === "completed") {
        keys.push(...g.insideOf.get(ref.nodeId)!);
        const collector = g.collectorOf.get(ref.nodeId);
        if (collector) keys.push(instanceKey(collector, ref.vector));
        return keys;
      }
      for (const target of g.downstream.get(ref.nodeId)!) {
        if (closesScopeOf(g, target, ref.nodeId)) keys.push(instanceKey(target, ref.vector.slice(0, -1)));
        else {
          const targetKey = instanceKey(target, ref.vector);
          keys.push(targetKey, ...upstreamKeys(g, parseKey(g, targetKey)!));
        }
      }
      return keys;
    }
  }
}

/**
 * The rows an event most likely needs, its follow-ups' included, so the shell can load them in one statement instead
 * of one per step: a Worker's completion is followed by its `completed`, which reads the nodes after it. Only a
 * guess: a row the macrostep asks for later is loaded then, and one loaded in vain costs nothing but its bytes.
 */
export function anticipatedKeys(g: CompiledGraph, event: EngineEvent): string[] {
  const keys = requiredKeys(g, event);
  const completes = (event.type === "callback" && event.status === "completed") || event.type === "complete";
  if (!completes || !parseKey(g, event.key)) return keys;
  return [...new Set([...keys, ...requiredKeys(g, { type: "completed", key: event.key })])];
}

/** Every node after `nodeId` that fires by trigger rule, transitively (workflow graphs have no splitter paths). */
function ruledDescendants(g: CompiledGraph, nodeId: string): string[] {
  const found = new Set<string>();
  const visit = (id: string) => {
    for (const next of g.downstream.get(id)!) {
      if (found.has(next) || !g.nodes.get(next)!.spec.triggerRule) continue;
      found.add(next);
      visit(next);
    }
  };
  visit(nodeId);
  return [...found];
}

function upstreamKeys(g: CompiledGraph, ref: InstanceRef): string[] {
  return g.upstream.get(ref.nodeId)!.map((up) => keyInPath(g, up, ref.vector));
}

/** True when `collector` is the Collector that gathers the paths `source` runs in. */
function closesScopeOf(g: CompiledGraph, collector: string, source: string): boolean {
  return g.nodes.get(collector)!.type === "Collector" && g.nodes.get(source)!.type !== "Splitter";
}


/** A node's input: one upstream passes its output as is; several are merged (objects shallowly, in edge order; otherwise keyed by node id). */
export function mergeInputs(parts: { from: string; value: unknown }[]): unknown {
  if (parts.length === 1) return parts[0]!.value;
  if (parts.every((p) => isPlainObject(p.value))) return Object.assign({}, ...parts.map((p) => p.value));
  return Object.fromEntries(parts.map((p) => [p.from, p.value]));
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

class Step {
  readonly changed = new Map<string, NodeRow>();
  readonly effects: Effect[] = [];
  readonly next: InternalEvent[] = [];

  constructor(
    readonly g: CompiledGraph,
    private readonly rows: ReadonlyMap<string, NodeRow>,
    readonly ctx: RunContext,
  ) {}

  get(key: string): NodeRow | undefined {
    return this.changed.get(key) ?? this.rows.get(key);
  }

  /** Every status change goes through here, so a collector hears about each member entering or leaving `failed`. */
  put(row: NodeRow): void {
    const before = this.get(row.key);
    this.changed.set(row.key, row);
    const settles = (s: NodeStatus | undefined) => s === "failed" || s === "skipped";
    if (settles(row.status) && !settles(before?.status) && this.firesByRuleAfter(row.key)) this.next.push({ type: "settled", key: row.key });
    const wasFailed = before?.status === "failed";
    const isFailed = row.status === "failed";
    if (wasFailed === isFailed) return;
    const ref = parseKey(this.g, row.key);
    if (!ref || ref.template || ref.vector.length === 0) return;
    const scope = this.g.scope.get(ref.nodeId)!;
    const collector = this.g.collectorOf.get(scope[scope.length - 1]!);
    if (!collector) return;
    const collectorKey = instanceKey(collector, ref.vector.slice(0, -1));
    this.next.push(isFailed ? { type: "member_failed", key: collectorKey, member: row.key } : { type: "member_recovered", key: collectorKey });
  }

  /** True when a node after this one fires by trigger rule, so it must hear of this one failing or being skipped. */
  private firesByRuleAfter(key: string): boolean {
    const ref = parseKey(this.g, key);
    return !!ref && this.g.downstream.get(ref.nodeId)!.some((target) => this.g.nodes.get(target)!.spec.triggerRule !== undefined);
  }

  /** A cancellation's change: every collector of the run is cancelled in the same step, so none is told. */
  stop(row: NodeRow): void {
    this.changed.set(row.key, row);
  }

  result(outcome: Outcome): StepResult {
    return { outcome, changes: [...this.changed.values()], effects: this.effects, next: this.next };
  }

  /** The input of an instance, or undefined while one of its upstream instances is not completed. */
  inputOf(ref: InstanceRef): { input: unknown } | undefined {
    const ups = this.g.upstream.get(ref.nodeId)!;
    if (ups.length === 0) return { input: this.ctx.runInput };
    const parts: { from: string; value: unknown }[] = [];
    for (const up of ups) {
      const row = this.get(keyInPath(this.g, up, ref.vector));
      if (!row || row.status !== "completed") return undefined;
      const fromSplitter = this.g.nodes.get(up)!.type === "Splitter";
      parts.push({ from: up, value: fromSplitter ? (row.output as unknown[])[ref.vector[ref.vector.length - 1]!] : row.output });
    }
    return { input: mergeInputs(parts) };
  }

  /**
   * For a node that fires by trigger rule: undefined while a dependency has not settled; then its input (the
   * completed dependencies' outputs merged), or why it will not run. A skipped or cancelled dependency counts as
   * not completed and not failed.
   */
  readinessByRule(ref: InstanceRef, rule: TriggerRule): { input: unknown } | { skip: string } | undefined {
    const ups = this.g.upstream.get(ref.nodeId)!;
    if (ups.length === 0) return { input: this.ctx.runInput };
    const completed: { from: string; value: unknown }[] = [];
    const failed: string[] = [];
    const notRun: string[] = [];
    for (const up of ups) {
      const row = this.get(keyInPath(this.g, up, ref.vector));
      if (!row) return undefined;
      if (row.status === "completed") completed.push({ from: up, value: row.output });
      else if (row.status === "failed") failed.push(up);
      else if (row.status === "skipped" || row.status === "cancelled") notRun.push(up);
      else return undefined;
    }
    const names = (ids: string[]) => ids.map((id) => `"${id}"`).join(", ");
    const why =
      rule === "all_success" && (failed.length > 0 || notRun.length > 0)
        ? `${failed.length > 0 ? `${names(failed)} failed` : `${names(notRun)} did not run`}`
        : rule === "one_success" && completed.length === 0
          ? "no dependency completed"
          : rule === "none_failed_min_one_success" && failed.length > 0
            ? `${names(failed)} failed`
            : rule === "none_failed_min_one_success" && completed.length === 0
              ? "no dependency completed"
              : undefined;
    if (why) return { skip: `trigger_rule ${rule}: ${why}` };
    return { input: completed.length > 0 ? mergeInputs(completed) : null };
  }

  /** What a Worker receives: run, node, its config, its input and where to call back; one that owes an answer to review feedback also gets that feedback. */
  dispatch(ref: InstanceRef, row: NodeRow): void {
    const feedback: WorkerPayload["feedback"] = row.feedback
      ? { text: row.feedback.text, previousOutput: row.output, round: row.feedback.round, ...(row.feedback.comments?.length ? { comments: row.feedback.comments } : {}) }
      : undefined;
    // The worker is given its node's data as config, all but the address it is sent to.
    const { webhookUrl: _address, ...config } = ref.node.data;
    const payload: WorkerPayload = {
      runId: this.ctx.runId,
      nodeId: row.key,
      config,
      input: row.input,
      callbackUrl: this.ctx.callbackUrl(row.key),
      attempt: row.attempt,
      ...(feedback ? { feedback } : {}),
    };
    // compileGraph requires a webhookUrl of every Worker without an executor; gates only dispatch to their executor.
    const { executor, webhookUrl, timeoutMs } = ref.node.spec;
    this.effects.push({ type: "dispatch", key: row.key, attempt: row.attempt, url: executor ? `executor:${executor}` : webhookUrl!, payload });
    if (timeoutMs !== undefined) this.effects.push({ type: "schedule_timeout", key: row.key, attempt: row.attempt, afterMs: timeoutMs });
  }
}

export function transition(g: CompiledGraph, rows: ReadonlyMap<string, NodeRow>, event: EngineEvent, ctx: RunContext): StepResult {
  const step = new Step(g, rows, ctx);
  if (event.type === "start") {
    for (const entry of g.entries) step.next.push({ type: "fire", key: entry });
    return step.result(applied);
  }
  if (event.type === "cancel") return onCancel(step, rows, event.reason);
  if (event.type === "resume") return onResume(step, rows);
  if (event.type === "restart") return onRestart(step, rows, event.key);
  if (event.type === "fork") return onFork(step, event);
  const ref = parseKey(g, event.key);
  const row = ref && step.get(event.key);
  if (!ref || !row) return step.result(rejected("not_found", `run ${ctx.runId} has no node "${event.key}"`));
  if (ref.template && event.type !== "member_failed" && event.type !== "member_recovered") {
    return step.result(
      rejected("conflict", `node "${event.key}" runs once per splitter path; address one path, such as "${instanceKey(ref.nodeId, g.scope.get(ref.nodeId)!.map(() => 0))}"`),
    );
  }
  switch (event.type) {
    case "callback":
      return onCallback(step, ref, row, event);
    case "complete":
      return onComplete(step, ref, row, event.output);
    case "review":
      return onReview(step, ref, row, event);
    case "retry":
      return onRetry(step, ref, row);
    case "delivery_failed":
    case "timeout": {
      if (row.status !== "running" || row.attempt !== event.attempt || betweenAttempts(row)) return step.result(duplicate("the node has moved on"));
      const error = event.type === "timeout" ? `the worker did not call back within ${event.afterMs} ms (attempt ${event.attempt})` : event.error;
      failOrRetry(step, ref, row, error);
      return step.result(applied);
    }
    case "retry_due": {
      if (row.status !== "running" || row.attempt !== event.attempt || !betweenAttempts(row)) return step.result(duplicate("the node has moved on"));
      const next: NodeRow = { ...row, attempt: row.attempt + 1, error: null };
      step.put(next);
      step.effects.push({ type: "cancel_dispatches", key: row.key });
      step.dispatch(ref, next);
      return step.result(applied);
    }
    case "skip": {
      if (row.status !== "running" || row.attempt !== event.attempt) return step.result(duplicate("the node has moved on"));
      step.effects.push({ type: "cancel_dispatches", key: row.key });
      step.put({ ...row, status: "skipped", error: event.reason });
      return step.result(applied);
    }
    case "iterate":
      return onIterate(step, ref, row, event);
    case "input":
      return onInput(step, ref, row, event.text);
    case "settled":
      for (const target of g.downstream.get(ref.nodeId)!) {
        if (g.nodes.get(target)!.spec.triggerRule) step.next.push({ type: "fire", key: instanceKey(target, ref.vector) });
      }
      return step.result(applied);
    case "fire":
      return onFire(step, ref, row);
    case "completed":
      return onCompleted(step, ref, row);
    case "collect":
      return onCollect(step, ref, row, event.paths);
    case "member_failed":
      // Only a collector still waiting fails. One that already collected keeps its output:
      // its downstream has run, and a side branch of a path failing later must not undo or repeat that.
      step.put({
        ...row,
        pathFailed: row.pathFailed + 1,
        ...(row.status === "pending" ? { status: "failed" as const, error: `path "${event.member}" failed` } : {}),
      });
      return step.result(applied);
    case "member_recovered": {
      const pathFailed = row.pathFailed - 1;
      const recovers = row.status === "failed" && pathFailed === 0;
      step.put({ ...row, pathFailed, ...(recovers ? { status: "pending" as const, error: null } : {}) });
      if (recovers) collectIfReady(step, { ...row, pathFailed, status: "pending" });
      return step.result(applied);
    }
  }
}

/** Statuses a cancellation stops: everything not yet finished (a failed node can no longer be retried either). */
const CANCELLABLE: ReadonlySet<NodeStatus> = new Set(["pending", "running", "waiting_for_user", "failed", "split"]);

/**
 * Cancels the run: every unfinished node becomes `cancelled` and its outbox rows (webhooks still to send, timers)
 * go. Completed and skipped nodes keep their results. Nothing fires afterwards: a late callback finds its node
 * cancelled (409), a retry finds nothing failed (400), and the run's status stays `cancelled`.
 */
function onCancel(step: Step, rows: ReadonlyMap<string, NodeRow>, reason: string | undefined): StepResult {
  const why = reason?.trim() ? `cancelled: ${reason.trim()}` : "cancelled";
  let stopped = 0;
  let alreadyCancelled = false;
  for (const row of rows.values()) {
    if (row.status === "cancelled") alreadyCancelled = true;
    if (!CANCELLABLE.has(row.status)) continue;
    step.stop({ ...row, status: "cancelled", error: row.status === "failed" ? `${why} (it had failed: ${row.error ?? "no error recorded"})` : why });
    if (row.status === "running") step.effects.push({ type: "cancel_dispatches", key: row.key });
    stopped++;
  }
  if (stopped > 0) return step.result(applied);
  if (alreadyCancelled) return step.result(duplicate("the run is already cancelled"));
  return step.result(rejected("conflict", "the run has finished; there is nothing to cancel"));
}

function onCallback(step: Step, ref: InstanceRef, row: NodeRow, event: Extract<ExternalEvent, { type: "callback" }>): StepResult {
  if (isApprovalGate(ref.node) && row.status === "running") return onRejectionHandled(step, row, event);
  if (ref.node.type !== "Worker") {
    return step.result(rejected("conflict", `node "${row.key}" is a ${ref.node.type} node; only Worker nodes take callbacks`));
  }
  if (row.status === "running") {
    if (event.attempt !== undefined && event.attempt !== row.attempt) {
      return step.result(duplicate(`callback for attempt ${event.attempt}, but node "${row.key}" is on attempt ${row.attempt}`));
    }
    if (event.status === "completed") {
      step.effects.push({ type: "cancel_dispatches", key: row.key });
      step.put({ ...row, status: "completed", output: event.output ?? null, error: null, feedback: null });
      step.next.push({ type: "completed", key: row.key });
    } else {
      // A failure repeated while the node waits for its next automatic attempt is the same failure.
      if (betweenAttempts(row)) return step.result(duplicate(`node "${row.key}" already failed attempt ${row.attempt} and waits for attempt ${row.attempt + 1}`));
      failOrRetry(step, ref, row, event.error?.trim() || "the worker reported a failure without an error message", event.retryable !== false);
    }
    return step.result(applied);
  }
  if (row.status === event.status) return step.result(duplicate(`node "${row.key}" is already ${row.status}`));
  return step.result(
    rejected("conflict", `node "${row.key}" is ${row.status}; a "${event.status}" callback does not apply${row.status === "failed" ? " (retry the node first)" : ""}`),
  );
}

const MAX_RETRY_BACKOFF_MS = 3_600_000;

/** A Worker that failed an attempt and waits for its next one stays `running`, with the failure as its error. */
const betweenAttempts = (row: NodeRow) => row.status === "running" && row.error !== null;

/**
 * A Worker's attempt failed. With attempts left in its `data.retry` budget it stays running, says why and when the
 * next attempt comes, and a timer fires that attempt (no collector hears of a failure that may yet be retried);
 * otherwise it fails, with how many attempts it had.
 */
function failOrRetry(step: Step, ref: InstanceRef, row: NodeRow, error: string, retryable = true): void {
  step.effects.push({ type: "cancel_dispatches", key: row.key });
  const policy = retryable ? ref.node.spec.retry : undefined;
  const used = row.attempt - row.retryFrom + 1;
  if (policy && used < policy.maxAttempts) {
    const afterMs = Math.min(policy.backoffMs * 2 ** (used - 1), MAX_RETRY_BACKOFF_MS);
    step.put({ ...row, error: `attempt ${row.attempt} failed: ${error}; attempt ${row.attempt + 1} of ${row.retryFrom + policy.maxAttempts - 1} in ${afterMs} ms` });
    step.effects.push({ type: "schedule_retry", key: row.key, attempt: row.attempt, afterMs });
    return;
  }
  const tries = policy && used > 1 ? ` (after ${used} attempts)` : "";
  step.put({ ...row, status: "failed", error: `${error}${tries}` });
}

function onComplete(step: Step, ref: InstanceRef, row: NodeRow, output: unknown): StepResult {
  if (ref.node.type !== "UX") {
    return step.result(rejected("conflict", `node "${row.key}" is a ${ref.node.type} node; only UX nodes are completed by a person`));
  }
  if (isReviewGate(ref.node) || isApprovalGate(ref.node)) {
    return step.result(rejected("conflict", `node "${row.key}" is a ${isReviewGate(ref.node) ? "review" : "approval"} gate; approve or reject it instead`));
  }
  if (row.status === "completed") {
    // The same input again is a repeat (a double click, a client's retry); a different one would be silently dropped.
    if (sameJson(row.output, output)) return step.result(duplicate(`node "${row.key}" is already completed with this input`));
    return step.result(rejected("conflict", `node "${row.key}" was already completed with another input; a second, different input is not taken`));
  }
  if (row.status !== "waiting_for_user") {
    return step.result(rejected("conflict", `node "${row.key}" is ${row.status}, not waiting_for_user`));
  }
  step.put({ ...row, status: "completed", output });
  step.next.push({ type: "completed", key: row.key });
  return step.result(applied);
}

function onReview(step: Step, ref: InstanceRef, row: NodeRow, event: Extract<ExternalEvent, { type: "review" }>): StepResult {
  if (event.output !== undefined) {
    // A person's edited version of the output under review (graph.ts editedSourceOf says whose output that is).
    if (editedSourceOf(step.g, ref.node) === undefined) {
      return step.result(rejected("bad_request", `node "${row.key}" takes no edited output: only a review gate, or an approval gate after exactly one step, reviews one output a person can edit`));
    }
    if (isApprovalGate(ref.node) && event.decision !== "approve") return step.result(rejected("bad_request", "an approval gate takes an edited output with an approval only; a rejection sends feedback"));
  }
  if (isApprovalGate(ref.node)) return onApproval(step, ref, row, event);
  if (!isReviewGate(ref.node)) {
    return step.result(rejected("conflict", `node "${row.key}" is not a review gate (a UX node with data.gate "review")`));
  }
  if (row.status !== "waiting_for_user") {
    if (row.status === "completed" && event.decision === "approve") return step.result(duplicate(`node "${row.key}" is already approved`));
    return step.result(rejected("conflict", `node "${row.key}" is ${row.status}; there is no output waiting for review`));
  }
  if (event.decision === "approve") {
    // The reviewer's edited version, when she edited it, is what the nodes after the gate read; else the output she reviewed.
    step.put({ ...row, status: "completed", output: event.output !== undefined ? event.output : row.input });
    step.next.push({ type: "completed", key: row.key });
    return step.result(applied);
  }
  const feedback = event.feedback?.trim() ?? "";
  if (feedback.length === 0) return step.result(rejected("bad_request", "feedback must not be empty when rejecting"));
  const workerKey = keyInPath(step.g, step.g.upstream.get(ref.nodeId)![0]!, ref.vector);
  const worker = step.get(workerKey)!;
  const workerRef = parseKey(step.g, workerKey)!;
  step.put({ ...row, status: "pending" });
  // The Worker revises the version the reviewer commented on: her edit, when she edited its output before asking.
  const refired: NodeRow = {
    ...worker, status: "running", attempt: worker.attempt + 1, retryFrom: worker.attempt + 1, error: null, feedback: reviewFeedback(feedback, row.attempt, event.comments),
    ...(event.output !== undefined ? { output: event.output } : {}),
  };
  step.put(refired);
  step.dispatch(workerRef, refired);
  return step.result(applied);
}

/** The feedback a re-run Worker owes an answer to: the reviewer's text and, when she commented on parts, those comments. */
function reviewFeedback(text: string, round: number, comments: ReviewedPartComment[] | undefined): NonNullable<NodeRow["feedback"]> {
  return comments?.length ? { text, round, comments } : { text, round };
}

/**
 * An approval gate's decision. Approve completes it (its output: the comment when `data.captureResponse`, else "").
 * Reject runs the gate's follow-up work when it has an executor (the gate is `running` until that work answers, then
 * waits again); a gate without one cannot be rejected here: its front door decides what a rejection does.
 */
function onApproval(step: Step, ref: InstanceRef, row: NodeRow, event: Extract<ExternalEvent, { type: "review" }>): StepResult {
  if (row.status !== "waiting_for_user") {
    if (row.status === "completed" && event.decision === "approve") return step.result(duplicate(`node "${row.key}" is already approved`));
    return step.result(rejected("conflict", `node "${row.key}" is ${row.status}; it is not waiting for approval`));
  }
  if (event.decision === "approve") {
    if (event.output !== undefined) {
      // The reviewer edited what the gate shows, the output of the one step before it: the nodes after the gate read
      // that step's output, so the edit replaces it (the original stays in the run's event log and the decision's record).
      const sourceKey = keyInPath(step.g, editedSourceOf(step.g, ref.node)!, ref.vector);
      const source = step.get(sourceKey);
      if (source?.status !== "completed") return step.result(rejected("conflict", `node "${sourceKey}" is ${source?.status ?? "absent"}; only a completed step's output can be replaced by an edit`));
      step.put({ ...source, output: event.output });
    }
    step.put({ ...row, status: "completed", output: ref.node.spec.captureResponse ? (event.feedback ?? "") : "", error: null, feedback: null });
    step.next.push({ type: "completed", key: row.key });
    return step.result(applied);
  }
  if (!ref.node.spec.executor) return step.result(rejected("conflict", `node "${row.key}" has no work to run on a rejection`));
  const refired: NodeRow = { ...row, status: "running", attempt: row.attempt + 1, error: null, feedback: reviewFeedback(event.feedback?.trim() ?? "", row.attempt, event.comments) };
  step.put(refired);
  step.dispatch(ref, refired);
  return step.result(applied);
}

/** The work a rejected approval gate ran has answered: the gate waits for a decision again (or fails with the work). */
function onRejectionHandled(step: Step, row: NodeRow, event: Extract<ExternalEvent, { type: "callback" }>): StepResult {
  if (event.attempt !== undefined && event.attempt !== row.attempt) return step.result(duplicate(`callback for attempt ${event.attempt}, but node "${row.key}" is on attempt ${row.attempt}`));
  step.effects.push({ type: "cancel_dispatches", key: row.key });
  if (event.status === "completed") step.put({ ...row, status: "waiting_for_user", error: null });
  else step.put({ ...row, status: "failed", error: event.error?.trim() || "the rejection's follow-up failed without an error message" });
  return step.result(applied);
}

/** A loop iteration ended without the completion signal: the next one fires, or an interactive loop waits for the user. */
function onIterate(step: Step, ref: InstanceRef, row: NodeRow, event: Extract<ExternalEvent, { type: "iterate" }>): StepResult {
  const { loop } = ref.node.spec;
  if (!loop) return step.result(rejected("conflict", `node "${row.key}" is not a loop`));
  if (row.status !== "running" || row.attempt !== event.attempt || betweenAttempts(row)) return step.result(duplicate("the node has moved on"));
  step.effects.push({ type: "cancel_dispatches", key: row.key });
  if (loop.interactive) {
    step.put({ ...row, status: "waiting_for_user", output: event.output, feedback: null });
    return step.result(applied);
  }
  const next: NodeRow = { ...row, attempt: row.attempt + 1, output: event.output, feedback: null };
  step.put(next);
  step.dispatch(ref, next);
  return step.result(applied);
}

/** A person's reply to an interactive loop between iterations: the next iteration fires with it. */
function onInput(step: Step, ref: InstanceRef, row: NodeRow, text: string): StepResult {
  if (!ref.node.spec.loop?.interactive) return step.result(rejected("conflict", `node "${row.key}" is not an interactive loop`));
  if (row.status !== "waiting_for_user") return step.result(rejected("conflict", `node "${row.key}" is ${row.status}; it is not waiting for input`));
  const next: NodeRow = { ...row, status: "running", attempt: row.attempt + 1, error: null, feedback: { text, round: row.attempt } };
  step.put(next);
  step.dispatch(ref, next);
  return step.result(applied);
}

/**
 * The run goes on from where it stopped: failed and cancelled nodes return to pending, with the skipped nodes after
 * them (skipped because of them, or to be decided again once they settle), and completed nodes marked
 * `data.alwaysRun`; each fires again as soon as its dependencies allow. A node skipped for a reason of its own
 * (its condition was false) stays skipped, and completed nodes keep their outputs: nothing else runs twice.
 */
function onResume(step: Step, rows: ReadonlyMap<string, NodeRow>): StepResult {
  const again: string[] = [];
  const stopped = [...rows.values()].filter((row) => row.status === "failed" || row.status === "cancelled");
  const behindStopped = new Set<string>();
  for (const row of stopped) {
    const ref = parseKey(step.g, row.key);
    if (ref) for (const key of ruledDescendants(step.g, ref.nodeId)) behindStopped.add(key);
  }
  for (const row of rows.values()) {
    const ref = parseKey(step.g, row.key);
    if (!ref || ref.template) continue;
    const rerun =
      row.status === "failed" || row.status === "cancelled" || (row.status === "skipped" && behindStopped.has(row.key)) ||
      (row.status === "completed" && ref.node.spec.alwaysRun);
    if (!rerun) continue;
    step.put({ ...row, status: "pending", error: null, feedback: null });
    again.push(row.key);
  }
  if (again.length === 0) return step.result(rejected("conflict", "the run has nothing to resume: no node failed, was cancelled or skipped"));
  for (const key of again) step.next.push({ type: "fire", key });
  return step.result(applied);
}

/**
 * A Worker starts over from its input: a new attempt, so a late answer to the running one is refused. Every node
 * after it must still be waiting or not yet run; those waiting (a review gate holding its output) return to pending.
 */
function onRestart(step: Step, rows: ReadonlyMap<string, NodeRow>, key: string): StepResult {
  const ref = parseKey(step.g, key);
  const row = rows.get(key);
  if (!ref || !row) return step.result(rejected("not_found", `run ${step.ctx.runId} has no node "${key}"`));
  if (ref.node.type !== "Worker" || ref.vector.length > 0 || ref.template) return step.result(rejected("bad_request", `node "${key}" is not a Worker outside any splitter path; only those restart`));
  if (row.status !== "running" && row.status !== "failed" && row.status !== "completed") {
    return step.result(rejected("conflict", `node "${key}" is ${row.status}; only a running, failed or completed Worker restarts`));
  }
  const after = new Set<string>();
  const visit = (id: string) => {
    for (const next of step.g.downstream.get(id)!) if (!after.has(next)) (after.add(next), visit(next));
  };
  visit(ref.nodeId);
  for (const descendant of [...rows.values()].filter((r) => after.has(parseKey(step.g, r.key)?.nodeId ?? ""))) {
    if (descendant.status === "pending") continue;
    if (descendant.status !== "waiting_for_user") return step.result(rejected("conflict", `node "${descendant.key}" after "${key}" is ${descendant.status}; the run has moved past it`));
    step.put({ ...descendant, status: "pending", error: null, feedback: null });
  }
  if (row.status === "running") step.effects.push({ type: "cancel_dispatches", key: row.key });
  step.put({ ...row, status: "pending", error: null, feedback: null });
  step.next.push({ type: "fire", key: row.key });
  return step.result(applied);
}

/**
 * A failed node fires again. For a node that fires by trigger rule, the nodes after it that were skipped return to
 * pending, so they are decided again once it settles (a skip that had another cause is made again, with its reason).
 */
function onRetry(step: Step, ref: InstanceRef, row: NodeRow): StepResult {
  if (row.status !== "failed") {
    return step.result(rejected("bad_request", `node "${row.key}" is ${row.status}; only failed nodes can be retried`));
  }
  if (ref.node.spec.triggerRule) {
    for (const key of ruledDescendants(step.g, ref.nodeId)) {
      const descendant = step.get(key);
      if (descendant?.status === "skipped") step.put({ ...descendant, status: "pending", error: null });
    }
  }
  step.put({ ...row, status: "pending", error: null });
  step.next.push({ type: "fire", key: row.key });
  return step.result(applied);
}

function onFire(step: Step, ref: InstanceRef, row: NodeRow): StepResult {
  if (row.status !== "pending") return step.result(duplicate(`node "${row.key}" is ${row.status}`));
  if (ref.node.type === "Collector") {
    collectIfReady(step, row);
    return step.result(applied);
  }
  const rule = ref.node.spec.triggerRule;
  const ready = rule ? step.readinessByRule(ref, rule) : step.inputOf(ref);
  if (!ready) return step.result(applied);
  if ("skip" in ready) {
    step.put({ ...row, status: "skipped", error: ready.skip });
    return step.result(applied);
  }
  fireWith(step, ref, row, ready.input);
  return step.result(applied);
}

/**
 * A fork's first event, on the rows forkPlan seeded: the chosen node fires, with the edited input when there is one
 * (else as any node fires, from the nodes before it), and so do the other rows the plan started afresh.
 */
function onFork(step: Step, event: Extract<ExternalEvent, { type: "fork" }>): StepResult {
  const ref = parseKey(step.g, event.key);
  const row = step.get(event.key);
  if (!ref || !row) return step.result(rejected("not_found", `the fork has no node "${event.key}"`));
  if (event.input !== undefined && row.status === "pending" && ref.node.type !== "Collector") fireWith(step, ref, row, event.input);
  else step.next.push({ type: "fire", key: event.key });
  for (const key of event.fire) if (key !== event.key) step.next.push({ type: "fire", key });
  return step.result(applied);
}

/** A pending node fires with `input`: a Worker is called, a UX node waits (or its precheck runs), a Splitter splits. */
function fireWith(step: Step, ref: InstanceRef, row: NodeRow, input: unknown): void {
  switch (ref.node.type) {
    case "Worker": {
      const fired: NodeRow = { ...row, status: "running", input, attempt: row.attempt + 1, error: null, retryFrom: row.attempt + 1 };
      step.put(fired);
      step.dispatch(ref, fired);
      break;
    }
    case "UX":
      if (ref.node.spec.precheck) {
        // An approval gate with an executor (compileGraph allows a precheck nowhere else): its front door decides first
        // whether the gate waits at all (a condition): the executor answers with a `skip`, or with a callback after
        // which the gate waits for the decision (as after a rejection's work).
        const fired: NodeRow = { ...row, status: "running", input, attempt: row.attempt + 1, error: null, feedback: null };
        step.put(fired);
        step.dispatch(ref, fired);
        break;
      }
      step.put({ ...row, status: "waiting_for_user", input, attempt: row.attempt + 1, error: null });
      break;
    case "Splitter": {
      const path = ref.node.spec.arrayPath!;
      const items = readPath(input, path);
      if (!Array.isArray(items)) {
        step.put({ ...row, status: "failed", input, attempt: row.attempt + 1, error: `Splitter "${ref.nodeId}" expected an array at "${path}" of its input, found ${describe(items)}` });
      } else {
        step.put({ ...row, status: "completed", input, output: items, attempt: row.attempt + 1, error: null });
        step.next.push({ type: "completed", key: row.key });
      }
      break;
    }
    case "Collector":
      break;
  }
}

function onCompleted(step: Step, ref: InstanceRef, row: NodeRow): StepResult {
  const { g } = step;
  if (ref.node.type === "Splitter") {
    const items = row.output as unknown[];
    for (const inside of g.insideOf.get(ref.nodeId)!) {
      const template = step.get(inside);
      if (template?.status === "pending") step.put({ ...template, status: items.length > 0 ? "split" : "skipped" });
    }
    const collector = g.collectorOf.get(ref.nodeId);
    if (collector) {
      const collectorRow = step.get(instanceKey(collector, ref.vector))!;
      const feeders = g.upstream.get(collector)!;
      const direct = feeders.includes(ref.nodeId) ? items.length : 0;
      const counted = { ...collectorRow, pathTotal: items.length * feeders.length, pathDone: direct, pathFailed: 0 };
      step.put(counted);
      collectIfReady(step, counted);
    }
    for (const member of g.members.get(ref.nodeId)!) {
      for (let k = 0; k < items.length; k++) step.put(newRow(instanceKey(member, [...ref.vector, k])));
    }
    for (const target of g.downstream.get(ref.nodeId)!) {
      if (target === collector) continue;
      for (let k = 0; k < items.length; k++) step.next.push({ type: "fire", key: instanceKey(target, [...ref.vector, k]) });
    }
    return step.result(applied);
  }
  for (const target of g.downstream.get(ref.nodeId)!) {
    if (closesScopeOf(g, target, ref.nodeId)) {
      const collectorRow = step.get(instanceKey(target, ref.vector.slice(0, -1)))!;
      const counted = { ...collectorRow, pathDone: collectorRow.pathDone + 1 };
      step.put(counted);
      collectIfReady(step, counted);
    } else {
      step.next.push({ type: "fire", key: instanceKey(target, ref.vector) });
    }
  }
  return step.result(applied);
}

/** A collector runs once every feeder of every path has completed and none has failed. */
function collectIfReady(step: Step, collector: NodeRow): void {
  if (collector.status !== "pending" || collector.pathTotal === null) return;
  if (collector.pathDone < collector.pathTotal || collector.pathFailed > 0) return;
  const ref = parseKey(step.g, collector.key)!;
  const feeders = step.g.upstream.get(ref.nodeId)!.length;
  step.next.push({ type: "collect", key: collector.key, paths: feeders === 0 ? 0 : collector.pathTotal / feeders });
}

function onCollect(step: Step, ref: InstanceRef, row: NodeRow, paths: number): StepResult {
  if (row.status !== "pending") return step.result(duplicate(`collector "${row.key}" is ${row.status}`));
  const { g } = step;
  const feeders = g.upstream.get(ref.nodeId)!;
  const output: unknown[] = new Array(paths);
  for (let k = 0; k < paths; k++) {
    output[k] = mergeInputs(
      feeders.map((feeder) => {
        if (g.nodes.get(feeder)!.type === "Splitter") {
          return { from: feeder, value: (step.get(instanceKey(feeder, ref.vector))!.output as unknown[])[k] };
        }
        return { from: feeder, value: step.get(instanceKey(feeder, [...ref.vector, k]))!.output };
      }),
    );
  }
  step.put({ ...row, status: "completed", output, attempt: row.attempt + 1, error: null });
  step.next.push({ type: "completed", key: row.key });
  return step.result(applied);
}

// ---- Run-level bookkeeping ------------------------------------------------------------------------

export interface RunCounts {
  running: number;
  waiting: number;
  failed: number;
}

/** The run's status after an event: derived from its counters, except that a cancelled run stays cancelled until it is resumed. */
export function runStatusAfter(previous: RunStatus, event: EngineEvent, counts: RunCounts): RunStatus {
  if (event.type === "resume") return runStatusOf(counts);
  if (previous === "cancelled" || event.type === "cancel") return "cancelled";
  return runStatusOf(counts);
}

/** How a row's status change moves the run's counters; the run's status is derived from them alone. */
export function countDelta(before: NodeStatus | undefined, after: NodeStatus): RunCounts {
  const d = { running: 0, waiting: 0, failed: 0 };
  const bump = (s: NodeStatus | undefined, by: number) => {
    if (s === "running") d.running += by;
    else if (s === "waiting_for_user") d.waiting += by;
    else if (s === "failed") d.failed += by;
  };
  bump(before, -1);
  bump(after, 1);
  return d;
}

/** The run's counters after rows changed, each from the status it had (undefined: a new row) to its row after. */
export function countsAfter(counts: RunCounts, changes: Iterable<{ before: NodeStatus | undefined; after: { status: NodeStatus } }>): RunCounts {
  const next = { ...counts };
  for (const { before, after } of changes) {
    const d = countDelta(before, after.status);
    next.running += d.running;
    next.waiting += d.waiting;
    next.failed += d.failed;
  }
  return next;
}

export function runStatusOf(c: RunCounts): RunStatus {
  if (c.running > 0) return "running";
  if (c.waiting > 0) return "waiting_for_user";
  if (c.failed > 0) return "failed";
  return "completed";
}
