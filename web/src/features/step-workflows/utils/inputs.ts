/**
 * The start form of a step workflow, generated from its `inputs`: one field per declared input, and what the
 * analyst typed read back as the value of its type. Strings are sent as typed; numbers must read as one number;
 * a required boolean is a checkbox, an optional one a choice that can be left unset; objects and lists are written
 * as JSON. An optional field left empty is not sent at all, so the workflow sees the input as absent.
 */
import type { StepInputType, StepWorkflowInput } from "../../../lib/trpc";

export type InputControl = "text" | "number" | "checkbox" | "choice" | "json";

export interface InputField {
  name: string;
  type: StepInputType;
  optional: boolean;
  control: InputControl;
  /** What the field holds before anything is typed (a checkbox's "false", an optional choice's ""). */
  initial: string;
  hint: string;
}

const controlOf: Record<StepInputType, InputControl> = { string: "text", number: "number", boolean: "checkbox", object: "json", array: "json" };

const hintOf: Record<StepInputType, string> = {
  string: "Text.",
  number: "A number, such as 42 or 3.5.",
  boolean: "True or false.",
  object: 'A JSON object, such as {"country": "NL"}.',
  array: 'A JSON list, such as ["a", "b"].',
};

export function inputFields(inputs: readonly StepWorkflowInput[]): InputField[] {
  return inputs.map(({ name, type, optional }) => {
    const control = type === "boolean" && optional ? "choice" : controlOf[type];
    return { name, type, optional, control, initial: control === "checkbox" ? "false" : "", hint: `${hintOf[type]}${optional ? " Optional: leave it empty to leave it out." : ""}` };
  });
}

export type ParsedInput = { ok: true; value: unknown } | { ok: false; error: string };

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseJson(raw: string, type: "object" | "array"): ParsedInput {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const isList = Array.isArray(value);
  const isObject = typeof value === "object" && value !== null && !isList;
  if (type === "array" && !isList) return { ok: false, error: `Expected a JSON list ([...]), got ${kindOf(value)}.` };
  if (type === "object" && !isObject) return { ok: false, error: `Expected a JSON object ({...}), got ${kindOf(value)}.` };
  return { ok: true, value };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** One field's text as the value of its type; `undefined` for an optional field left empty (not sent). */
export function parseInput(field: Pick<InputField, "type" | "optional">, raw: string): ParsedInput {
  const text = field.type === "string" ? raw : raw.trim();
  if (text === "" && field.type !== "boolean") return field.optional ? { ok: true, value: undefined } : { ok: false, error: "Required." };
  switch (field.type) {
    case "string":
      return { ok: true, value: raw };
    case "number": {
      const value = Number(text);
      return NUMBER.test(text) && Number.isFinite(value) ? { ok: true, value } : { ok: false, error: `"${text}" is not a number: write digits, such as 42 or 3.5.` };
    }
    case "boolean":
      if (text === "") return field.optional ? { ok: true, value: undefined } : { ok: false, error: "Required." };
      return text === "true" || text === "false" ? { ok: true, value: text === "true" } : { ok: false, error: "Choose true or false." };
    case "object":
    case "array":
      return parseJson(text, field.type);
  }
}

export type ParsedInputs = { ok: true; inputs: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Every field read back: the inputs to send, or each field's error. */
export function parseInputs(fields: readonly InputField[], values: Readonly<Record<string, string>>): ParsedInputs {
  const inputs: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const parsed = parseInput(field, values[field.name] ?? field.initial);
    if (!parsed.ok) errors[field.name] = parsed.error;
    else if (parsed.value !== undefined) inputs[field.name] = parsed.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, inputs };
}
