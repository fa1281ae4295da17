/**
 * The audit scope of one request: who is acting and on what, carried through the request's async work. Whichever
 * transaction commits first inside the scope records the entry as accepted, in that same transaction (see
 * `auditedDatabase`); if none does, the door records the outcome itself once the request has ended. A door whose
 * command takes the scope as an argument (a run's start, which is batched) hands it over instead of running the
 * request in its async context, and a worker's callback, whose accepted outcome is the run's event log, has none.
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
/** Scopes whose work is under way: the storage is turned off when the last one ends (see `inAuditScope`). */
let active = 0;

/** A request's scope, not yet entered: for a door that hands it to its command itself (see `inAuditScope`). */
export function newAuditScope(subject: AuditSubject): AuditScope {
  return { subject, recorded: false, note: null };
}

export function withAuditScope<T>(subject: AuditSubject, fn: (scope: AuditScope) => Promise<T>): Promise<T> {
  const scope = newAuditScope(subject);
  return inAuditScope(scope, () => fn(scope));
}

/**
 * Runs `fn` with `scope` as the current one, for everything it starts. An AsyncLocalStorage in use costs every
 * promise of the process a hook (measured: 14% of the server's CPU per node completion under load,
 * docs/design.md), so the storage is turned off whenever no scope's work is under way, and on again by the next
 * scope: the engine's own traffic (workers' callbacks, deliveries, timers) pays for it only while a person's action is
 * in flight. Work a scope left behind after it ended finds no scope then, as its entry was recorded when it ended.
 */
export async function inAuditScope<T>(scope: AuditScope, fn: () => Promise<T>): Promise<T> {
  active++;
  try {
    return await storage.run(scope, fn);
  } finally {
    if (--active === 0) storage.disable();
  }
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
 * Keeps what the action was about and what the person said with it (an approval's step and version, then her
 * comment) on its audit entry: the accepted entry records the notes, in the order taken, as its message
 * ("step: Requirements v2; comment: ..."). Called by the command, inside the transaction that records the entry.
 * Outside a request's scope it does nothing.
 */
export function noteAudit(label: string, text: string): void {
  const scope = storage.getStore();
  if (scope) scope.note = scope.note ? `${scope.note}; ${label}: ${text}` : `${label}: ${text}`;
}
