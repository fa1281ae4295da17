/**
 * The inspector's fields of each node kind, with the labels and help the manual gives them (docs/flows.md "Writing flows",
 * docs/review.md "Who decides, and by when"). A field reads its text from the node's `data` and writes what is typed back into it at
 * once, valid or not, so the draft keeps every keystroke; what is not valid yet is said under the field as it is
 * typed, and the check endpoint refuses it too, so a version is never saved with it.
 */
import type { NodeKind } from "./nodeKinds";

type Data = Record<string, unknown>;

export interface FieldSpec {
  /** Unique within a node's fields: the undo group of its typing, and the problems' `field` it answers to. */
  key: string;
  label: string;
  help: string;
  control: "text" | "textarea" | "select";
  options?: { value: string; label: string }[];
  get(data: Data): string;
  set(data: Data, text: string): Data;
  /** What is wrong with the text, said as it is typed; null when it is fine. */
  problem(text: string, data: Data): string | null;
}

function without(data: Data, key: string): Data {
  const { [key]: _, ...rest } = data;
  return rest;
}

const textOf = (value: unknown): string => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** A top-level key of `data` that holds text (absent when empty unless `keepEmpty`). */
function textField(key: string, label: string, help: string, problem: (text: string) => string | null = () => null, control: FieldSpec["control"] = "text", keepEmpty = false): FieldSpec {
  return {
    key, label, help, control,
    get: (data) => textOf(data[key]),
    set: (data, text) => (text === "" && !keepEmpty ? without(data, key) : { ...data, [key]: text }),
    problem: (text) => (text === "" ? null : problem(text)),
  };
}

/** A whole number between `min` and `max`, kept as a number once it is one (and as the typed text until then). */
const wholeNumber = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text);
function numberProblem(min: number, max: number, what: string) {
  return (text: string) => {
    const value = wholeNumber(text);
    return typeof value === "number" && value >= min && value <= max ? null : what;
  };
}

function numberField(key: string, label: string, help: string, min: number, max: number, what: string): FieldSpec {
  return {
    key, label, help, control: "text",
    get: (data) => textOf(data[key]),
    set: (data, text) => (text.trim() === "" ? without(data, key) : { ...data, [key]: wholeNumber(text) }),
    problem: (text) => (text.trim() === "" ? null : numberProblem(min, max, what)(text)),
  };
}

function retryPart(part: "maxAttempts" | "backoffMs", label: string, help: string, min: number, max: number, what: string): FieldSpec {
  const retryOf = (data: Data): Data => (typeof data.retry === "object" && data.retry !== null ? (data.retry as Data) : {});
  return {
    key: `retry.${part}`, label, help, control: "text",
    get: (data) => textOf(retryOf(data)[part]),
    set: (data, text) => {
      const retry = text.trim() === "" ? without(retryOf(data), part) : { ...retryOf(data), [part]: wholeNumber(text) };
      return Object.keys(retry).length ? { ...data, retry } : without(data, "retry");
    },
    problem: (text, data) => {
      if (text.trim() === "") return part === "maxAttempts" && retryOf(data).backoffMs !== undefined ? "Say how many attempts in all, or clear the wait too." : null;
      return numberProblem(min, max, what)(text);
    },
  };
}

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

/** The keys of a Worker's `data` that the engine reads; everything else reaches the worker as its config. */
const WORKER_KEYS = new Set(["label", "webhookUrl", "timeoutMs", "retry", "answer", "executor", "protocol", "leaseMs", "loop", "triggerRule", "alwaysRun"]);

const configField: FieldSpec = {
  key: "config", label: "Config sent to the worker", control: "textarea",
  help: "A JSON object: everything else in the node's data reaches the worker as `config`.",
  get: (data) => {
    const config = Object.fromEntries(Object.entries(data).filter(([k]) => !WORKER_KEYS.has(k)));
    return Object.keys(config).length ? JSON.stringify(config, null, 2) : "";
  },
  set: (data, text) => {
    const own = Object.fromEntries(Object.entries(data).filter(([k]) => WORKER_KEYS.has(k)));
    const config = parseObject(text);
    // Text that is not an object yet is kept under `config`, where the check names it, until it is one.
    return config ? { ...own, ...config } : text.trim() === "" ? own : { ...own, config: text };
  },
  problem: (text) => (text.trim() === "" || parseObject(text) ? null : "A JSON object, such as {\"language\": \"en\"}."),
};

function parseObject(text: string): Data | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : null;
  } catch {
    return null;
  }
}

const labelField = textField("label", "Name", "What the node is called on the canvas and in the run's conversation.");

