/** Inline review for the app: the same reads and commands as REST's /api/decisions/{id}/output, comments, draft, edit and diff. */
import { z } from "zod";
import { CommentBody, DiffQuery, DraftBody, EditBody } from "../../review/schemas";
import { analystProcedure, router } from "../trpc";

const DecisionRef = z.object({ decisionId: z.string().min(1) });
const CommentRef = z.object({ commentId: z.string().min(1) });

export const reviewRouter = router({
  output: analystProcedure.input(DecisionRef).query(({ ctx, input }) => ctx.review.queries.output(input.decisionId, ctx.identity)),
  comments: analystProcedure.input(DecisionRef).query(({ ctx, input }) => ctx.review.queries.comments(input.decisionId)),
  comment: analystProcedure.input(DecisionRef.extend({ body: CommentBody })).mutation(({ ctx, input }) => ctx.review.commands.comment(input.decisionId, input.body, ctx.identity)),
  resolve: analystProcedure.input(CommentRef).mutation(({ ctx, input }) => ctx.review.commands.resolve(input.commentId, ctx.identity)),
  reopen: analystProcedure.input(CommentRef).mutation(({ ctx, input }) => ctx.review.commands.reopen(input.commentId, ctx.identity)),
  draft: analystProcedure.input(DecisionRef).query(({ ctx, input }) => ctx.review.queries.draft(input.decisionId, ctx.identity)),
  /** A person's unsent text is hers: kept as typed, and not in the audit trail (what she sends is). */
  saveDraft: analystProcedure
    .meta({ changes: false })
    .input(DecisionRef.extend(DraftBody.shape))
    .mutation(({ ctx, input }) => ctx.review.commands.saveDraft(input.decisionId, input.text, ctx.identity)),
  edit: analystProcedure.input(DecisionRef.extend({ body: EditBody })).mutation(({ ctx, input }) => ctx.review.commands.edit(input.decisionId, input.body, ctx.identity)),
  /** An edit checked as it is typed (a mutation only to carry a whole artifact in its body): nothing is saved or audited. */
  checkEdit: analystProcedure
    .meta({ changes: false })
    .input(DecisionRef.extend({ body: EditBody }))
    .mutation(({ ctx, input }) => ctx.review.queries.checkEdit(input.decisionId, input.body.output)),
  diff: analystProcedure.input(DecisionRef.extend(DiffQuery.shape)).query(({ ctx, input }) => ctx.review.queries.diff(input.decisionId, input)),
});
