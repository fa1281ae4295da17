/** The YAML workflows' read models: registered workflows, runs with their nodes, and a run as a conversation. */
import type { Database } from "../../../db/client";
import type { Engine } from "../../engine/engine";
import type { NodeRow } from "../../engine/transition";
import { rejectionOutcome } from "./definition";
import { yamlDefinition, yamlRun } from "./errors";
import { substitute } from "./references";
import type { NodeRunView, RegisteredWorkflow, WorkflowConversation, WorkflowRunExport, WorkflowDetail, WorkflowRunSummary, WorkflowRunView, WorkflowTurn } from "./schemas";
import * as store from "../store";
import { isPlainObject } from "../../lib/json";

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const text = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value));
const asRecord = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** How many times a run is read while transitions keep changing its status under the read (see `read`). */
const MAX_READS = 5;

/** Turns whose kind ends a node's attempt: when they were written is when the node finished. */
const FINISHING = new Set(["output", "failed", "skipped", "approved"]);

export class WorkflowQueries {
  constructor(
    private readonly database: Database,
    private readonly engine: Engine,
  ) {}

  registered(row: store.YamlDefinitionRow): RegisteredWorkflow {
    const { definition } = row;
    return {
      name: row.name, version: row.version, format: row.format, description: definition.description, tags: definition.tags ?? [],
      nodes: definition.nodes.map((n) => ({ id: n.id, kind: n.kind, depends_on: n.depends_on, trigger_rule: n.trigger_rule, output_type: n.output_type ?? null })),
      warnings: row.warnings, created_at: iso(row.createdAt),
    };
  }

  /** The latest version of every YAML workflow, newest registration first. */
  async listWorkflows(): Promise<RegisteredWorkflow[]> {
    const rows = await this.database.run((db) => store.listLatestDefinitions(db, "yaml"));
    return rows.map((row) => this.registered(yamlDefinition(row, row.name)));
  }

  /** The latest version, with its text and the list of its versions. */
  async getWorkflow(name: string): Promise<WorkflowDetail> {
    const row = yamlDefinition(await this.database.run((db) => store.latestDefinition(db, name)), name);
    const versions = await this.database.run((db) => store.listVersions(db, name));
    return { ...this.registered(row), source: row.source, definition: row.definition, versions: versions.map((v) => ({ version: v.version, created_at: iso(v.createdAt) })) };
  }

  /** The newest runs (100 unless told), of one workflow or of all. */
  async listRuns(options: { workflow?: string; limit?: number } = {}): Promise<WorkflowRunSummary[]> {
    const limit = Math.min(options.limit ?? 100, 500);
    return (await this.database.run((db) => store.listRuns(db, { workflow: options.workflow, format: "yaml", limit }))).map((run) => runSummary(run.item));
  }

  async getRun(runId: string): Promise<WorkflowRunView> {
    return (await this.read(runId)).view;
  }

  /** What the run produced, with each output under its node's `output_type` label. */
  async export(runId: string, now: Date = new Date()): Promise<WorkflowRunExport> {
    const { view, definition } = await this.read(runId);
    const outputs = definition.nodes
      .map((node) => ({ node, state: view.nodes[node.id]! }))
      .filter(({ state }) => state.status === "completed" && state.output !== null)
      .map(({ node, state }) => ({ node_id: node.id, kind: node.kind, output_type: node.output_type ?? null, responder: state.responder, output: state.output! }));
    const byOutputType: WorkflowRunExport["by_output_type"] = {};
    for (const o of outputs) if (o.output_type) (byOutputType[o.output_type] ??= []).push({ node_id: o.node_id, output: o.output });
    return {
      run_id: view.id, workflow: view.workflow, version: view.version, status: view.status, message: view.message, exported_at: now.toISOString(),
      outputs, by_output_type: byOutputType,
    };
  }

