/**
 * Plain flows for the app, as REST's /api/stitch/flows: creating one, its versions (save, import, restore), the diff
 * between two, the check of a graph as it is drawn, and the caller's drafts. Roles are the same as REST's doors
 * (server/http/access.ts); every rule is the front door's commands', so both answer the same.
 */
import { z } from "zod";
import { CreateFlowBody } from "../../engine/schemas";
import { CheckGraphBody, DiffQuery, FlowDraftBody, RestoreVersionBody, SaveVersionBody } from "../../flows/versionSchemas";
import { analystProcedure, operatorProcedure, router } from "../trpc";

const FlowRef = z.object({ flowId: z.string() });
const VersionRef = FlowRef.extend({ version: z.number().int() });

export const flowsRouter = router({
  create: operatorProcedure.input(CreateFlowBody).mutation(({ ctx, input }) => ctx.flowVersions.commands.createFlow(input.name, input.graph, ctx.identity)),
  get: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.getFlow(input.id)),
  /** Each flow with its latest version, who saved it and when, its runs in progress and its last run. */
  list: analystProcedure.query(({ ctx }) => ctx.flowVersions.queries.listFlows()),
  versions: analystProcedure.input(FlowRef).query(({ ctx, input }) => ctx.flowVersions.queries.versions(input.flowId)),
  version: analystProcedure.input(VersionRef).query(({ ctx, input }) => ctx.flowVersions.queries.version(input.flowId, input.version)),
  /** Refused with CONFLICT (409) when `base_version` is no longer the latest; the error's `refusalDetails` hold the latest version and the diff. */
  saveVersion: operatorProcedure
    .input(FlowRef.extend(SaveVersionBody.shape))
    .mutation(({ ctx, input: { flowId, ...body } }) => ctx.flowVersions.commands.saveVersion(flowId, body, ctx.identity)),
  restoreVersion: operatorProcedure
    .input(VersionRef.extend(RestoreVersionBody.shape))
    .mutation(({ ctx, input: { flowId, version, ...body } }) => ctx.flowVersions.commands.restoreVersion(flowId, version, body, ctx.identity)),
  diff: analystProcedure.input(FlowRef.extend(DiffQuery.shape)).query(({ ctx, input: { flowId, ...query } }) => ctx.flowVersions.queries.diff(flowId, query)),
  /** A graph checked as it is drawn (a mutation only to carry a whole graph in its body): nothing is stored or audited. */
  check: analystProcedure
    .meta({ changes: false })
    .input(CheckGraphBody)
    .mutation(({ ctx, input }) => ctx.flowVersions.queries.check(input.graph)),
  draft: operatorProcedure.input(FlowRef).query(({ ctx, input }) => ctx.flowVersions.queries.draft(input.flowId, ctx.identity)),
  drafts: operatorProcedure.query(({ ctx }) => ctx.flowVersions.queries.drafts(ctx.identity)),
  /** A person's drawing in progress is hers: kept as it changes, and not in the audit trail (what she saves is). */
  saveDraft: operatorProcedure
    .meta({ changes: false })
    .input(FlowRef.extend(FlowDraftBody.shape))
    .mutation(({ ctx, input: { flowId, ...body } }) => ctx.flowVersions.commands.saveDraft(flowId, body, ctx.identity)),
  discardDraft: operatorProcedure
    .meta({ changes: false })
    .input(FlowRef)
    .mutation(({ ctx, input }) => ctx.flowVersions.commands.discardDraft(input.flowId, ctx.identity)),
});
