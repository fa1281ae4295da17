/**
 * The plain flows' read model: a run told as a conversation, like the pipeline's and the workflows' runs. A plain
 * flow keeps no turns of its own; the engine's event log is its history, and replaying it (`Engine.history`) says
 * what each event did: which nodes it started, completed, failed or made wait. REST and tRPC both read through here.
 */
import { type Engine, EngineError, type HistoryStep, type RunHistory } from "../engine/engine";
import { type CompiledGraph, keyInPath, parseKey } from "../engine/graph";
import type { RunOwner } from "../engine/schemas";
import type { NodeRow } from "../engine/transition";
import { type ConversationMarkers, type RunChanges, canStillChange, isBusy } from "../engine/runChanges";
import { withForksInto } from "../forks/turns";
import { OWNER_NAMES } from "./commands";
import type { TurnNode } from "../conversation/turn";
import type { FlowConversation, FlowGate, FlowTurn } from "./schemas";

type NodeFacts = FlowConversation["nodes"][string];

/** A node's name as people read it: its `data.label`, or its id; a splitter path's instance says which path. */
function describeNode(g: CompiledGraph, key: string): Omit<NodeFacts, "status" | "input"> {
  const ref = parseKey(g, key);
  if (!ref) return { node_type: "Worker", label: key, gate: null };
  const label = typeof ref.node.data.label === "string" && ref.node.data.label.trim() ? ref.node.data.label.trim() : ref.nodeId;
  const gate: FlowGate | null = ref.node.type !== "UX" ? null : ref.node.spec.gate === "review" ? "review" : ref.node.spec.gate === "approval" ? "approval" : "completion";
  return { node_type: ref.node.type, label: ref.vector.length > 0 && !ref.template ? `${label} (path ${ref.vector.join(".")})` : label, gate };
}

/** A run another front door owns is told by that door: its conversation (and what changed in it) is not the plain flows'. */
function ownedElsewhere(runId: string, owner: RunOwner): EngineError {
  return new EngineError("conflict", `run ${runId} belongs to ${OWNER_NAMES[owner.front_door]} (${owner.run_id}); its conversation is that front door's, not the plain flows'`);
}

export class FlowQueries {
  constructor(
    private readonly engine: Engine,
    private readonly markers: ConversationMarkers,
  ) {}

  /** The run as a conversation. A run another front door owns is told by that door (409 naming it). */
  async conversation(runId: string): Promise<FlowConversation> {
    const history = await this.engine.history(runId);
    const { run } = history;
    if (run.owner) throw ownedElsewhere(run.id, run.owner);
    const inputs = new Map<string, unknown>();
    for (const step of history.steps) for (const { key, after } of step.changes) inputs.set(key, after.input);
    const nodes: FlowConversation["nodes"] = {};
    for (const [key, state] of Object.entries(run.node_states)) nodes[key] = { ...describeNode(history.graph, key), status: state.status, input: inputs.get(key) ?? null };
    return {
      run: {
        id: run.id, flow_id: run.flow_id, flow_name: history.flowName, flow_version: run.flow_version, status: run.status, started_by: history.startedBy,
        forked_from: run.forked_from, forks: run.forks, created_at: run.created_at, updated_at: run.updated_at,
      },
      nodes,
      turns: forksInto(history, turnsOf(history)),
    };
  }

  /**
   * The one cheap read an open conversation polls: the engine run's marker (every accepted event moves it), with its
   * decisions' and comments' markers, so the conversation is read again only when one moves.
   */
  async changes(runId: string): Promise<RunChanges> {
    const own = await this.engine.changeMarker(runId);
    if (own.owner) throw ownedElsewhere(runId, own.owner);
    return this.markers.changes(runId, { engineRunId: runId, marker: own.marker, active: canStillChange(own.status), busy: isBusy(own.status) });
  }
}

/** The node a turn is about, as the conversation names it. */
function turnNode(g: CompiledGraph, key: string): TurnNode {
  const node = describeNode(g, key);
  return { id: key, label: node.label, type: node.node_type };
}

/** An attempt the engine counted: a node that failed before it ever ran (a Collector failing with its path) has none. */
const counted = (attempt: number) => (attempt > 0 ? attempt : null);

/** The run's forks, each a turn at the time it was made, among the run's own turns ("Forked at Draft by Rita Ramos into ..."). */
function forksInto(history: RunHistory, turns: FlowTurn[]): FlowTurn[] {
  return withForksInto(turns, history.run.forks, (fork) => ({
    id: `fork-${fork.run_id}`, at: fork.at, kind: "system", who: fork.by?.name ?? null, node: turnNode(history.graph, fork.node_id), attempt: null,
    body: { event: "forked_into", fork_run_id: fork.run_id },
  }));
}

/** A fork's first event: where it came from, then the nodes it copied (as the parent had them), then what it started. */
function forkTurns(history: RunHistory, step: HistoryStep, event: Extract<HistoryStep["event"], { type: "fork" }>, base: TurnBase): FlowTurn[] {
  const chosen = event.rows.find((row) => row.key === event.key);
  const turns: FlowTurn[] = [{
    ...base(), kind: "system", who: step.actor, node: turnNode(history.graph, event.key), attempt: null,
    body: { event: "forked", from_run_id: event.from.run_id, value: event.input ?? null, feedback: chosen?.feedback?.text ?? null, decided: event.decided ?? {} },
  }];
  const copied = new Set(event.rows.filter((row) => row.status !== "pending").map((row) => row.key));
  for (const change of step.changes) {
    if (copied.has(change.key) && change.after.status !== "split") {
      turns.push({
        ...base(), kind: "system", who: null, node: turnNode(history.graph, change.key), attempt: null,
        body: { event: "copied", status: change.after.status, output: change.after.output ?? null, from_run_id: event.from.run_id, decided: event.decided?.[change.key] ?? null },
      });
    } else if (!copied.has(change.key)) turns.push(...changeTurns(history.graph, change, base));
  }
  return turns;
}

