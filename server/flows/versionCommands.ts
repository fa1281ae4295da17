/**
 * The designer's commands on plain flows: create a flow, save, import and restore versions, keep and discard a
 * person's draft. Every rule lives here, so REST and tRPC answer the same: operators change flows (both doors also
 * refuse others at their door, from the same role table), a save is refused when the version it started from is no
 * longer the latest (409 with that version and the diff: never last-write-wins), and every save, import and restore is
 * recorded in the audit trail with the flow's version as its target, in the transaction that writes it.
 */
import type { Executor } from "../../db/client";
import { nameAuditTarget } from "../audit/scope";
import { type Engine, EngineError } from "../engine/engine";
import type { FlowVersion, StitchFlow, StitchGraph } from "../engine/schemas";
import { nulPath } from "../lib/json";
import { isUuid } from "../lib/uuid";
import { requireRole } from "../people/roles";
import type { Identity } from "../people/schemas";
import { FlowError } from "./errors";
import { diffGraphs } from "./flowDiff";
import * as store from "./store";
import type { FlowDraft, FlowDraftBody, RestoreVersionBody, SaveVersionBody } from "./versionSchemas";

export const EMPTY_GRAPH: StitchGraph = { nodes: [], edges: [] };

/** Whose draft it is: the account, or the kind of caller without one (the bootstrap token). */
export const draftPerson = (by: Identity): string => by.accountId ?? by.kind;

const authorOf = (by: Identity) => (by.name === null ? null : { id: by.accountId, name: by.name });

/** The audit trail's target for a version: the flow's id and the version's number. */
const nameVersionTarget = (flowId: string, version: number) => nameAuditTarget("flow_version", `${flowId}@${version}`);

/** "10:42 UTC" today, "2026-11-27 10:42 UTC" another day: when a version was saved, as a refusal says it. */
function savedAt(iso: string, now = new Date()): string {
  const time = iso.slice(11, 16);
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? `${time} UTC` : `${iso.slice(0, 10)} ${time} UTC`;
}

export const toDraft = (draft: store.StoredDraft, newFlow: boolean): FlowDraft => ({
  flow_id: draft.flowId, name: draft.name, graph: draft.graph, base_version: draft.baseVersion, new_flow: newFlow, updated_at: draft.updatedAt,
});

export class FlowVersionCommands {
  constructor(private readonly engine: Engine) {}

  /** A new flow and its version 1 (`POST /api/stitch/flows`, unchanged): the caller is its author. */
  createFlow(name: string, graph: StitchGraph, by: Identity): Promise<StitchFlow> {
    requireRole(by, "operator");
    return this.engine.createFlow(name, graph, { message: "Created", origin: "create", author: authorOf(by) }, {
      alongside: async (_tx, flow) => {
        nameAuditTarget("flow", flow.id);
      },
    });
  }

  /**
   * Saves (or imports) `body.graph` as the flow's next version. `base_version` 0 is a new flow's first save: it creates
   * the flow under `flowId` (the id its draft was kept under), named by `body.name` or the draft. The saver's draft is
   * discarded in the same transaction when it holds exactly the saved graph.
   */
  async saveVersion(flowId: string, body: SaveVersionBody, by: Identity): Promise<FlowVersion> {
    requireRole(by, "operator");
    if (!isUuid(flowId)) throw new FlowError("not_found", `no flow with id "${flowId}"`);
    const next = { graph: body.graph, message: body.message, origin: body.origin, author: authorOf(by) };
    const person = draftPerson(by);
    const alongside = async (tx: Executor, version: number) => {
      nameVersionTarget(flowId, version);
      await store.deleteDraftIfSaved(tx, flowId, person, body.graph);
    };
    if (body.base_version === 0 && !(await this.findFlow(flowId))) {
      const name = body.name ?? (await this.engine.database.run((db) => store.findDraft(db, flowId, person)))?.name;
      if (!name) throw new FlowError("bad_request", "a new flow's first save needs its name: send `name`, or keep a draft with one first");
      try {
        await this.engine.createFlow(name, body.graph, { ...next, origin: body.origin === "import" ? "import" : "create" }, { id: flowId, alongside: (tx) => alongside(tx, 1) });
        return await this.engine.getFlowVersion(flowId, 1);
      } catch (error) {
        // Someone else's first save created the flow since it was looked for: this save is now a stale one.
        if (!(error instanceof EngineError && error.code === "conflict")) throw error;
      }
    }
    return this.append(flowId, body.base_version, next, (tx, saved) => alongside(tx, saved.version));
  }

