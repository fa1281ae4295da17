import { z } from "zod";
import { CreateFlowBody } from "../../engine/schemas";
import { publicProcedure, router } from "../trpc";

export const flowsRouter = router({
  create: publicProcedure.input(CreateFlowBody).mutation(({ ctx, input }) => ctx.engine.createFlow(input.name, input.graph)),
  get: publicProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.getFlow(input.id)),
  list: publicProcedure.query(({ ctx }) => ctx.engine.listFlows()),
});
