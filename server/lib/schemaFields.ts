/**
 * The fields a zod schema names, as an editor offers them: for each record (at `path`, where a list's items are `*`:
 * `core_capabilities.*`) each field its schema lists, in the schema's order, with the kind of value it holds. A field
 * a value lacks is still offered (empty) because the schema names it. Read from the schema's JSON Schema (zod's own
 * conversion), so what is offered is what validation knows.
 */
import { z } from "zod";
import { isPlainObject } from "./json";

export const FieldKind = z.enum(["text", "number", "boolean", "list", "record", "any"]);
export type FieldKind = z.infer<typeof FieldKind>;

export const SchemaField = z.object({
  /** The record's path: "" for the top, dot-separated keys below it, `*` for a list's items. */
  path: z.string(),
  key: z.string(),
  kind: FieldKind,
});
export type SchemaField = z.infer<typeof SchemaField>;

type Json = Record<string, unknown>;

/** A schema's branches: itself, or each of its `anyOf`/`oneOf` alternatives (nested ones flattened). */
function branches(schema: Json): Json[] {
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(alternatives)) return alternatives.filter(isPlainObject).flatMap(branches);
  return [schema];
}

const propertiesOf = (schema: Json): [string, Json][] => (isPlainObject(schema.properties) ? Object.entries(schema.properties).filter((entry): entry is [string, Json] => isPlainObject(entry[1])) : []);

/** The richest kind among a value's alternatives: a record with fields, a list, then a text, a number, a yes/no. */
function kindOf(schema: Json): FieldKind {
  // A branch's `type` may be one type or several (`["string", "number"]`).
  const types = branches(schema).flatMap((b) => (Array.isArray(b.type) ? b.type : [b.type]).map((type: unknown) => ({ type, fields: propertiesOf(b).length })));
  if (types.some((t) => t.type === "object" && t.fields > 0)) return "record";
  if (types.some((t) => t.type === "array")) return "list";
  if (types.some((t) => t.type === "string")) return "text";
  if (types.some((t) => t.type === "number" || t.type === "integer")) return "number";
  if (types.some((t) => t.type === "boolean")) return "boolean";
  return "any";
}

function walk(schema: Json, path: string, into: SchemaField[], seen: Set<string>): void {
  for (const branch of branches(schema)) {
    if (branch.type === "array" && isPlainObject(branch.items)) walk(branch.items, path === "" ? "*" : `${path}.*`, into, seen);
    for (const [key, property] of propertiesOf(branch)) {
      const id = `${path}\u0000${key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      into.push({ path, key, kind: kindOf(property) });
      walk(property, path === "" ? key : `${path}.${key}`, into, seen);
    }
  }
}

export function schemaFields(schema: z.ZodType): SchemaField[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  const fields: SchemaField[] = [];
  walk(json, "", fields, new Set());
  return fields;
}
