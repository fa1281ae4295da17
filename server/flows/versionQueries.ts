/**
 * The designer's reads of plain flows: the list of flows, a flow's versions, one version, the diff between two, the
 * check of a graph as it is drawn (storing nothing), and the caller's drafts. REST and tRPC both read through here.
 */
import type { Engine } from "../engine/engine";
import type { FlowListItem, FlowVersion, FlowVersionSummary, StitchGraph } from "../engine/schemas";
import { isUuid } from "../lib/uuid";
import type { Identity } from "../people/schemas";
import { FlowError } from "./errors";
import { diffGraphs } from "./flowDiff";
import * as store from "./store";
import { EMPTY_GRAPH, draftPerson, toDraft } from "./versionCommands";
import type { DiffQuery, FlowDiff, FlowDraft, GraphCheck } from "./versionSchemas";

export class FlowVersionQueries {
  constructor(private readonly engine: Engine) {}

  listFlows(): Promise<FlowListItem[]> {
    return this.engine.listFlows();
  }

  versions(flowId: string): Promise<FlowVersionSummary[]> {
    return this.engine.listFlowVersions(flowId);
  }

  version(flowId: string, version: number): Promise<FlowVersion> {
    return this.engine.getFlowVersion(flowId, version);
  }

  /** What changed from version `from` (0: the empty graph) to version `to`. */
  async diff(flowId: string, { from, to }: DiffQuery): Promise<FlowDiff> {
    const after = await this.engine.getFlowVersion(flowId, to);
    const before = from === 0 ? EMPTY_GRAPH : (await this.engine.getFlowVersion(flowId, from)).graph;
    return diffGraphs(from, before, to, after.graph);
  }

  /** Exactly what storing the graph would refuse (the engine's one rule for it); nothing is stored. */
  check(graph: StitchGraph): GraphCheck {
    return { problems: this.engine.checkGraph(graph) };
  }

  /** The caller's draft of a flow (a new flow's too). */
  async draft(flowId: string, by: Identity): Promise<FlowDraft> {
    const found = isUuid(flowId) ? await this.engine.database.run((db) => store.findDraft(db, flowId, draftPerson(by))) : undefined;
    if (!found) throw new FlowError("not_found", `you have no draft of flow "${flowId}"`);
    return toDraft(found, found.baseVersion === 0 && !(await this.flowExists(flowId)));
  }

  /** The caller's drafts, the latest changed first: a new flow's draft is found here after a reload or a crash. */
  async drafts(by: Identity): Promise<FlowDraft[]> {
    const found = await this.engine.database.run((db) => store.listDrafts(db, draftPerson(by)));
    return Promise.all(found.map(async (d) => toDraft(d, d.baseVersion === 0 && !(await this.flowExists(d.flowId)))));
  }

  private flowExists(flowId: string): Promise<boolean> {
    return this.engine.getFlow(flowId).then(() => true, () => false);
  }
}
