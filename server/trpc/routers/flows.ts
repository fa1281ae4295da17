import { z } from "zod";
import { CreateFlowBody } from "../../engine/schemas";
import { analystProcedure, operatorProcedure, router } from "../trpc";

export const flowsRouter = router({
  create: operatorProcedure.input(CreateFlowBody).mutation(({ ctx, input }) => ctx.flows.createFlow(input.name, input.graph)),
  get: analystProcedure.input(z.object({ id: z.string() })).query(({ ctx, input }) => ctx.engine.getFlow(input.id)),
  list: analystProcedure.query(({ ctx }) => ctx.engine.listFlows()),
});
