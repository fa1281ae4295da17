/** Signed-in people, accounts and audit entries typed as the server's router answers them, for the app's component tests. */
import type { Account, AuditEntry, Me, Role } from "../lib/trpc";

export function signedIn(role: Role, overrides: Partial<Me> = {}): Me {
  return { id: `id-${role}`, name: `Ada ${role}`, email: `${role}@example.com`, role, via: "session", ...overrides };
}

export function account(overrides: Partial<Account> = {}): Account {
  return {
    id: "0b7c8f8e-8a33-4c55-9a57-3f1c2f9d1a01",
    name: "Rita Reviewer",
    email: "rita@example.com",
    role: "reviewer",
    created_at: "2025-03-01T10:00:00.000Z",
    disabled_at: null,
    active: true,
    invitation_expires_at: null,
    ...overrides,
  };
}

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    at: "2025-03-01T10:00:00.000Z",
    actor_kind: "account",
    account_id: "0b7c8f8e-8a33-4c55-9a57-3f1c2f9d1a01",
    actor_name: "Rita Reviewer",
    token_id: null,
    action: "pipeline.approve",
    target_kind: "run",
    target_id: "RUN_1",
    target_title: "mobility",
    outcome: "accepted",
    status: 200,
    message: null,
    address: "127.0.0.1",
    user_agent: "Mozilla/5.0",
    ...overrides,
  };
}
