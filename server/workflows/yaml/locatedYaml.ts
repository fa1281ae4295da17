/**
 * YAML read with where each value stands: a map read key by key with checks on its values (`MapReader`), each problem
 * or warning reported at its path, line and column (`Report`), and the path of the value at an offset (`pathAt`).
 * What the workflow format asks of the values is loader.ts's.
 */
import { type Document, type LineCounter, type Node as YamlNode, type YAMLMap, isAlias, isMap, isScalar, isSeq } from "yaml";
import type { LocatedIssue } from "./definition";

/** The path of a map's key: `nodes[2].retry`. */
export const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);
/** Choices as a message lists them. */
export const quoteList = (items: readonly string[]): string => items.join(", ");

/** What a YAML value is, for messages: `a list`, `the number 3`, `nothing`. */
export function describeValue(node: YamlNode | null): string {
  if (isMap(node)) return "a map";
  if (isSeq(node)) return "a list";
  if (!isScalar(node) || node.value === null || node.value === undefined) return "nothing";
  if (typeof node.value === "string") return `the text ${JSON.stringify(node.value.length > 40 ? `${node.value.slice(0, 40)}…` : node.value)}`;
  if (typeof node.value === "number") return `the number ${node.value}`;
  if (typeof node.value === "boolean") return String(node.value);
  return "a value of another type";
}

const rangeOf = (node: unknown): number[] | undefined =>
  node && typeof node === "object" && "range" in node && Array.isArray(node.range) ? (node.range as number[]) : undefined;
export const startOf = (node: unknown): number | undefined => rangeOf(node)?.[0];

/** One key of a map: where its key and value stand. */
export interface Field {
  key: string;
  path: string;
  value: YamlNode | null;
  keyAt: number;
  /** The value's position, or the key's when the value is empty. */
  at: number;
}

/** Collects problems and warnings with their positions. */
export class Report {
  readonly errors: LocatedIssue[] = [];
  readonly warnings: LocatedIssue[] = [];
  constructor(private readonly lines: LineCounter) {}

  private issue(path: string, offset: number, message: string): LocatedIssue {
    const { line, col } = this.lines.linePos(offset);
    return { path, line: Math.max(line, 1), column: Math.max(col, 1), message };
  }
  error(path: string, offset: number, message: string): void {
    this.errors.push(this.issue(path, offset, message));
  }
  warn(path: string, offset: number, message: string): void {
    this.warnings.push(this.issue(path, offset, message));
  }
}

/** A YAML map read key by key, and the checks on its values; every check reports and returns undefined on failure. */
export class MapReader {
  readonly fields = new Map<string, Field>();

  constructor(
    readonly path: string,
    readonly at: number,
    map: YAMLMap,
    private readonly doc: Document,
    private readonly report: Report,
  ) {
    for (const pair of map.items) {
      const keyAt = startOf(pair.key) ?? at;
      if (!isScalar(pair.key) || pair.key.value === null || typeof pair.key.value === "object") {
        report.warn(path, keyAt, "a key must be a plain name; this entry is ignored");
        continue;
      }
      const key = String(pair.key.value);
      const raw = (pair.value ?? null) as YamlNode | null;
      const value = isAlias(raw) ? ((raw.resolve(doc) ?? null) as YamlNode | null) : raw;
      const empty = value === null || (isScalar(value) && value.value === null && !value.source);
      this.fields.set(key, { key, path: child(path, key), value, keyAt, at: (empty ? undefined : startOf(raw)) ?? keyAt });
    }
  }

  has(key: string): boolean {
    return this.fields.has(key);
  }
  get(key: string): Field | undefined {
    return this.fields.get(key);
  }

  /** The field, or an error at this map when it is missing. */
  required(key: string, message: string): Field | undefined {
    const field = this.fields.get(key);
    if (!field) this.report.error(child(this.path, key), this.at, message);
    return field;
  }

  /** A warning for each key that is neither known nor handled elsewhere. */
  warnUnknown(known: ReadonlySet<string>, where: string): void {
    for (const field of this.fields.values()) {
      if (!known.has(field.key)) this.report.warn(field.path, field.keyAt, `unknown key "${field.key}" in ${where}; it is ignored`);
    }
  }

