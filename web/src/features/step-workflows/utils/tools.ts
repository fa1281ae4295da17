/** A tool's params as its JSON Schema describes them: each property's name and whether a step must give it. */

export interface ToolParam {
  name: string;
  required: boolean;
}

/** The named params, or null when the tool takes any object (no `properties`: `utils.echo`). */
export function paramsOf(schema: Record<string, unknown>): ToolParam[] | null {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  return Object.keys(properties).map((name) => ({ name, required: required.has(name) }));
}
