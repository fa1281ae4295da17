/**
 * YAML text → a checked, normalised `WorkflowDefinition`, or every problem found, each located (path, line, column).
 * Pure: no I/O. The rules are those of the workflow YAML format; where a value is dropped with a warning, the
 * workflow still loads without it.
 */
import { type Document, LineCounter, type Node as YamlNode, type YAMLMap, isAlias, isMap, isSeq, parseDocument } from "yaml";
import { findCycles, reachableFrom } from "../../lib/cycles";
import { isPlainObject } from "../../lib/json";
import { parseCondition } from "./condition";
import { type LoadResult, type LocatedIssue, NODE_KINDS, type NodeKind, PROVIDERS, TRIGGER_RULES, WorkflowDefinition } from "./definition";
import { type Field, MapReader, Report, child, describeValue, pathAt, quoteList, startOf } from "./locatedYaml";
import { NODE_ID_PATTERN, type OutputReference, referenceText, referencesIn } from "./references";
import { shellReferencesIn } from "./shellReferences";

export interface LoadOptions {
  /** Whether `bash` and `script` nodes (and loops with `until_bash`) may load: the server's `WORKFLOW_SHELL=on`. Default false. */
  shellAllowed?: boolean;
}

const TOP_LEVEL_KEYS = new Set(["name", "description", "provider", "model", "interactive", "mutates_checkout", "tags", "nodes"]);
const COMMON_KEYS = new Set(["id", "depends_on", "when", "trigger_rule", "retry", "timeout", "output_type", "always_run"]);
/** Keys that only mean something to an AI node; `provider` and `model` are the ones this engine reads. */
const AI_ONLY_KEYS = new Set(["provider", "model", "system", "system_prompt", "temperature", "max_tokens", "top_p", "tools", "allowed_tools", "denied_tools", "output_format", "effort", "thinking"]);
const AI_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(["command", "prompt", "loop"]);
const SCRIPT_KEYS = new Set(["runtime", "deps"]);
/** Who decides an approval or answers an interactive loop's question, and by when: the decision rules every front door shares. */
const DECISION_KEYS = ["assignee", "approvals", "self_approval", "due_in", "on_overdue"] as const;
const LOOP_KEYS = new Set(["prompt", "until", "max_iterations", "fresh_context", "interactive", "gate_message", "until_bash", ...DECISION_KEYS]);
const APPROVAL_KEYS = new Set(["message", "capture_response", "on_reject", ...DECISION_KEYS]);
const ROLES = ["analyst", "reviewer", "operator"] as const;
const OVERDUE_OUTCOMES = ["approve", "reject", "cancel"] as const;
const ON_REJECT_KEYS = new Set(["prompt", "max_attempts"]);
const RETRY_KEYS = new Set(["max_attempts", "delay_ms", "on_error"]);
const MODES_TEXT = NODE_KINDS.join(", ");
const SHELL_REFUSED = "runs code on the server: such workflows are refused unless the server runs with WORKFLOW_SHELL=on";

const andList = (items: readonly string[]): string => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

/** A text of a node that may hold `$id.output` references. */
interface TextSite {
  text: string;
  path: string;
  at: number;
  shell: boolean;
}

/** One node as checked so far. */
interface NodeDraft {
  path: string;
  id?: string;
  idAt: number;
  label: string;
  kind?: NodeKind;
  /** The normalised fields (`kind` and `id` apart). */
  value: Record<string, unknown>;
  depends: { id: string; at: number; path: string }[];
  texts: TextSite[];
}

/** Reads the workflow's document into drafts, reporting as it goes. */
class Checker {
  constructor(
    private readonly doc: Document,
    private readonly report: Report,
    private readonly shellAllowed: boolean,
  ) {}

  private reader(path: string, map: YAMLMap): MapReader {
    return new MapReader(path, startOf(map) ?? 0, map, this.doc, this.report);
  }

