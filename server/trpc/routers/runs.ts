import { z } from "zod";
import { CancelBody, ReviewBody } from "../../engine/schemas";
import { publicProcedure, router } from "../trpc";

const NodeRef = z.object({ runId: z.string(), nodeId: z.string().min(1) });

export const runsRouter = router({
  start: publicProcedure
    .input(z.object({ flowId: z.string(), input: z.unknown().optional() }))
    .mutation(({ ctx, input }) => ctx.engine.startRun(input.flowId, input.input)),
  get: publicProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.getRun(input.id)),
  list: publicProcedure
    .input(z.object({ flowId: z.string().optional(), limit: z.number().int().positive().max(500).optional() }).optional())
    .query(({ ctx, input }) => ctx.engine.listRuns(input ?? {})),
  events: publicProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.runEvents(input.id)),
  completeNode: publicProcedure
    .input(NodeRef.extend({ output: z.unknown() }))
    .mutation(({ ctx, input }) => ctx.engine.handle(input.runId, { type: "complete", key: input.nodeId, output: input.output ?? null }, ctx.actor)),
  retryNode: publicProcedure
    .input(NodeRef)
    .mutation(({ ctx, input }) => ctx.engine.handle(input.runId, { type: "retry", key: input.nodeId }, ctx.actor)),
  cancel: publicProcedure
    .input(CancelBody.extend({ runId: z.string() }))
    .mutation(({ ctx, input }) => ctx.engine.cancel(input.runId, input.reason, ctx.actor)),
  reviewNode: publicProcedure
    .input(z.intersection(NodeRef, ReviewBody))
    .mutation(({ ctx, input }) =>
      ctx.engine.handle(
        input.runId,
        { type: "review", key: input.nodeId, decision: input.decision, feedback: input.decision === "reject" ? input.feedback : undefined },
        input.actor ?? ctx.actor,
      ),
    ),
});