const workerFields: FieldSpec[] = [
  labelField,
  {
    ...textField("webhookUrl", "Webhook URL", "Where Stitch POSTs the node's work (an http or https URL).", (text) => (isHttpUrl(text) ? null : "An http or https URL, such as https://worker.example/summarize.")),
    problem: (text) => (text === "" ? "Required: where the worker listens." : isHttpUrl(text) ? null : "An http or https URL, such as https://worker.example/summarize."),
  },
  numberField("timeoutMs", "Timeout (ms)", "The attempt fails if no callback arrives within it.", 1, Number.MAX_SAFE_INTEGER, "A positive whole number of milliseconds."),
  retryPart("maxAttempts", "Retry: attempts in all", "A failed attempt is fired again until these are spent (1 to 100, the first included).", 1, 100, "A whole number from 1 to 100."),
  retryPart("backoffMs", "Retry: first wait (ms)", "The wait before the second attempt, doubled for each further one (0 to 3600000; 1000 if empty).", 0, 3_600_000, "A whole number from 0 to 3600000."),
  {
    key: "answer", label: "How the worker answers", control: "select",
    help: "\"In its response\": the worker may put its result in its answer to the dispatch instead of calling back.",
    options: [{ value: "", label: "By calling back (default)" }, { value: "callback", label: "By calling back" }, { value: "response", label: "In its response" }],
    get: (data) => textOf(data.answer),
    set: (data, text) => (text ? { ...data, answer: text } : without(data, "answer")),
    problem: () => null,
  },
  configField,
];

const ROLES = ["analyst", "reviewer", "operator"];
const isEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);

const OVERDUE_OUTCOMES = ["approve", "reject", "cancel"];
const overdueOf = (data: Data): Data => (typeof data.on_overdue === "object" && data.on_overdue !== null ? (data.on_overdue as Data) : {});

const gateFields = (asked: FieldSpec | null): FieldSpec[] => [
  labelField,
  ...(asked ? [asked] : []),
  textField("assignee", "Assignee", "Who decides: a role (reviewer, operator or analyst) or an account's email.", (text) => (ROLES.includes(text) || isEmail(text) ? null : "A role (reviewer, operator or analyst) or an email address.")),
  numberField("approvals", "Approvals needed", "How many distinct people must approve (1 to 20).", 1, 20, "A whole number from 1 to 20."),
  {
    key: "self_approval", label: "Self-approval", control: "select",
    help: "Whether whoever started the run may decide.",
    options: [{ value: "", label: "As the server decides (default)" }, { value: "true", label: "Allowed" }, { value: "false", label: "Not allowed" }],
    get: (data) => (typeof data.self_approval === "boolean" ? String(data.self_approval) : ""),
    set: (data, text) => (text ? { ...data, self_approval: text === "true" } : without(data, "self_approval")),
    problem: () => null,
  },
  textField("due_in", "Due in", "When the decision is due after the gate opens: such as 90s, 30m, 4h or 2d.", (text) => (/^[1-9][0-9]{0,6}[smhd]$/.test(text) ? null : "A duration such as 90s, 30m, 4h or 2d.")),
  {
    key: "on_overdue.kind", label: "When it is overdue", control: "select",
    help: "Hand the decision to someone else, or let the deadline decide.",
    options: [{ value: "", label: "Nothing happens" }, { value: "escalate", label: "Escalate to someone" }, ...OVERDUE_OUTCOMES.map((o) => ({ value: o, label: `Decide: ${o}` }))],
    get: (data) => (overdueOf(data).escalate !== undefined ? "escalate" : textOf(overdueOf(data).outcome)),
    set: (data, text) => {
      if (!text) return without(data, "on_overdue");
      const detail = textOf(overdueOf(data).escalate ?? overdueOf(data).reason);
      if (text === "escalate") return { ...data, on_overdue: { escalate: detail } };
      return { ...data, on_overdue: detail ? { outcome: text, reason: detail } : { outcome: text } };
    },
    problem: () => null,
  },
  {
    key: "on_overdue.detail", label: "Escalate to, or the deadline's reason", control: "text",
    help: "Escalating: a role or an email. Deciding: the reason recorded (optional).",
    get: (data) => textOf(overdueOf(data).escalate ?? overdueOf(data).reason),
    set: (data, text) => {
      const overdue = overdueOf(data);
      if (overdue.escalate !== undefined) return { ...data, on_overdue: { escalate: text } };
      if (overdue.outcome !== undefined) return { ...data, on_overdue: text ? { outcome: overdue.outcome, reason: text } : { outcome: overdue.outcome } };
      return data;
    },
    problem: (text, data) => (overdueOf(data).escalate !== undefined && !ROLES.includes(text) && !isEmail(text) ? "A role (reviewer, operator or analyst) or an email address." : null),
  },
];

const askedField = textField("prompt", "What the person is asked", "Shown to the person the gate waits for.", () => null, "textarea");

export const fieldsOf: Record<NodeKind, FieldSpec[]> = {
  worker: workerFields,
  ux: gateFields(askedField),
  review: gateFields(askedField),
  splitter: [
    labelField,
    textField("arrayPath", "Array path", "A dot path to the array in its input, such as items or result.rows (empty: the input itself).", () => null, "text", true),
  ],
  collector: [labelField],
};
