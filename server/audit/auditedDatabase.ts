/**
 * The database every front door and the engine are given: the same database, whose transactions also record the
 * current request's audit entry. The first transaction to commit inside a request's audit scope writes the entry as
 * accepted, so the change and its record are applied together or not at all; a transaction that rolls back leaves the
 * entry to the next one, or to the door that records the refusal.
 */
import type { Database, Executor } from "../../db/client";
import type { AuditOutcome, TargetKind } from "./schemas";
import { type AuditScope, currentAuditScope } from "./scope";
import { appendEntries, appendEntry } from "./store";

/** The outcome a scope's entry is recorded with when a transaction applies its action: what the person said with it. */
const acceptedOutcome = (scope: AuditScope): AuditOutcome => ({ outcome: "accepted", status: null, message: scope.note });

export function auditedDatabase(database: Database): Database {
  return {
    kind: database.kind,
    run: (fn) => database.run(fn),
    runApart: (fn) => database.runApart(fn),
    listen: (channel, onNotify) => database.listen(channel, onNotify),
    close: () => database.close(),
    async transaction(fn) {
      const scope = currentAuditScope();
      if (!scope || scope.recorded) return database.transaction(fn);
      let claimed = false;
      try {
        return await database.transaction(async (tx) => {
          const result = await fn(tx);
          if (!scope.recorded) {
            scope.recorded = claimed = true;
            await appendEntry(tx, scope.subject, acceptedOutcome(scope));
          }
          return result;
        });
      } catch (error) {
        if (claimed) scope.recorded = false;
        throw error;
      }
    },
  };
}

/**
 * Records, in `tx`, the accepted entries of requests whose actions a batch applied together (a batch runs in no
 * request's scope, so `auditedDatabase` records nothing for it): each names the target its action created, all in one
 * statement. A scope already recorded, or none (outside a request), is skipped. Answers what hands the entries back to
 * their requests, as they were, if `tx` rolls back: the actions applied again one by one then record their own.
 */
export async function recordAcceptedTogether(tx: Executor, accepted: readonly { scope: AuditScope | undefined; target: { kind: TargetKind; id: string } }[]): Promise<() => void> {
  const claimed = accepted.flatMap(({ scope, target }) => (scope && !scope.recorded ? [{ scope, subject: scope.subject, target }] : []));
  for (const { scope, target } of claimed) {
    scope.recorded = true;
    scope.subject = { ...scope.subject, targetKind: target.kind, targetId: target.id };
  }
  const undo = () => {
    for (const { scope, subject } of claimed) {
      scope.recorded = false;
      scope.subject = subject;
    }
  };
  try {
    await appendEntries(tx, claimed.map(({ scope }) => ({ subject: scope.subject, outcome: acceptedOutcome(scope) })));
  } catch (error) {
    undo();
    throw error;
  }
  return undo;
}