  string(field: Field | undefined, { nonEmpty = false } = {}): string | undefined {
    if (!field) return undefined;
    const v = isScalar(field.value) ? field.value.value : undefined;
    if (typeof v !== "string") {
      this.report.error(field.path, field.at, `"${field.key}" must be ${nonEmpty ? "a non-empty string" : "a string"}, not ${describeValue(field.value)}`);
      return undefined;
    }
    if (nonEmpty && v.trim() === "") {
      this.report.error(field.path, field.at, `"${field.key}" must not be empty`);
      return undefined;
    }
    return v;
  }

  oneOf<T extends string>(field: Field | undefined, choices: readonly T[]): T | undefined {
    const v = isScalar(field?.value) ? field.value.value : undefined;
    if (!field || (typeof v === "string" && (choices as readonly string[]).includes(v))) return v as T | undefined;
    this.report.error(field.path, field.at, `"${field.key}" must be one of ${quoteList(choices)}, not ${describeValue(field.value)}`);
    return undefined;
  }

  /** A boolean; otherwise an error, or with `lenient` a warning (the field is dropped). */
  boolean(field: Field | undefined, { lenient = false } = {}): boolean | undefined {
    if (!field) return undefined;
    const v = isScalar(field.value) ? field.value.value : undefined;
    if (typeof v === "boolean") return v;
    const message = `"${field.key}" must be true or false, not ${describeValue(field.value)}`;
    if (lenient) this.report.warn(field.path, field.at, `${message}; it is ignored`);
    else this.report.error(field.path, field.at, message);
    return undefined;
  }

  integer(field: Field | undefined, min: number, max = Number.MAX_SAFE_INTEGER, unit = ""): number | undefined {
    if (!field) return undefined;
    const v = isScalar(field.value) ? field.value.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
    const range = max === Number.MAX_SAFE_INTEGER ? (min === 1 ? "a positive whole number" : `a whole number of at least ${min}`) : `a whole number from ${min} to ${max}`;
    this.report.error(field.path, field.at, `"${field.key}" must be ${range}${unit}, not ${describeValue(field.value)}`);
    return undefined;
  }

  map(field: Field | undefined, what: string): MapReader | undefined {
    if (!field) return undefined;
    if (!isMap(field.value)) {
      this.report.error(field.path, field.at, `"${field.key}" must be a map with ${what}, not ${describeValue(field.value)}`);
      return undefined;
    }
    return new MapReader(field.path, field.at, field.value, this.doc, this.report);
  }

  /** A list's items (strings only, with where each stands); a wrong item is reported as an error, or a warning with `lenient`. */
  strings(field: Field | undefined, what: string, { lenient = false } = {}): { value: string; at: number; path: string }[] | undefined {
    if (!field) return undefined;
    const problem = lenient ? this.report.warn.bind(this.report) : this.report.error.bind(this.report);
    const ignored = lenient ? "; it is ignored" : "";
    if (!isSeq(field.value)) {
      problem(field.path, field.at, `"${field.key}" must be a list of ${what}, not ${describeValue(field.value)}${ignored}`);
      return undefined;
    }
    const items: { value: string; at: number; path: string }[] = [];
    field.value.items.forEach((raw, i) => {
      const item = (isAlias(raw) ? raw.resolve(this.doc) : raw) as YamlNode | null;
      const path = `${field.path}[${i}]`;
      const at = startOf(raw) ?? field.at;
      if (isScalar(item) && typeof item.value === "string") items.push({ value: item.value, at, path });
      else problem(path, at, `each item of "${field.key}" must be a string (${what}), not ${describeValue(item)}${ignored}`);
    });
    return items;
  }
}

/** The path of the innermost YAML value at `offset` (for YAML syntax errors and warnings). */
export function pathAt(node: unknown, offset: number, path = ""): string {
  const inside = (n: unknown, from = rangeOf(n)?.[0]): boolean => from !== undefined && from <= offset && offset <= rangeOf(n)![1]!;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "?";
      if (inside(pair.value)) return pathAt(pair.value, offset, child(path, key));
      // From the key to the end of the value: the key, its tag or anchor, the value's first characters.
      if (inside(pair.key) || inside(pair.value, rangeOf(pair.key)?.[0])) return child(path, key);
    }
  }
  if (isSeq(node)) {
    const i = node.items.findIndex(inside);
    if (i !== -1) return pathAt(node.items[i], offset, `${path}[${i}]`);
  }
  return path;
}
