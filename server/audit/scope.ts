/**
 * The audit scope of one request: who is acting and on what, carried through the request's async work. Whichever
 * transaction commits first inside the scope records the entry as accepted, in that same transaction (see
 * `auditedDatabase`); if none does, the door records the outcome itself once the request has ended.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditSubject, TargetKind } from "./schemas";

export interface AuditScope {
  subject: AuditSubject;
  /** True once an entry for this scope has been written (or is being written in a transaction not yet ended). */
  recorded: boolean;
  /** What the person said with the action (an approval's comment), recorded as the accepted entry's message. */
  note: string | null;
}

const storage = new AsyncLocalStorage<AuditScope>();

export function withAuditScope<T>(subject: AuditSubject, fn: (scope: AuditScope) => T): T {
  const scope: AuditScope = { subject, recorded: false, note: null };
  return storage.run(scope, () => fn(scope));
}

export function currentAuditScope(): AuditScope | undefined {
  return storage.getStore();
}

/**
 * Names what the current action changed, when the request could not name it (a creation: the new run, flow, token
 * or account). Called by the command that creates it, before its transaction commits, so the accepted entry written
 * in that transaction names it. Outside a request's scope (start-up, tests) it does nothing.
 */
export function nameAuditTarget(kind: TargetKind, id: string): void {
  const scope = storage.getStore();
  if (scope) scope.subject = { ...scope.subject, targetKind: kind, targetId: id };
}

/**
 * Keeps what the person said with the current action (an approval's comment) on its audit entry: the accepted entry
 * records it as its message. Called by the command, inside the transaction that records the entry. Outside a
 * request's scope it does nothing.
 */
export function noteAudit(label: string, text: string): void {
  const scope = storage.getStore();
  if (scope) scope.note = `${label}: ${text}`;
}