  /** Restores an old version: a new version with its graph, saved on top of `base_version` as any save is. */
  async restoreVersion(flowId: string, version: number, body: RestoreVersionBody, by: Identity): Promise<FlowVersion> {
    requireRole(by, "operator");
    const old = await this.engine.getFlowVersion(flowId, version);
    const next = { graph: old.graph, message: body.message ?? `Restored version ${version}`, origin: "restore" as const, restoredFrom: version, author: authorOf(by) };
    return this.append(flowId, body.base_version, next, async (_tx, saved) => nameVersionTarget(flowId, saved.version));
  }

  private async append(flowId: string, base: number, next: Parameters<Engine["appendVersion"]>[2], alongside: (tx: Executor, saved: FlowVersion) => Promise<void>): Promise<FlowVersion> {
    const answer = await this.engine.appendVersion(flowId, base, next, alongside);
    if ("saved" in answer) return answer.saved;
    const latest = answer.stale;
    if (base > latest.version) throw new FlowError("bad_request", `base_version ${base} is not a version of this flow: its latest is version ${latest.version}`);
    const before = base === 0 ? EMPTY_GRAPH : (await this.engine.getFlowVersion(flowId, base)).graph;
    const { graph: _graph, ...summary } = latest;
    const since = base === 0 ? "since you started this new flow" : `since you opened version ${base}`;
    throw new FlowError(
      "conflict",
      `Version ${latest.version} was saved by ${latest.author?.name ?? "someone not signed in"} at ${savedAt(latest.created_at)} ${since}: look at what changed, then save on top of version ${latest.version}`,
      { latest: summary, diff: diffGraphs(base, before, latest.version, latest.graph) },
    );
  }

  /**
   * Keeps the caller's draft of a flow as it now stands (problems and all). A draft under an id no flow has yet is a
   * new flow's: it needs a name, and its base version is 0. Not in the audit trail: a draft is the person's own
   * unsent work (what she saves is recorded).
   */
  async saveDraft(flowId: string, body: FlowDraftBody, by: Identity): Promise<FlowDraft> {
    requireRole(by, "operator");
    if (!isUuid(flowId)) throw new FlowError("bad_request", `"${flowId}" is not a flow id: a new flow's draft is kept under a new UUID, which its first save creates the flow with`);
    const nul = nulPath(body, "");
    if (nul !== undefined) throw new FlowError("bad_request", `${nul} contains the NUL character (\\u0000), which cannot be stored; remove it`);
    const flow = await this.findFlow(flowId);
    if (!flow && body.base_version !== 0) throw new FlowError("not_found", `no flow with id "${flowId}": a new flow's draft has base_version 0`);
    if (flow && body.base_version > flow.version) throw new FlowError("bad_request", `base_version ${body.base_version} is not a version of "${flow.name}": its latest is version ${flow.version}`);
    const name = flow?.name ?? body.name;
    if (!name) throw new FlowError("bad_request", "a new flow's draft needs its name (`name`)");
    const saved = await this.engine.database.transaction((tx) => store.saveDraft(tx, draftPerson(by), { flowId, name, graph: body.graph, baseVersion: body.base_version }));
    return toDraft(saved, !flow);
  }

  /** Discards the caller's draft of a flow (the app asks first); answers whether there was one. */
  async discardDraft(flowId: string, by: Identity): Promise<{ discarded: boolean }> {
    requireRole(by, "operator");
    if (!isUuid(flowId)) return { discarded: false };
    return { discarded: await this.engine.database.transaction((tx) => store.deleteDraft(tx, flowId, draftPerson(by))) };
  }

  /** The flow with this id, or undefined when there is none (yet). */
  private findFlow(flowId: string): Promise<StitchFlow | undefined> {
    return this.engine.getFlow(flowId).catch((error: unknown) => {
      if (error instanceof EngineError && error.code === "not_found") return undefined;
      throw error;
    });
  }
}
