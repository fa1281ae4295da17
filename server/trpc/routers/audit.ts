/** The audit trail for operators: newest first, filtered by target (a run), person or action. */
import { AuditFilter } from "../../audit/schemas";
import { operatorProcedure, router } from "../trpc";

export const auditRouter = router({
  list: operatorProcedure.input(AuditFilter.partial({ limit: true })).query(({ ctx, input }) => ctx.audit.list(AuditFilter.parse(input))),
});
