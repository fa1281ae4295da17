import { z } from "zod";
import { DecisionListQuery } from "../../decisions/schemas";
import { analystProcedure, router } from "../trpc";

/** The reviewer's inbox for the app: the same reads as GET /api/decisions, with the caller's roles. */
export const decisionsRouter = router({
  list: analystProcedure.input(DecisionListQuery.partial().optional()).query(({ ctx, input }) => ctx.decisions.list(ctx.identity, DecisionListQuery.parse(input ?? {}))),
  get: analystProcedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => ctx.decisions.get(input.id)),
  /** How many open decisions the caller may take (the navigation's and the tab title's count). */
  countForMe: analystProcedure.query(({ ctx }) => ctx.decisions.countOpenForMe(ctx.identity)),
});
