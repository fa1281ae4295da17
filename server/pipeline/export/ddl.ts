/**
 * The entity-relationship model as PostgreSQL DDL: one table per entity (its attributes as columns, its PK as the
 * primary key), a foreign key for each FK attribute that names an entity ("rider_id" -> rider), one for each 1:N or 1:1
 * relationship whose many side has no such column yet, and a join table for each N:M relationship.
 *
 * What must hold: the script applies to an empty PostgreSQL database as it is. So every name is a quoted
 * snake_case identifier (an entity called "Order" is a table, not a keyword), a type no PostgreSQL knows becomes
 * `text` with the model's type kept in a comment, every table is created before any foreign key names it (keys are
 * added after all tables), and a referenced table always has a primary key to point at.
 */
import { z } from "zod";

const Attribute = z.looseObject({ name: z.string().min(1), type: z.string().optional(), key: z.string().optional() });
const Entity = z.looseObject({ name: z.string().min(1), attributes: z.array(z.union([Attribute, z.string()])).optional() });
const Relationship = z.looseObject({ from: z.string(), to: z.string(), cardinality: z.string().optional(), label: z.string().optional() });
const Model = z.looseObject({ entities: z.array(Entity), relationships: z.array(Relationship).optional() });
const Diagrams = z.looseObject({ entity_relationship_model: Model });