/** The turns of every replayed event, in order: the event's own (a decision, a retry, a cancellation), then what it caused. */
function turnsOf(history: RunHistory): FlowTurn[] {
  const turns: FlowTurn[] = [];
  let status: FlowConversation["run"]["status"] = "running";
  for (const step of history.steps) {
    let n = 0;
    const base = () => ({ id: `e${step.id}-${n++}`, at: step.at });
    if (step.event.type === "fork") turns.push(...forkTurns(history, step, step.event, base));
    else turns.push(...eventTurns(history, step, base));
    if (step.event.type !== "cancel" && step.event.type !== "fork") for (const change of step.changes) turns.push(...changeTurns(history.graph, change, base));
    // A cancellation's outcome is its event's own turn (by whom, why): told once, there.
    if (step.runStatus !== status && (step.runStatus === "completed" || step.runStatus === "failed")) {
      turns.push({ ...base(), kind: "outcome", who: null, node: null, attempt: null, body: { status: step.runStatus, reason: null } });
    }
    status = step.runStatus;
  }
  return turns;
}

type TurnBase = () => { id: string; at: string };

/** What the event itself says: the run's input, a person's decision, a retry, a cancellation or a resumption. */
function eventTurns(history: RunHistory, step: HistoryStep, base: TurnBase): FlowTurn[] {
  const { event, actor } = step;
  switch (event.type) {
    case "start":
      return [{ ...base(), kind: "input", who: history.startedBy?.name ?? null, node: null, attempt: null, body: { value: history.run.input } }];
    case "complete":
    case "review": {
      const gate = describeNode(history.graph, event.key).gate ?? "completion";
      const decision = event.type === "complete" ? "complete" : event.decision === "approve" ? "approve" : "request_changes";
      const text = event.type === "review" && event.decision === "reject" ? (event.feedback?.trim() ?? null) : null;
      return [{ ...base(), kind: "decided", who: actor, node: turnNode(history.graph, event.key), attempt: null, body: { gate, decision, text, value: event.type === "complete" ? event.output : null } }];
    }
    case "retry":
      return [{ ...base(), kind: "system", who: actor, node: turnNode(history.graph, event.key), attempt: null, body: { event: "retried" } }];
    case "cancel":
      return [{ ...base(), kind: "outcome", who: actor, node: null, attempt: null, body: { status: "cancelled", reason: event.reason?.trim() || null } }];
    case "resume":
      return [{ ...base(), kind: "system", who: actor, node: null, attempt: null, body: { event: "resumed" } }];
    default:
      return [];
  }
}

/** What one node's change says: it started (again), answered, failed (for good, or before another attempt), waits for a person, or was skipped. */
function changeTurns(g: CompiledGraph, { key, before, after }: HistoryStep["changes"][number], base: TurnBase): FlowTurn[] {
  const gate = describeNode(g, key).gate;
  const node = turnNode(g, key);
  const of = { who: null, node };
  const attempt = counted(after.attempt);
  const entered = (status: NodeRow["status"]) => after.status === status && before?.status !== status;
  const turns: FlowTurn[] = [];
  if (after.status === "running" && (before?.status !== "running" || after.attempt > before.attempt)) {
    const feedback = after.feedback?.text ?? null;
    turns.push({ ...base(), kind: "started", ...of, attempt, body: { revising: feedback !== null, feedback } });
  } else if (after.status === "running" && after.error !== null && after.error !== before?.error) {
    turns.push({ ...base(), kind: "failed", ...of, attempt, body: { error: after.error, retrying: true } });
  }
  if (entered("completed") && node.type === "Splitter") {
    turns.push({ ...base(), kind: "system", ...of, attempt: null, body: { event: "split", paths: Array.isArray(after.output) ? after.output.length : 0 } });
  } else if (entered("completed") && node.type !== "UX") {
    turns.push({ ...base(), kind: "output", ...of, attempt, body: { value: after.output ?? null } });
  }
  if (entered("failed")) turns.push({ ...base(), kind: "failed", ...of, attempt, body: { error: after.error ?? "no error was recorded", retrying: false } });
  if (entered("skipped")) turns.push({ ...base(), kind: "skipped", ...of, attempt: null, body: { reason: after.error ?? "its splitter's array was empty" } });
  if (entered("waiting_for_user") && gate) {
    const ref = parseKey(g, key);
    const upstream = gate === "review" && ref ? g.upstream.get(ref.nodeId)?.[0] : undefined;
    const reviewedKey = upstream !== undefined && ref ? keyInPath(g, upstream, ref.vector) : undefined;
    const prompt = ref && typeof ref.node.data.prompt === "string" && ref.node.data.prompt.trim() ? ref.node.data.prompt.trim() : null;
    turns.push({
      ...base(), kind: "waiting", ...of, attempt: null,
      body: {
        gate, prompt, value: after.input ?? null,
        reviewed: reviewedKey ? { node_id: reviewedKey, label: describeNode(g, reviewedKey).label, output: after.input ?? null } : null,
      },
    });
  }
  return turns;
}