  topLevel(map: YAMLMap): { top: Record<string, unknown>; nodes: NodeDraft[] } {
    const m = this.reader("", map);
    const top: Record<string, unknown> = {};
    top.name = m.string(m.required("name", "the workflow has no name: add `name:` with a non-empty string"), { nonEmpty: true });
    top.description = m.string(m.required("description", "the workflow has no description: add `description:` with a non-empty string"), { nonEmpty: true });
    top.provider = this.provider(m);
    top.model = m.string(m.get("model"));
    top.interactive = m.boolean(m.get("interactive"), { lenient: true });
    top.mutates_checkout = m.boolean(m.get("mutates_checkout"), { lenient: true });
    top.tags = m.strings(m.get("tags"), "tags", { lenient: true })?.map((t) => t.value);
    m.warnUnknown(TOP_LEVEL_KEYS, "the workflow");

    const nodesField = m.required("nodes", "the workflow has no nodes: add `nodes:` with a list of at least one node");
    const nodes: NodeDraft[] = [];
    if (nodesField && !isSeq(nodesField.value)) {
      this.report.error(nodesField.path, nodesField.at, `"nodes" must be a list of nodes, not ${describeValue(nodesField.value)}`);
    } else if (nodesField && isSeq(nodesField.value)) {
      if (nodesField.value.items.length === 0) this.report.error(nodesField.path, nodesField.at, "the workflow needs at least one node");
      nodesField.value.items.forEach((raw, i) => {
        const item = (isAlias(raw) ? raw.resolve(this.doc) : raw) as YamlNode | null;
        const path = `nodes[${i}]`;
        if (isMap(item)) nodes.push(this.node(this.reader(path, item), i));
        else this.report.error(path, startOf(raw) ?? nodesField.at, `a node must be a map with an id and one of ${MODES_TEXT}, not ${describeValue(item)}`);
      });
    }
    return { top, nodes };
  }

  private provider(m: MapReader): string | undefined {
    const field = m.get("provider");
    const v = m.string(field);
    if (field && v !== undefined && !(PROVIDERS as readonly string[]).includes(v)) {
      this.report.error(field.path, field.at, `unknown provider "${v}"; the known providers are ${quoteList(PROVIDERS)}`);
      return undefined;
    }
    return v;
  }

  private node(m: MapReader, index: number): NodeDraft {
    const draft: NodeDraft = { path: m.path, idAt: m.at, label: `node ${index + 1}`, value: {}, depends: [], texts: [] };
    const idField = m.required("id", `node ${index + 1} has no id: add \`id:\` with a name of letters, digits, _ and -`);
    const id = m.string(idField, { nonEmpty: true });
    if (idField && id !== undefined) {
      draft.idAt = idField.at;
      if (NODE_ID_PATTERN.test(id)) {
        draft.id = id;
        draft.label = `node "${id}"`;
      } else this.report.error(idField.path, idField.at, `id "${id}" must start with a letter or _ and hold only letters, digits, _ and -`);
    }

    const modes = NODE_KINDS.filter((kind) => m.has(kind));
    if (modes.length === 0) {
      this.report.error(m.path, m.at, `${draft.label} has none of ${MODES_TEXT}; a node has exactly one of them`);
    } else if (modes.length > 1) {
      const second = m.get(modes[1]!)!;
      const which = modes.length === 2 ? `both ${andList(modes)}` : andList(modes);
      this.report.error(second.path, second.keyAt, `${draft.label} has ${which}; a node has exactly one of ${MODES_TEXT}`);
    } else {
      draft.kind = modes[0]!;
      this.mode(m, draft, draft.kind, m.get(draft.kind)!);
    }

    this.common(m, draft);
    const known = new Set([...COMMON_KEYS, ...NODE_KINDS, ...(draft.kind === undefined || draft.kind === "script" ? SCRIPT_KEYS : []), ...AI_ONLY_KEYS]);
    m.warnUnknown(known, draft.label);
    return draft;
  }

  private text(draft: NodeDraft, field: Field | undefined, value: string | undefined, shell = false): void {
    if (field && value !== undefined) draft.texts.push({ text: value, path: field.path, at: field.at, shell });
  }

  private mode(m: MapReader, draft: NodeDraft, kind: NodeKind, field: Field): void {
    const v = draft.value;
    switch (kind) {
      case "command": {
        const name = m.string(field, { nonEmpty: true });
        if (name !== undefined && (/[/\\]/.test(name) || name.includes("..") || name.startsWith("."))) {
          this.report.error(field.path, field.at, `command "${name}" must be a command's name, without /, \\, .. or a leading .`);
        } else v.command = name;
        return;
      }
      case "prompt":
      case "cancel":
        v[kind] = m.string(field, { nonEmpty: true });
        return this.text(draft, field, v[kind] as string | undefined);
      case "bash":
        v.bash = m.string(field, { nonEmpty: true });
        this.text(draft, field, v.bash as string | undefined, true);
        if (!this.shellAllowed) this.report.error(field.path, field.at, `${draft.label} is a bash node, which ${SHELL_REFUSED}`);
        return;
      case "script":
        v.script = m.string(field, { nonEmpty: true });
        v.runtime = m.oneOf(m.required("runtime", `${draft.label} is a script node and needs runtime: bun or uv`), ["bun", "uv"] as const);
        v.deps = m.strings(m.get("deps"), "package names")?.map((d) => d.value);
        if (!this.shellAllowed) this.report.error(field.path, field.at, `${draft.label} is a script node, which ${SHELL_REFUSED}`);
        return;
      case "loop":
        v.loop = this.loop(m.map(field, "prompt, until and max_iterations"), draft);
        return;
      case "approval":
        v.approval = this.approval(m.map(field, "a message"), draft);
        return;
    }
  }