/** "Ride request" -> ride_request; at most 63 bytes, PostgreSQL's limit for a name. */
function snake(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return (words || "unnamed").slice(0, 63);
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The model's type as PostgreSQL spells it, or undefined when PostgreSQL has no such type. */
const TYPES: [RegExp, string][] = [
  [/^(uuid|guid)$/i, "uuid"],
  [/^(text|string|str|varchar|char|character varying|email|url|enum)$/i, "text"],
  [/^varchar\((\d+)\)$/i, "varchar($1)"],
  [/^(int|integer|int4)$/i, "integer"],
  [/^(bigint|int8|long)$/i, "bigint"],
  [/^(smallint|int2|short)$/i, "smallint"],
  [/^(serial|bigserial)$/i, "$1"],
  [/^(decimal|numeric|money|currency|amount)$/i, "numeric"],
  [/^(numeric|decimal)\((\d+),\s*(\d+)\)$/i, "numeric($2,$3)"],
  [/^(float|double|double precision|real|number)$/i, "double precision"],
  [/^(bool|boolean)$/i, "boolean"],
  [/^(date)$/i, "date"],
  [/^(time)$/i, "time"],
  [/^(timestamp|datetime)$/i, "timestamp"],
  [/^(timestamptz|timestamp with time zone|instant)$/i, "timestamptz"],
  [/^(json|jsonb|object|map)$/i, "jsonb"],
  [/^(bytea|binary|blob|bytes)$/i, "bytea"],
  [/^(interval|duration)$/i, "interval"],
];

function columnType(type: string | undefined): { sql: string; note?: string } {
  const given = (type ?? "text").trim();
  for (const [pattern, sql] of TYPES) if (pattern.test(given)) return { sql: given.replace(pattern, sql).toLowerCase() };
  return { sql: "text", note: `the model says ${given}` };
}

interface Table {
  name: string;
  columns: { name: string; type: string; note?: string; key?: string }[];
}

export interface Ddl {
  sql: string;
  tables: string[];
}

/** The DDL of a diagrams artifact's entity-relationship model; undefined when it has none. */
export function ddlOf(artifact: unknown, title: string): Ddl | undefined {
  const parsed = Diagrams.safeParse(artifact);
  if (!parsed.success || parsed.data.entity_relationship_model.entities.length === 0) return undefined;
  const model = parsed.data.entity_relationship_model;
  const tables = new Map<string, Table>();
  const byEntity = new Map<string, string>();
  for (const entity of model.entities) {
    let name = snake(entity.name);
    for (let n = 2; tables.has(name); n++) name = `${snake(entity.name).slice(0, 60)}_${n}`;
    byEntity.set(entity.name.toLowerCase(), name);
    const columns: Table["columns"] = [];
    for (const raw of entity.attributes ?? []) {
      const attribute = typeof raw === "string" ? { name: raw } : raw;
      const column = snake(attribute.name);
      if (columns.some((existing) => existing.name === column)) continue;
      const type = columnType(attribute.type);
      columns.push({ name: column, type: type.sql, ...(type.note ? { note: type.note } : {}), ...(attribute.key ? { key: attribute.key.toUpperCase() } : {}) });
    }
    // A table others can point at needs a primary key; an entity without one gets an id.
    if (!columns.some((column) => column.key === "PK")) columns.unshift({ name: "id", type: "uuid", key: "PK", note: "added: the model names no primary key" });
    tables.set(name, { name, columns });
  }
  const tableOf = (entity: string) => byEntity.get(entity.toLowerCase()) ?? byEntity.get(snake(entity).replace(/_/g, " "));
  const primaryKey = (table: Table) => table.columns.filter((column) => column.key === "PK");

  const foreignKeys: string[] = [];
  const joinTables: Table[] = [];
  const reference = (table: Table, column: string, target: Table) => {
    const keys = primaryKey(target);
    if (keys.length !== 1) return;
    foreignKeys.push(`ALTER TABLE ${quote(table.name)} ADD FOREIGN KEY (${quote(column)}) REFERENCES ${quote(target.name)} (${quote(keys[0]!.name)});`);
  };
  for (const table of tables.values()) {
    for (const column of table.columns) {
      if (column.key !== "FK") continue;
      const target = tables.get(column.name.replace(/_id$/, ""));
      if (target && primaryKey(target)[0]?.type === column.type) reference(table, column.name, target);
    }
  }
  for (const relationship of model.relationships ?? []) {
    const from = tables.get(tableOf(relationship.from) ?? "");
    const to = tables.get(tableOf(relationship.to) ?? "");
    if (!from || !to) continue;
    const cardinality = (relationship.cardinality ?? "1:N").toUpperCase().replace(/\s/g, "");
    if (/^N:M$|^M:N$|^\*:\*$/.test(cardinality)) {
      const fromKey = primaryKey(from)[0];
      const toKey = primaryKey(to)[0];
      if (!fromKey || !toKey || from === to) continue;
      const name = snake(`${from.name}_${to.name}`);
      if (tables.has(name) || joinTables.some((join) => join.name === name)) continue;
      const join: Table = { name, columns: [{ name: `${from.name}_id`.slice(0, 63), type: fromKey.type, key: "FK" }, { name: `${to.name}_id`.slice(0, 63), type: toKey.type, key: "FK" }] };
      joinTables.push(join);
      reference(join, join.columns[0]!.name, from);
      reference(join, join.columns[1]!.name, to);
      continue;
    }
    // 1:N and 1:1: the "to" side holds the key of the "from" side, unless it has one already.
    const column = `${from.name}_id`.slice(0, 63);
    const fromKey = primaryKey(from)[0];
    if (!fromKey || from === to) continue;
    const existing = to.columns.find((candidate) => candidate.name === column);
    if (existing) {
      if (existing.key === "FK") continue;
      if (existing.type !== fromKey.type) continue;
      existing.key = "FK";
    } else {
      to.columns.push({ name: column, type: fromKey.type, key: "FK", note: `added for "${relationship.label ?? `${relationship.from} ${relationship.to}`}"` });
    }
    reference(to, column, from);
  }

  const create = (table: Table) => {
    const keys = primaryKey(table).map((column) => quote(column.name));
    const lines = table.columns.map((column) => `  ${quote(column.name)} ${column.type}${column.key === "PK" ? " NOT NULL" : ""}`);
    if (keys.length > 0) lines.push(`  PRIMARY KEY (${keys.join(", ")})`);
    // A note quotes the model (a relationship's label), which may hold a line break: a comment is one line.
    const notes = table.columns.filter((column) => column.note).map((column) => `-- ${table.name}.${column.name}: ${column.note!.replace(/\s+/g, " ")}`);
    return [...notes, `CREATE TABLE ${quote(table.name)} (`, lines.join(",\n"), ");", ""].join("\n");
  };
  const joinCreate = (table: Table) => [`CREATE TABLE ${quote(table.name)} (`, table.columns.map((column) => `  ${quote(column.name)} ${column.type} NOT NULL`).join(",\n") + `,\n  PRIMARY KEY (${table.columns.map((column) => quote(column.name)).join(", ")})`, ");", ""].join("\n");
  const all = [...tables.values()];
  const sql = [
    `-- ${title.replace(/\s+/g, " ")}: the entity-relationship model as PostgreSQL DDL.`,
    "-- Apply to an empty schema: psql -v ON_ERROR_STOP=1 -f schema.sql",
    "",
    ...all.map(create),
    ...joinTables.map(joinCreate),
    ...foreignKeys,
    "",
  ].join("\n");
  return { sql, tables: [...all, ...joinTables].map((table) => table.name) };
}