  /** The run as a conversation: its message, then each node's turns in order, and the outcome. */
  async conversation(runId: string): Promise<WorkflowConversation> {
    const { view, turns, definition, rows } = await this.read(runId);
    const kindOf = new Map(definition.nodes.map((n) => [n.id, n.kind]));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const outputOf = (id: string) => {
      const r = byKey.get(id);
      return r ? { status: r.status, output: text(r.output) ?? "" } : undefined;
    };
    const out: WorkflowTurn[] = [];
    // Who answered, per node, until that node's output: nodes running at once write their turns interleaved.
    const responders = new Map<string | null, Record<string, unknown>>();
    for (const turn of turns) {
      const payload = asRecord(turn.payload);
      if (turn.kind === "responder") {
        responders.set(turn.nodeId, payload);
        continue;
      }
      const nodeKind = turn.nodeId ? (kindOf.get(turn.nodeId) ?? null) : null;
      const base = { id: `t${turn.id}`, at: iso(turn.createdAt), node_id: turn.nodeId, node_kind: nodeKind, actor: turn.actor };
      switch (turn.kind) {
        case "message":
          out.push({ ...base, kind: "message", text: String(payload.text ?? ""), data: payload.inputs ? { inputs: payload.inputs } : null });
          break;
        case "output":
        case "iteration":
        case "followup": {
          const data = { ...(turn.kind === "output" ? (responders.get(turn.nodeId) ?? {}) : {}), ...payload };
          const node = definition.nodes.find((n) => n.id === turn.nodeId);
          if (node?.output_type) data.output_type = node.output_type;
          out.push({ ...base, kind: turn.kind === "followup" ? "output" : (turn.kind as "output" | "iteration"), text: text(payload.output) ?? "", data });
          responders.delete(turn.nodeId);
          break;
        }
        case "waiting": {
          const node = definition.nodes.find((n) => n.id === turn.nodeId);
          let message: string | null = null;
          if (node?.kind === "loop") message = node.loop.gate_message ?? null;
          if (node?.kind !== "approval") {
            out.push({ ...base, kind: "waiting", text: message, data: payload });
            break;
          }
          message = safeSubstitute(node.approval.message, view, outputOf);
          // What "Request changes" does at this wait, by the rule `reject` applies: the turns written before it.
          out.push({ ...base, kind: "waiting", text: message, data: payload, on_reject: rejectionOutcome(node, turns.filter((t) => t.id < turn.id)) });
          break;
        }
        case "skipped":
          out.push({ ...base, kind: "skipped", text: String(payload.reason ?? ""), data: null });
          break;
        case "failed":
          out.push({ ...base, kind: "failed", text: String(payload.error ?? ""), data: payload });
          break;
        case "approved":
          out.push({ ...base, kind: "approved", text: String(payload.comment ?? ""), data: payload.edited === true ? { edited: true } : null });
          break;
        case "rejected":
          out.push({ ...base, kind: "rejected", text: String(payload.reason ?? ""), data: payload });
          break;
        case "input":
          out.push({ ...base, kind: "input", text: String(payload.text ?? ""), data: null });
          break;
        case "cancelled":
          out.push({ ...base, kind: "cancelled", text: typeof payload.reason === "string" ? payload.reason : null, data: null });
          break;
        case "started":
        case "retried":
        case "resumed":
        case "outcome":
          out.push({ ...base, kind: turn.kind, text: turn.kind === "outcome" ? String(payload.status ?? "") : null, data: payload });
          break;
        case "forked":
          // The fork's first turn: the run it came from (data.from_run_id) and the nodes it copied from it (data.copied).
          out.push({ ...base, kind: "forked", text: null, data: payload });
          break;
      }
    }
    return { run: view, turns: out };
  }

  /**
   * The run's row, its nodes' rows and its turns are separate reads. The run is read again after the others: when its
   * status changed in between (a transition committed), they are read again, so the status shown is the one the
   * nodes were read under, never `running` beside nodes that all wait for a person.
   */
  private async read(runId: string) {
    const findRun = async () => yamlRun(await this.database.run((db) => store.findRun(db, runId)), runId);
    let run = await findRun();
    const { definition } = yamlDefinition(await this.database.run((db) => store.definitionById(db, run.definitionId)), run.workflow);
    let rows: NodeRow[];
    let turns: store.TurnRow[];
    for (let reads = 1; ; reads++) {
      [rows, turns] = await Promise.all([this.engine.nodeRows(runId), this.database.run((db) => store.listTurns(db, runId))]);
      const again = await findRun();
      const unchanged = again.status === run.status && iso(again.updatedAt) === iso(run.updatedAt);
      run = again;
      if (unchanged || reads === MAX_READS) break;
    }
    const nodes: Record<string, NodeRunView> = {};
    for (const node of definition.nodes) {
      const row = rows.find((r) => r.key === node.id);
      nodes[node.id] = nodeView(node.kind, node.output_type ?? null, row, turns.filter((t) => t.nodeId === node.id));
    }
    const lineage = await this.engine.lineage(runId);
    return { view: { ...runSummary(run), ...lineage, nodes }, turns, definition, rows };
  }
}

/** A run as the lists show it (without its nodes). */
export function runSummary(run: store.RunRow): WorkflowRunSummary {
  return {
    id: run.id, workflow: run.workflow, version: run.version, status: run.status, cancel_reason: run.cancelReason,
    message: run.message, started_by: run.startedBy, created_at: iso(run.createdAt), updated_at: iso(run.updatedAt),
  };
}

function nodeView(kind: string, outputType: string | null, row: NodeRow | undefined, turns: store.TurnRow[]): NodeRunView {
  const status = (row?.status ?? "pending") as NodeRunView["status"];
  const started = turns.filter((t) => t.kind === "started").at(-1);
  const finished = turns.filter((t) => FINISHING.has(t.kind)).at(-1);
  const responder = turns.filter((t) => t.kind === "responder" || t.kind === "iteration").at(-1);
  const settled = status === "completed" || status === "failed" || status === "skipped" || status === "cancelled";
  return {
    status,
    kind,
    output: row && row.status !== "pending" ? text(row.output) : null,
    error: status === "skipped" ? null : (row?.error ?? null),
    skip_reason: status === "skipped" ? (row?.error ?? null) : null,
    attempts: row?.attempt ?? 0,
    output_type: outputType,
    responder: responder ? (text(asRecord(responder.payload).responder) ?? null) : null,
    started_at: started ? iso(started.createdAt) : null,
    completed_at: settled && finished ? iso(finished.createdAt) : null,
  };
}

/** An approval's message with its references filled in; a reference that cannot be read shows as written. */
function safeSubstitute(message: string, view: WorkflowRunView, outputOf: (id: string) => { status: string; output: string } | undefined): string {
  try {
    return substitute(message, { runMessage: view.message, runId: view.id, outputOf }, { unresolvable: "empty" });
  } catch {
    return message;
  }
}
