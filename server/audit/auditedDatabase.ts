/**
 * The database every front door and the engine are given: the same database, whose transactions also record the
 * current request's audit entry. The first transaction to commit inside a request's audit scope writes the entry as
 * accepted, so the change and its record are applied together or not at all; a transaction that rolls back leaves the
 * entry to the next one, or to the door that records the refusal.
 */
import type { Database } from "../../db/client";
import { currentAuditScope } from "./scope";
import { appendEntry } from "./store";

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
            await appendEntry(tx, scope.subject, { outcome: "accepted", status: null, message: scope.note });
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
