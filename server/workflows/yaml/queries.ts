/** The YAML workflows' read models: registered workflows, runs with their nodes, and a run as a conversation. */
import type { Database } from "../../../db/client";
import type { Engine } from "../../engine/engine";
import type { NodeRow } from "../../engine/transition";
import { conversationTurns } from "./conversation";
import { yamlDefinition, yamlRun } from "./errors";
import type { NodeRunView, RegisteredWorkflow, WorkflowConversation, WorkflowRunExport, WorkflowDetail, WorkflowRunSummary, WorkflowRunView } from "./schemas";
import * as store from "../store";
import { StoredPayload } from "./storedTurns";

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const text = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value));

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
    return { run: view, turns: conversationTurns(view, definition, turns, rows) };
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
    responder: responder ? ((responder.kind === "iteration" ? StoredPayload.iteration : StoredPayload.responder).parse(responder.payload).responder ?? null) : null,
    started_at: started ? iso(started.createdAt) : null,
    completed_at: settled && finished ? iso(finished.createdAt) : null,
  };
}
