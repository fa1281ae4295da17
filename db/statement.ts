/**
 * Statements whose text is written once. drizzle writes a statement's text from its fragments every time it runs
 * (`sqlToQuery` walks every fragment, and the engine's write of an event has about a hundred); a statement declared
 * here is written on its first run, and each run after that only fills in its values (docs/design.md, "Performance
 * techniques": 10 to 12 µs a run for that write, warm, against 3.3 to 4.2). Its text is the same at every run, so it is
 * also prepared once per connection, where a statement whose text varied (a multi-row INSERT by its number of rows)
 * was prepared again for every new length. The statement is built from placeholders: every value it takes is one of
 * `p`'s, so its text cannot depend on a value. A statement whose shape changes (a clause present or not) is two.
 */
import { type Placeholder, type Query, SQL, type SQLChunk, StringChunk, fillPlaceholders, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { type Executor, rows } from "./client";

/** The placeholders of a statement's values, by name (`p.runs` is the placeholder of the value named `runs`). */
export type Placeholders<K extends string> = { readonly [Name in K]: Placeholder<Name> };

/**
 * The text is written once with a mark in place of each value, and kept two ways: as PostgreSQL's text (`$1`, `$2`,
 * ...) and as the pieces between the values. Both drivers speak PostgreSQL, so one dialect writes it for either.
 */
class MarkingDialect extends PgDialect {
  override escapeParam(num: number): string {
    return `${MARK}${num}${MARK}`;
  }
}
const MARK = "\u0000";
const dialect = new MarkingDialect();

interface Written {
  /** The text as it is sent. */
  text: string;
  /** The text between the values, one piece more than there are values. */
  pieces: StringChunk[];
  /** The placeholder each value fills, in the order of the values. */
  params: unknown[];
}

function writeOnce(built: SQL): Written {
  const { sql: marked, params } = dialect.sqlToQuery(built);
  const parts = marked.split(MARK);
  return {
    text: parts.map((part, i) => (i % 2 === 0 ? part : `$${Number(part) + 1}`)).join(""),
    pieces: parts.filter((_, i) => i % 2 === 0).map((piece) => new StringChunk(piece)),
    params,
  };
}

/**
 * A statement as written once, with its values filled in. Run on its own, drizzle takes its text as written
 * (`toQuery`); put inside another statement (`EXPLAIN ${statement}`), it is the pieces of its text and its values,
 * which drizzle numbers again there.
 */
class Filled extends SQL {
  constructor(
    private readonly written: Written,
    private readonly values: unknown[],
  ) {
    const chunks: SQLChunk[] = [written.pieces[0]!];
    for (let i = 0; i < values.length; i++) chunks.push(values[i] as SQLChunk, written.pieces[i + 1]!);
    super(chunks);
  }

  override toQuery(): Query {
    return { sql: this.written.text, params: this.values };
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
  let written: Written | undefined;
  const write = () => {
    if (!written) {
      const p = new Proxy({} as Placeholders<K>, { get: (_, name) => (typeof name === "string" ? sql.placeholder(name) : undefined) });
      written = writeOnce(build(p));
    }
    return written;
  };
  return {
    rows: async <T>(executor: Executor, values: Record<K, unknown>) => {
      const statement = write();
      return rows<T>(executor, new Filled(statement, fillPlaceholders(statement.params, values)));
    },
    get text() {
      return write().text;
    },
  };
}