  private loop(m: MapReader | undefined, draft: NodeDraft): Record<string, unknown> | undefined {
    if (!m) return undefined;
    const promptField = m.required("prompt", "a loop needs a prompt: what the AI is asked at each iteration");
    const prompt = m.string(promptField, { nonEmpty: true });
    this.text(draft, promptField, prompt);
    const loop: Record<string, unknown> = {
      prompt,
      until: m.string(m.required("until", "a loop needs until: the signal that ends it"), { nonEmpty: true }),
      max_iterations: m.integer(m.required("max_iterations", "a loop needs max_iterations: a positive whole number"), 1),
      fresh_context: m.boolean(m.get("fresh_context")),
      interactive: m.boolean(m.get("interactive")),
      gate_message: m.string(m.get("gate_message"), { nonEmpty: true }),
    };
    const untilBash = m.get("until_bash");
    loop.until_bash = m.string(untilBash, { nonEmpty: true });
    this.text(draft, untilBash, loop.until_bash as string | undefined, true);
    if (untilBash && !this.shellAllowed) this.report.error(untilBash.path, untilBash.at, `${draft.label} has until_bash, a shell command, which ${SHELL_REFUSED}`);
    if (loop.interactive === true && !m.has("gate_message")) {
      this.report.error(child(m.path, "gate_message"), m.at, "an interactive loop needs gate_message: what the user is asked between iterations");
    }
    if (loop.interactive === true) Object.assign(loop, this.decisionRules(m));
    else for (const key of DECISION_KEYS) if (m.has(key)) this.report.error(child(m.path, key), m.get(key)!.keyAt, `${key} applies to an interactive loop only (nobody is asked anything by this loop)`);
    m.warnUnknown(LOOP_KEYS, `the loop of ${draft.label}`);
    return loop;
  }

  private approval(m: MapReader | undefined, draft: NodeDraft): Record<string, unknown> | undefined {
    if (!m) return undefined;
    const messageField = m.required("message", "an approval needs a message: what the user is asked to approve");
    const message = m.string(messageField, { nonEmpty: true });
    this.text(draft, messageField, message);
    const approval: Record<string, unknown> = { message, capture_response: m.boolean(m.get("capture_response")) };
    const reject = m.map(m.get("on_reject"), "a prompt");
    if (reject) {
      const promptField = reject.required("prompt", "on_reject needs a prompt: what the AI is asked when the user rejects");
      const prompt = reject.string(promptField, { nonEmpty: true });
      this.text(draft, promptField, prompt);
      approval.on_reject = { prompt, max_attempts: reject.integer(reject.get("max_attempts"), 1, 10) };
      reject.warnUnknown(ON_REJECT_KEYS, `on_reject of ${draft.label}`);
    }
    Object.assign(approval, this.decisionRules(m));
    m.warnUnknown(APPROVAL_KEYS, `the approval of ${draft.label}`);
    return approval;
  }

