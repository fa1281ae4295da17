/** The audit trail's data: an entry as recorded, as answered, and the filters it is read by. */
import { z } from "zod";

export const ActorKind = z.enum(["account", "token", "bootstrap", "worker", "agent", "anonymous"]);
export type ActorKind = z.infer<typeof ActorKind>;

export const TargetKind = z.enum(["run", "node", "flow", "flow_version", "workflow", "account", "token", "session", "decision", "subscription", "comment"]);
export type TargetKind = z.infer<typeof TargetKind>;

/** Who did what to which target, from where: everything but the outcome, which is known once the action ends. */
export interface AuditSubject {
  actorKind: ActorKind;
  accountId: string | null;
  actorName: string | null;
  tokenId: string | null;
  action: string;
  targetKind: TargetKind | null;
  targetId: string | null;
  address: string | null;
  userAgent: string | null;
}

export interface AuditOutcome {
  outcome: "accepted" | "refused";
  status: number | null;
  message: string | null;
}

export const AuditFilter = z.object({
  /** A run, node, flow, workflow or account id (the action's target). */
  target: z.string().min(1).max(200).optional(),
  /** The account that acted. */
  accountId: z.string().uuid().optional(),
  /** An action name, or its prefix ending in "." (`pipeline.` for all of the pipeline's). */
  action: z.string().min(1).max(100).optional(),
  outcome: z.enum(["accepted", "refused"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** Entries older than this entry id (the `next_before` of the previous page). */
  before: z.coerce.number().int().positive().optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AuditEntry = z.object({
  id: z.number(),
  at: z.string(),
  actor_kind: ActorKind,
  account_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  token_id: z.string().nullable(),
  action: z.string(),
  target_kind: z.string().nullable(),
  target_id: z.string().nullable(),
  /** What the target is called now (a run's domain or workflow and message, a decision's title, an account's name); null when unknown. */
  target_title: z.string().nullable(),
  outcome: z.enum(["accepted", "refused"]),
  status: z.number().nullable(),
  message: z.string().nullable(),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: number | null;
}
