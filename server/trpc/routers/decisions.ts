import { z } from "zod";
import { AssignBody, DecideBody, DecisionListQuery } from "../../decisions/schemas";
import { analystProcedure, operatorProcedure, reviewerProcedure, router } from "../trpc";

const DecisionRef = z.object({ decisionId: z.string().min(1) });

/** The reviewer's inbox for the app: the same reads as GET /api/decisions, with the caller's roles. */
export const decisionsRouter = router({
  list: analystProcedure.input(DecisionListQuery.partial().optional()).query(({ ctx, input }) => ctx.decisions.list(ctx.identity, DecisionListQuery.parse(input ?? {}))),
  get: analystProcedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => ctx.decisions.get(input.id)),
  /** How many open decisions the caller may take (the navigation's and the tab title's count). */
  countForMe: analystProcedure.query(({ ctx }) => ctx.decisions.countOpenForMe(ctx.identity)),
  claim: reviewerProcedure.input(DecisionRef).mutation(({ ctx, input }) => ctx.decisionCommands.claim(input.decisionId, ctx.identity)),
  release: reviewerProcedure.input(DecisionRef).mutation(({ ctx, input }) => ctx.decisionCommands.release(input.decisionId, ctx.identity)),
  assign: operatorProcedure
    .input(DecisionRef.extend({ to: AssignBody }))
    .mutation(({ ctx, input }) => ctx.decisionCommands.assign(input.decisionId, input.to, ctx.identity)),
  /** Takes the decision through its front door, with that door's rules: who may decide is the decision's own rule. */
  decide: analystProcedure.input(DecisionRef.extend({ body: DecideBody })).mutation(({ ctx, input }) => ctx.decisionCommands.decide(input.decisionId, input.body, ctx.identity)),
  /** What happened to a run's decisions (opened, claimed, assigned, approved, reminded, escalated, decided), for its conversation. */
  activity: analystProcedure.input(z.object({ runId: z.string().min(1).max(200) })).query(({ ctx, input }) => ctx.decisions.activity(input.runId)),
});
