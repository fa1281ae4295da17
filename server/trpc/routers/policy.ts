/** The instance's policy: anyone signed in reads it (the app says why someone is refused); operators change it. */
import { PolicyChange } from "../../policy/schemas";
import { analystProcedure, operatorProcedure, router } from "../trpc";

export const policyRouter = router({
  get: analystProcedure.query(({ ctx }) => ctx.policy.queries.get()),
  change: operatorProcedure.input(PolicyChange).mutation(({ ctx, input }) => ctx.policy.commands.change(ctx.identity, input)),
});
