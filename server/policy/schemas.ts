/**
 * The instance's policy: what operators set in the app for every definition that says nothing. Defined once here; the
 * store parses its row with these schemas and the doors answer them.
 */
import { z } from "zod";

export const InstancePolicy = z.object({
  /**
   * Whether the person who started a run may decide its decisions, where its definition sets no `self_approval`
   * (true on a fresh install: the first account can take its first run to its end alone).
   */
  self_approval: z.boolean(),
  /** When and by whom it was last changed (null: never, the install's default). */
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type InstancePolicy = z.infer<typeof InstancePolicy>;

/** An operator's change of the policy. */
export const PolicyChange = z.object({ self_approval: z.boolean() }).strict();
export type PolicyChange = z.infer<typeof PolicyChange>;
