import { z } from "zod";
import { CancelBody, ReviewBody } from "../../engine/schemas";
import { StartFlowRunBody } from "../../flows/versionSchemas";
import { CompareQuery, ForkBody, ForkFailedBody } from "../../forks/schemas";
import { PageParams } from "../../lib/paging";
import { analystProcedure, operatorProcedure, reviewerProcedure, router } from "../trpc";

const NodeRef = z.object({ runId: z.string(), nodeId: z.string().min(1) });

export const runsRouter = router({
  start: analystProcedure
    .input(z.object({ flowId: z.string(), input: z.unknown().optional(), version: StartFlowRunBody.shape.version }))
    .mutation(({ ctx, input }) => ctx.flows.startRun(input.flowId, input.input, ctx.starter, undefined, input.version)),
  get: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.getRun(input.id)),
  list: analystProcedure
    .input(z.object({ flowId: z.string().optional(), limit: PageParams.shape.limit }).optional())
    .query(async ({ ctx, input }) => (await ctx.engine.listRuns({ flowId: input?.flowId, limit: input?.limit ?? 100 })).items),
  events: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.runEvents(input.id)),
  /** A plain flow run as a conversation (GET /api/stitch/runs/{id}/conversation). */
  conversation: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.flowQueries.conversation(input.id)),
  /** The one read an open plain flow conversation polls: its change marker, and whether the run can still change. */
  changes: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.flowQueries.changes(input.id)),
  completeNode: reviewerProcedure
    .input(NodeRef.extend({ output: z.unknown() }))
    .mutation(({ ctx, input }) => ctx.flows.complete(input.runId, input.nodeId, input.output ?? null, ctx.identity)),
  retryNode: operatorProcedure
    .input(NodeRef)
    .mutation(({ ctx, input }) => ctx.flows.retry(input.runId, input.nodeId, ctx.actor)),
  cancel: operatorProcedure
    .input(CancelBody.extend({ runId: z.string() }))
    .mutation(({ ctx, input }) => ctx.flows.cancel(input.runId, input.reason, ctx.actor)),
  /** Forks a run at a node (POST /api/runs/{run_id}/fork): the rules are the flows' fork commands'. */
  fork: analystProcedure
    .input(ForkBody.extend({ runId: z.string() }))
    .mutation(({ ctx, input: { runId, ...body } }) => ctx.forks.commands.fork(runId, body, ctx.identity)),
  /** Operators: the failed runs of a flow since a time, forked at their failed nodes (POST /api/runs/fork-failed). */
  forkFailed: operatorProcedure.input(ForkFailedBody).mutation(({ ctx, input }) => ctx.forks.commands.forkFailed(input, ctx.identity)),
  lineage: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.forks.queries.lineage(input.id)),
  compare: analystProcedure.input(CompareQuery).query(({ ctx, input }) => ctx.forks.queries.compare(input.a, input.b)),
  reviewNode: reviewerProcedure
    .input(z.intersection(NodeRef, ReviewBody))
    .mutation(({ ctx, input }) => ctx.flows.review(input.runId, input.nodeId, input, ctx.identity)),
});
