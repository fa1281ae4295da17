/** Who an audit entry names: the caller as the doors identified them, or the machine a callback came from. */
import type { RequestOrigin } from "../people/commands";
import type { Identity } from "../people/schemas";
import type { AuditSubject, TargetKind } from "./schemas";

export function subjectOf(identity: Identity, origin: RequestOrigin, action: string, target: { kind: TargetKind; id: string } | null, caller?: "worker" | "agent"): AuditSubject {
  return {
    actorKind: caller ?? (identity.kind === "session" ? "account" : identity.kind),
    accountId: identity.accountId,
    actorName: identity.name ?? caller ?? null,
    tokenId: identity.kind === "token" ? identity.tokenId : null,
    action,
    targetKind: target?.kind ?? null,
    targetId: target?.id ?? null,
    address: origin.address,
    userAgent: origin.userAgent,
  };
}
