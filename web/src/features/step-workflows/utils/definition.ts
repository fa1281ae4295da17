/**
 * A stored definition as a person reads it. The server keeps definitions as JSONB, which orders an object's keys by
 * their length; shown as stored, `steps` would come before `inputs` and a step's `tool` after its `params`. This puts
 * the fields back in the order the format is written in (unknown fields after them, as stored).
 */

import { isRecord } from "../../../lib/json";

const TOP = ["id", "name", "version", "description", "inputs", "steps", "outputs"];
const INPUT = ["name", "type", "optional"];
const STEP = ["id", "tool", "depends_on", "params", "retries", "timeout_ms"];


function ordered(value: unknown, order: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const keys = [...order.filter((key) => key in value), ...Object.keys(value).filter((key) => !order.includes(key))];
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}

const each = (value: unknown, order: readonly string[]) => (Array.isArray(value) ? value.map((item) => ordered(item, order)) : value);

/** The definition pretty-printed with its fields in the format's order. */
export function definitionText(definition: unknown): string {
  const top = ordered(definition, TOP);
  const shown = isRecord(top) ? { ...top, ...("inputs" in top ? { inputs: each(top.inputs, INPUT) } : {}), ...("steps" in top ? { steps: each(top.steps, STEP) } : {}) } : top;
  return `${JSON.stringify(shown, null, 2)}\n`;
}

/** A record's entries by name, so that values stored as JSONB read in a stable, findable order. */
export const byName = (values: Record<string, unknown>): [string, unknown][] => Object.entries(values).sort(([a], [b]) => a.localeCompare(b));
