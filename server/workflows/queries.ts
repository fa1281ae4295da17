/**
 * The workflows' door, reads: both formats on one surface. A workflow named, or a run, is answered by the front door
 * whose format it is (the stored definition's, the run's); the lists hold both formats, newest first. REST and tRPC
 * both read through here, so they cannot answer differently.
 */
import type { Database } from "../../db/client";
import { type Page, type PageParams, mapItem, pageOf, pageRequest } from "../lib/paging";
import { type ConversationMarkers, type RunChanges, canStillChange, isBusy } from "../engine/runChanges";
import type { AnyConversation, AnyRegisteredWorkflow, AnyWorkflowDetail, AnyWorkflowRun, AnyWorkflowRunSummary } from "./schemas";
import { stepRunSummary } from "./steps/queries";
import type { StepWorkflows } from "./steps/steps";
import * as store from "./store";
import { WorkflowError } from "./yaml/errors";
import { runSummary } from "./yaml/queries";
import type { YamlWorkflows } from "./yaml/workflows";

export class WorkflowDoorQueries {
  constructor(
    private readonly database: Database,
    private readonly yaml: YamlWorkflows,
    private readonly steps: StepWorkflows,
    private readonly markers: ConversationMarkers,
  ) {}

  /**
   * Which front door answers for the workflow `name`: the format it was registered in. A name no workflow has goes
   * to the YAML workflows, which answer that there is none.
   */
  async formatOfWorkflow(name: string): Promise<store.WorkflowFormat> {
    return (await this.database.run((db) => store.definitionFormat(db, name))) ?? "yaml";
  }

  /**
   * Which front door answers for the run: its format. An id no workflow run has (another front door's run, or none)
   * goes to the YAML workflows, which answer that there is no such workflow run.
   */
  async formatOfRun(runId: string): Promise<store.WorkflowFormat> {
    return (await this.database.run((db) => store.runFormat(db, runId))) ?? "yaml";
  }

  /** The latest version of every workflow, of both formats, newest registration first. */
  async listWorkflows(): Promise<AnyRegisteredWorkflow[]> {
    const rows = await this.database.run((db) => store.listLatestDefinitions(db));
    return rows.map((row) => (row.format === "yaml" ? this.yaml.queries.registered(row) : this.steps.queries.registered(row)));
  }

  async getWorkflow(name: string): Promise<AnyWorkflowDetail> {
    return (await this.formatOfWorkflow(name)) === "steps" ? this.steps.queries.getWorkflow(name) : this.yaml.queries.getWorkflow(name);
  }

  /** A page of the runs of both formats (of one workflow, or of all), newest first. */
  async runsPage(options: { workflow?: string } & PageParams): Promise<Page<AnyWorkflowRunSummary>> {
    const { limit, before } = pageRequest(options, "uuid");
    const keyed = await this.database.run((db) => store.listRuns(db, { workflow: options.workflow, limit: limit + 1, before }));
    return pageOf([keyed.map(mapItem((run): AnyWorkflowRunSummary => (run.format === "steps" ? stepRunSummary(run) : runSummary(run))))], limit);
  }

  async getRun(runId: string): Promise<AnyWorkflowRun> {
    return (await this.formatOfRun(runId)) === "steps" ? this.steps.queries.getRun(runId) : this.yaml.queries.getRun(runId);
  }

  /** A step run once it has ended, or as it stands when `timeoutMs` has passed (`ended: false`): `execute` with `wait`. */
  waitForEnd(runId: string, timeoutMs: number) {
    return this.steps.queries.waitForEnd(runId, timeoutMs);
  }

  /** The tools a step may call. */
  listTools() {
    return this.steps.queries.listTools();
  }

  /**
   * The one cheap read an open run's conversation polls, whatever its format: a marker that moves with its row, its
   * turns, its engine run's events, its decisions and its comments, so the conversation is read again only then.
   */
  async changes(runId: string): Promise<RunChanges> {
    const own = await this.database.run((db) => store.changeMarker(db, runId));
    if (!own) throw new WorkflowError("not_found", `no workflow run with id "${runId}"`);
    // A workflow run's id is its engine run's.
    return this.markers.changes(runId, { engineRunId: runId, marker: own.marker, active: canStillChange(own.status), busy: isBusy(own.status) });
  }

  /** The run as a conversation, told as its own format tells it. */
  async conversation(runId: string): Promise<AnyConversation> {
    return (await this.formatOfRun(runId)) === "steps" ? this.steps.queries.conversation(runId) : this.yaml.queries.conversation(runId);
  }
}
