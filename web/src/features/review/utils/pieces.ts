/** A changed value's text in a line, for reading a diff. */

/** A value in a line: a text as it is, an item by its id and title, anything else as compact JSON. */
export function shortValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const id = record.id ?? record.story_id;
    const text = record.title ?? record.name ?? record.description ?? record.story;
    if (typeof text === "string") return typeof id === "string" || typeof id === "number" ? `${id}: ${text}` : text;
  }
  const json = JSON.stringify(value);
  return json.length > 300 ? `${json.slice(0, 299)}…` : json;
}