  /** `assignee`, `approvals`, `self_approval`, `due_in`, `on_overdue`: who decides, and by when. */
  private decisionRules(m: MapReader): Record<string, unknown> {
    const rules: Record<string, unknown> = {};
    const assigneeField = m.get("assignee");
    const assignee = m.string(assigneeField, { nonEmpty: true });
    if (assigneeField && assignee !== undefined) {
      if ((ROLES as readonly string[]).includes(assignee) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(assignee)) rules.assignee = assignee;
      else this.report.error(assigneeField.path, assigneeField.at, `assignee must be a role (${quoteList(ROLES)}) or an account's email; "${assignee}" is neither`);
    }
    rules.approvals = m.integer(m.get("approvals"), 1, 20);
    rules.self_approval = m.boolean(m.get("self_approval"));
    const dueField = m.get("due_in");
    const due = m.string(dueField, { nonEmpty: true });
    if (dueField && due !== undefined) {
      if (/^[1-9][0-9]{0,6}[smhd]$/.test(due)) rules.due_in = due;
      else this.report.error(dueField.path, dueField.at, `due_in must be a duration such as "90s", "30m", "4h" or "2d"; "${due}" is not one`);
    }
    const overdue = m.map(m.get("on_overdue"), "escalate, or outcome (and reason)");
    if (overdue) {
      const escalate = overdue.string(overdue.get("escalate"), { nonEmpty: true });
      const outcome = overdue.oneOf(overdue.get("outcome"), OVERDUE_OUTCOMES);
      const reason = overdue.string(overdue.get("reason"), { nonEmpty: true });
      if ((escalate === undefined) === (outcome === undefined)) {
        this.report.error(overdue.path, overdue.at, "on_overdue needs exactly one of escalate (a role or an email to hand it to) or outcome (approve, reject or cancel)");
      } else rules.on_overdue = escalate !== undefined ? { escalate } : { outcome, ...(reason !== undefined ? { reason } : {}) };
      overdue.warnUnknown(new Set(["escalate", "outcome", "reason"]), "on_overdue");
    }
    return Object.fromEntries(Object.entries(rules).filter(([, value]) => value !== undefined));
  }

  private common(m: MapReader, draft: NodeDraft): void {
    const v = draft.value;
    draft.depends = m.strings(m.get("depends_on"), "node ids")?.map((d) => ({ id: d.value, at: d.at, path: d.path })) ?? [];
    v.depends_on = draft.depends.map((d) => d.id);

    const whenField = m.get("when");
    const when = m.string(whenField, { nonEmpty: true });
    if (whenField && when !== undefined) {
      const parsed = parseCondition(when);
      if (parsed.ok) {
        v.when = when;
        this.text(draft, whenField, when);
      } else this.report.error(whenField.path, whenField.at, `"when" is not a valid condition: ${parsed.message}`);
    }

    v.trigger_rule = m.oneOf(m.get("trigger_rule"), TRIGGER_RULES);
    const retryField = m.get("retry");
    if (retryField && draft.kind === "loop") {
      this.report.error(retryField.path, retryField.keyAt, `${draft.label} is a loop: retry is not allowed on a loop node (it iterates up to max_iterations instead)`);
    } else v.retry = this.retry(m.map(retryField, "max_attempts"));
    v.timeout = m.integer(m.get("timeout"), 1, undefined, " (milliseconds)");
    v.output_type = m.string(m.get("output_type"));
    v.always_run = m.boolean(m.get("always_run"));

    for (const key of AI_ONLY_KEYS) {
      const field = m.get(key);
      if (!field) continue;
      if (draft.kind !== undefined && !AI_KINDS.has(draft.kind)) {
        this.report.warn(field.path, field.keyAt, `"${key}" only applies to AI nodes (command, prompt, loop); it is ignored on the ${draft.kind} ${draft.label}`);
      } else if (key === "provider") v.provider = this.provider(m);
      else if (key === "model") v.model = m.string(field);
      else this.report.warn(field.path, field.keyAt, `"${key}" is not supported on ${draft.label}; it is ignored`);
    }
  }

  private retry(m: MapReader | undefined): Record<string, unknown> | undefined {
    if (!m) return undefined;
    const retry = {
      max_attempts: m.integer(m.required("max_attempts", "retry needs max_attempts: 1 to 5"), 1, 5),
      delay_ms: m.integer(m.get("delay_ms"), 1000, 60_000, " (milliseconds)"),
      on_error: m.oneOf(m.get("on_error"), ["transient", "all"] as const),
    };
    m.warnUnknown(RETRY_KEYS, "retry");
    return retry;
  }
}

