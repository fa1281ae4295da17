/**
 * Statements whose text is written once. drizzle writes a statement's text from its fragments every time it runs
 * (`sqlToQuery` walks every fragment: about 76 µs of the server's CPU for the engine's write of a chain's step, see
 * docs/performance.md); the same statement declared here is written on its first run, and each run after that only
 * fills in its values. The statement is built from placeholders: every value it takes is one of `p`'s, so its text
 * cannot depend on a value. A statement whose shape changes (a clause present or not) is two statements.
 */
import { type Placeholder, type Query, SQL, fillPlaceholders, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { type Executor, rows } from "./client";

/** The placeholders of a statement's values, by name (`p.runs` is the placeholder of the value named `runs`). */
export type Placeholders<K extends string> = { readonly [Name in K]: Placeholder<Name> };

/** Both drivers speak PostgreSQL, so one dialect writes the text for either. */
const dialect = new PgDialect();

/** A statement as written once, with its values filled in: what drizzle runs, without writing the text again. */
class Filled extends SQL {
  constructor(
    private readonly written: Query,
    private readonly values: Record<string, unknown>,
  ) {
    super([]);
  }

  override toQuery(): Query {
    return { sql: this.written.sql, params: fillPlaceholders(this.written.params, this.values) };
  }
}

export interface Statement<K extends string> {
  /** Runs the statement with these values and answers its rows, as `rows` does. */
  rows<T = Record<string, unknown>>(executor: Executor, values: Record<K, unknown>): Promise<T[]>;
  /** The statement's text, as it is sent (written on first use). */
  readonly text: string;
}

/** Declares a statement; `build` runs once, on first use, with the placeholders of the statement's values. */
export function statement<K extends string>(build: (p: Placeholders<K>) => SQL): Statement<K> {
  let written: Query | undefined;
  const write = () => {
    if (!written) {
      const p = new Proxy({} as Placeholders<K>, { get: (_, name) => (typeof name === "string" ? sql.placeholder(name) : undefined) });
      written = dialect.sqlToQuery(build(p));
    }
    return written;
  };
  return {
    rows: <T>(executor: Executor, values: Record<K, unknown>) => rows<T>(executor, new Filled(write(), values)),
    get text() {
      return write().sql;
    },
  };
}
