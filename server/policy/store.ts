/**
 * Every statement on `instance_policy`, and the only module that writes it: one row, absent until an operator first
 * changes the policy (the install's defaults hold until then).
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { instancePolicy } from "../../db/schema";
import { InstancePolicy } from "./schemas";

/** What a fresh install says: self-approval allowed. */
const DEFAULTS: InstancePolicy = { self_approval: true, updated_at: null, updated_by: null };

export async function readPolicy(db: Executor): Promise<InstancePolicy> {
  const [row] = await db.select().from(instancePolicy).where(eq(instancePolicy.id, true));
  if (!row) return DEFAULTS;
  return InstancePolicy.parse({ self_approval: row.selfApproval, updated_at: new Date(row.updatedAt).toISOString(), updated_by: row.updatedBy });
}

/** Sets the policy, as changed now by `by`; answers it as it was before. The row is locked, so two changes apply one after the other. */
export async function writePolicy(tx: Executor, change: { selfApproval: boolean; by: string | null }): Promise<InstancePolicy> {
  await tx.insert(instancePolicy).values({ id: true }).onConflictDoNothing();
  const before = await tx.select().from(instancePolicy).where(eq(instancePolicy.id, true)).for("update");
  await tx.update(instancePolicy).set({ selfApproval: change.selfApproval, updatedBy: change.by, updatedAt: sql`now()` }).where(eq(instancePolicy.id, true));
  return InstancePolicy.parse({ self_approval: before[0]!.selfApproval, updated_at: null, updated_by: null });
}