/** Ids, depends_on, cycles and references across nodes. */
function checkGraph(nodes: readonly NodeDraft[], report: Report): void {
  const byId = new Map<string, NodeDraft>();
  for (const node of nodes) {
    if (node.id === undefined) continue;
    const first = byId.get(node.id);
    if (first) {
      report.error(child(node.path, "id"), node.idAt, `duplicate node id "${node.id}": ${first.path} already has it; node ids must be unique`);
    } else byId.set(node.id, node);
  }

  const edges = new Map<string, string[]>();
  for (const node of nodes) {
    for (const dep of node.depends) {
      if (!byId.has(dep.id)) report.error(dep.path, dep.at, `depends_on names unknown node "${dep.id}"`);
      else if (node.id !== undefined && byId.get(node.id) === node) edges.set(node.id, [...(edges.get(node.id) ?? []), dep.id]);
    }
  }

  for (const cycle of findCycles([...byId.keys()], edges)) {
    const [first, second] = cycle as [string, string];
    const node = byId.get(first)!;
    const dep = node.depends.find((d) => d.id === second)!;
    const message = cycle.length === 2 ? `node "${first}" depends on itself` : `depends_on forms a cycle: ${cycle.join(" → ")} (each depends on the next)`;
    report.error(dep.path, dep.at, message);
  }

  for (const node of nodes) {
    const upstream = node.id === undefined ? new Set<string>() : reachableFrom(node.id, edges);
    for (const site of node.texts) {
      const seen = new Set<string>();
      const refs: OutputReference[] = site.shell ? shellReferencesIn(site.text) : referencesIn(site.text);
      for (const ref of refs) {
        const text = referenceText(ref);
        if (seen.has(text)) continue;
        seen.add(text);
        if (!byId.has(ref.nodeId)) report.error(site.path, site.at, `${text} refers to unknown node "${ref.nodeId}"`);
        else if (ref.nodeId === node.id) {
          const hint = node.kind === "loop" ? " ($LOOP_PREV_OUTPUT holds the previous iteration's)" : "";
          report.error(site.path, site.at, `${text} refers to ${node.label} itself; a node cannot read its own output${hint}`);
        } else if (node.id !== undefined && !upstream.has(ref.nodeId)) {
          report.warn(site.path, site.at, `${text} refers to node "${ref.nodeId}", which ${node.label} does not depend on (through depends_on), so its output may not be there yet when ${node.label} runs`);
        }
      }
    }
  }
}

const byPosition = (a: LocatedIssue, b: LocatedIssue): number => a.line - b.line || a.column - b.column;

/** Drops the keys whose value is undefined, so that zod fills defaults and the definition has no empty keys. */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, isPlainObject(v) ? defined(v) : v]),
  );
}

/** A workflow's YAML text, checked: the normalised definition, or all its problems. Warnings either way. */
export function loadWorkflow(yamlText: string, options: LoadOptions = {}): LoadResult {
  const lines = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lines, prettyErrors: false });
  const report = new Report(lines);
  for (const warning of doc.warnings) report.warn(pathAt(doc.contents, warning.pos[0]), warning.pos[0], `YAML: ${warning.message}`);
  if (doc.errors.length > 0) {
    for (const error of doc.errors) report.error(pathAt(doc.contents, error.pos[0]), error.pos[0], `YAML syntax error: ${error.message}`);
    return { ok: false, issues: report.errors.sort(byPosition), warnings: report.warnings.sort(byPosition) };
  }
  if (!isMap(doc.contents)) {
    const what = doc.contents === null ? "empty" : describeValue(doc.contents as YamlNode);
    report.error("", startOf(doc.contents) ?? 0, `a workflow must be a map with name, description and nodes; this document is ${what}`);
    return { ok: false, issues: report.errors, warnings: report.warnings.sort(byPosition) };
  }

  const { top, nodes } = new Checker(doc, report, options.shellAllowed ?? false).topLevel(doc.contents);
  checkGraph(nodes, report);
  const warnings = report.warnings.sort(byPosition);
  if (report.errors.length > 0) return { ok: false, issues: report.errors.sort(byPosition), warnings };

  const parsed = WorkflowDefinition.safeParse(defined({ ...top, nodes: nodes.map((n) => ({ id: n.id, kind: n.kind, ...n.value })) }));
  if (parsed.success) return { ok: true, definition: parsed.data, warnings };
  // Not expected (every field was checked above); located as well as the path allows.
  for (const issue of parsed.error.issues) {
    const segments = issue.path.filter((s): s is string | number => typeof s !== "symbol");
    const path = segments.reduce<string>((p, s) => (typeof s === "number" ? `${p}[${s}]` : child(p, s)), "");
    let at: number | undefined;
    for (let n = segments.length; at === undefined && n >= 0; n--) at = startOf(doc.getIn(segments.slice(0, n), true));
    report.error(path, at ?? 0, issue.message);
  }
  return { ok: false, issues: report.errors.sort(byPosition), warnings };
}

/** Issues as lines for a person: `12:7 nodes[2].depends_on[0]: depends_on names unknown node "x"`. */
export function describeIssues(issues: readonly LocatedIssue[]): string[] {
  return issues.map((issue) => `${issue.line}:${issue.column}${issue.path ? ` ${issue.path}` : ""}: ${issue.message}`);
}
