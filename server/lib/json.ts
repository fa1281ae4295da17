/** JSON helpers with no dependencies, shared by every layer. */

/** JSON with object keys sorted: JSONB does not keep key order, so equality of stored values is checked on this form. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** True when two JSON values are equal as PostgreSQL's JSONB would store them (key order does not count). */
export const sameJson = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The first string or key in `value` (depth first) that `bad` holds for, with its path (`a.b.0`; `path` for `value`
 * itself). Recursive: callers bound the depth of untrusted values first (server/lib/inputCheck.ts).
 */
export function findString(value: unknown, bad: (text: string) => boolean, path = ""): { path: string; text: string } | undefined {
  if (typeof value === "string") return bad(value) ? { path, text: value } : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (bad(key)) return { path: here, text: key };
    const found = findString(inner, bad, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Where in `value` a string (or key) holds U+0000, which PostgreSQL cannot store in text or jsonb. */
export const nulPath = (value: unknown, path = ""): string | undefined => findString(value, (text) => text.includes("\u0000"), path)?.path;
