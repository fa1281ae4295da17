/**
 * One readable Markdown document per artifact, for the export bundle.
 *
 * Files are named by the step's place in the pipeline and what it holds, so they sort in pipeline order:
 * `01-requirements.md`, `02-inception.md`, `03-user-stories.md`, `04-diagrams.md`, `05-pseudocode.md`,
 * `06-test-cases.md`; an artifact type outside the six is named after itself. The version is in the header, never in
 * the name, where it read like an item id (REQ-004). Headers name the step as people call it ("User stories"), not
 * the artifact type's slug.
 *
 * What must hold: rendering never throws. Real n8n agents return shapes of their own, so every known
 * section checks the shape it gets and falls back to a generic rendering (headings for objects, bullets for
 * lists, tables for lists of flat objects) for anything else, including fields no schema names.
 */
import { ARTIFACT_TYPES } from "../artifacts";
import { isPlainObject } from "../../lib/json";

const KNOWN: Record<string, { name: string; title: string }> = {
  requirements: { name: "requirements", title: "Requirements" },
  inception: { name: "inception", title: "Inception" },
  agile: { name: "user-stories", title: "User stories" },
  diagramacion: { name: "diagrams", title: "Diagrams" },
  pseudocodigo: { name: "pseudocode", title: "Pseudocode" },
  qa: { name: "test-cases", title: "Test cases" },
};

function describeType(artifactType: string): { name: string; title: string } {
  const known = KNOWN[artifactType];
  if (known) return known;
  const name = artifactType.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "artifact";
  return { name, title: humanize(artifactType) || "Artifact" };
}

/** "01-requirements.md": the step's position in the pipeline (from 1), then what the artifact is. */
export function artifactFileName(artifactType: string, position: number): string {
  return `${String(Math.max(0, Math.trunc(position))).padStart(2, "0")}-${describeType(artifactType).name}.md`;
}

/** Pipeline order for known types, then the others by name: the order files appear in a bundle. */
export function artifactOrder(artifactType: string): number {
  const index = (ARTIFACT_TYPES as readonly string[]).indexOf(artifactType);
  return index >= 0 ? index : ARTIFACT_TYPES.length;
}

/** The title a step's document carries when the pipeline does not name the step. */
export function artifactTitle(artifactType: string): string {
  return describeType(artifactType).title;
}

export interface MarkdownInput {
  artifact_type: string;
  version: number;
  created_at: string;
  /** The stored content: the agent's envelope `{ artifact, changes_made, justification }`, or a bare artifact. */
  content: unknown;
  run_id?: string;
  /** The step as the pipeline names it ("User stories") and its place (1 for the first); else the type's own title. */
  step?: { name: string; position: number; of: number };
  /** What made this version, in words (provenance.ts `MadeBy`). */
  made_by?: { label: string; detail: string };
  /** This version's approvals, with each reviewer's comment. */
  approvals?: readonly { by: string | null; at: string; comment: string | null }[];
}

// ---- Markdown primitives ----------------------------------------------------------------------------

type Lines = string[];

function humanize(key: string): string {
  if (/^id$/i.test(key)) return "ID";
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}


function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || ["string", "number", "boolean"].includes(typeof value);
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Text for one line (bullets, headings): line breaks become spaces. */
function inline(value: unknown): string {
  return scalarText(value).replace(/\s*\r?\n\s*/g, " ").trim();
}

/** Text for a table cell: pipes escaped, line breaks as <br>, short lists joined. */
function cell(value: unknown): string {
  const text = Array.isArray(value) ? value.map((item) => (isScalar(item) ? scalarText(item) : itemLabel(item))).join("; ") : isScalar(value) ? scalarText(value) : JSON.stringify(value);
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>").trim();
}

function heading(level: number, text: string): string {
  return `${"#".repeat(Math.min(6, Math.max(1, level)))} ${inline(text)}`;
}

/** A fence longer than any backtick run inside, so agent text cannot close it early. */
function fenced(language: string, code: string): Lines {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}`, code.replace(/\s+$/, ""), fence];
}

function table(columns: string[], rows: unknown[][], headers: string[] = columns.map(humanize)): Lines {
  return [`| ${headers.map(cell).join(" | ")} |`, `| ${columns.map(() => "---").join(" | ")} |`, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)];
}

/** The short name of an item of any shape. */
function itemLabel(item: unknown): string {
  if (isScalar(item)) return inline(item);
  if (Array.isArray(item)) return item.map(itemLabel).join(", ");
  const record = isPlainObject(item) ? item : {};
  const id = isScalar(record.id) ? inline(record.id) : "";
  for (const key of ["title", "name", "risk", "capability", "description", "text", "summary"]) {
    if (typeof record[key] === "string" && record[key] !== "") return id ? `${id} ${inline(record[key])}` : inline(record[key]);
  }
  if (id) return id;
  const json = JSON.stringify(record);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

/** A heading for an item: its id and name when it has them, else the fallback ("Item 3"), never raw JSON. */
function itemTitle(item: unknown, fallback: string): string {
  if (!isPlainObject(item)) return itemLabel(item) || fallback;
  const hasName = ["id", "title", "name", "risk", "capability", "description", "text", "summary"].some((key) => isScalar(item[key]) && item[key] !== undefined && item[key] !== "");
  return hasName ? itemLabel(item) : fallback;
}

/** Lists of flat objects read best as tables; anything nested does not. */
function isTabular(items: unknown[]): items is Record<string, unknown>[] {
  return (
    items.length > 0 &&
    items.every((item) => isPlainObject(item) && Object.values(item).every((value) => isScalar(value) || (Array.isArray(value) && value.every(isScalar))))
  );
}

function columnsOf(items: Record<string, unknown>[], preferred: string[] = []): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) seen.add(key);
  return [...preferred.filter((key) => seen.has(key)), ...[...seen].filter((key) => !preferred.includes(key))];
}

const MAX_DEPTH = 6;

/** Any JSON value as Markdown: what every section falls back to. */
function generic(value: unknown, level: number, depth = 0): Lines {
  if (depth > MAX_DEPTH) return fenced("json", JSON.stringify(value, null, 2));
  if (value === null || value === undefined || value === "") return ["_(empty)_"];
  if (typeof value === "string") return value.includes("\n") ? value.split(/\r?\n/) : [value];
  if (isScalar(value)) return [scalarText(value)];
  if (Array.isArray(value)) {
    if (value.length === 0) return ["_(none)_"];
    if (value.every(isScalar)) return value.map((item) => `- ${inline(item)}`);
    if (isTabular(value)) {
      const columns = columnsOf(value, ["id", "name", "title"]);
      return table(columns, value.map((item) => columns.map((column) => item[column])));
    }
    return value.flatMap((item, index) => {
      if (isScalar(item)) return [`- ${inline(item)}`, ""];
      return [heading(level, itemTitle(item, `Item ${index + 1}`)), "", ...generic(item, level + 1, depth + 1), ""];
    });
  }
  const record = isPlainObject(value) ? value : {};
  // Short lists of plain values ("FR-001, FR-004") read better on one line than under a heading of their own.
  const short = (item: unknown): item is unknown[] => Array.isArray(item) && item.length > 0 && item.every(isScalar) && item.map(scalarText).join(", ").length <= 120;
  const flat = Object.entries(record).filter(([, item]) => isScalar(item) || short(item));
  const nested = Object.entries(record).filter(([, item]) => !isScalar(item) && !short(item));
  const lines: Lines = flat.map(([key, item]) => `- **${humanize(key)}:** ${(short(item) ? item.map(inline).join(", ") : inline(item)) || "_(empty)_"}`);
  for (const [key, item] of nested) {
    if (lines.length > 0) lines.push("");
    lines.push(heading(level, humanize(key)), "", ...generic(item, level + 1, depth + 1));
  }
  return lines.length > 0 ? lines : ["_(empty)_"];
}

// ---- sections ---------------------------------------------------------------------------------------

type Section = (value: unknown, level: number) => Lines;

function paragraph(value: unknown, level: number): Lines {
  return typeof value === "string" ? value.split(/\r?\n/) : generic(value, level);
}

function tableOr(preferred: string[]): Section {
  return (value, level) => {
    if (Array.isArray(value) && isTabular(value)) {
      const columns = columnsOf(value, preferred);
      return table(columns, value.map((item) => columns.map((column) => item[column])));
    }
    if (Array.isArray(value) && value.length > 0 && value.every((item) => isScalar(item) || isPlainObject(item))) {
      return value.map((item) => `- ${itemLabel(item)}`);
    }
    return generic(value, level);
  };
}

function bullets(value: unknown, level: number): Lines {
  if (Array.isArray(value) && value.length > 0 && value.every((item) => isScalar(item) || isPlainObject(item)) && !isTabular(value)) {
    return value.map((item) => `- ${itemLabel(item)}`);
  }
  return generic(value, level);
}

const requirementsTable = tableOr(["id", "title", "description"]);

function architecture(value: unknown, level: number): Lines {
  if (!isPlainObject(value)) return generic(value, level);
  const lines: Lines = [];
  for (const [key, item] of Object.entries(value)) {
    if (lines.length > 0) lines.push("");
    lines.push(heading(level, humanize(key)), "");
    lines.push(...(Array.isArray(item) && isTabular(item) ? tableOr(["name", "responsibility"])(item, level + 1) : generic(item, level + 1)));
  }
  return lines;
}

function stories(value: unknown, level: number): Lines {
  if (!Array.isArray(value)) return generic(value, level);
  const lines: Lines = [];
  const flat = value.filter(isPlainObject);
  if (flat.length > 0) {
    lines.push(...table(["id", "title", "priority", "story_points"], flat.map((story) => [story.id, story.title ?? story.i_want ?? "", story.priority ?? "", story.story_points ?? ""]), ["ID", "Title", "Priority", "Points"]), "");
  }
  for (const story of value) {
    if (!isPlainObject(story)) {
      lines.push(`- ${itemLabel(story)}`, "");
      continue;
    }
    lines.push(heading(level, itemTitle(story, "User story")), "");
    if (typeof story.story === "string") lines.push(`> ${inline(story.story)}`, "");
    const rest = Object.fromEntries(Object.entries(story).filter(([key]) => !["id", "title", "story", "acceptance_criteria"].includes(key)));
    if (Object.keys(rest).length > 0) lines.push(...generic(rest, level + 1), "");
    if (story.acceptance_criteria !== undefined) {
      lines.push("**Acceptance criteria**", "", ...bullets(story.acceptance_criteria, level + 1), "");
    }
  }
  return lines;
}

function epics(value: unknown, level: number): Lines {
  if (!Array.isArray(value)) return generic(value, level);
  return value.flatMap((epic, index) => {
    if (!isPlainObject(epic)) return [`- ${itemLabel(epic)}`, ""];
    const storyList = epic.user_stories ?? epic.stories;
    const rest = Object.fromEntries(Object.entries(epic).filter(([key]) => !["id", "title", "description", "user_stories", "stories"].includes(key)));
    return [
      heading(level, itemTitle(epic, `Epic ${index + 1}`)),
      "",
      ...(typeof epic.description === "string" ? [epic.description, ""] : []),
      ...(Object.keys(rest).length > 0 ? [...generic(rest, level + 1), ""] : []),
      ...(storyList !== undefined ? stories(storyList, level + 1) : []),
    ];
  });
}

function entityModel(value: unknown, level: number): Lines {
  if (!isPlainObject(value) || !Array.isArray(value.entities)) return generic(value, level);
  const lines: Lines = [heading(level, "Entities"), ""];
  for (const entity of value.entities) {
    if (!isPlainObject(entity)) {
      lines.push(`- ${itemLabel(entity)}`, "");
      continue;
    }
    lines.push(heading(level + 1, itemTitle(entity, "Entity")), "");
    const attributes = entity.attributes;
    if (Array.isArray(attributes) && attributes.length > 0) {
      const rows = attributes.map((attribute) => (isPlainObject(attribute) ? [attribute.name, attribute.type ?? "", attribute.key ?? ""] : [attribute, "", ""]));
      lines.push(...table(["name", "type", "key"], rows, ["Attribute", "Type", "Key"]), "");
    }
    const rest = Object.fromEntries(Object.entries(entity).filter(([key]) => !["name", "attributes"].includes(key)));
    if (Object.keys(rest).length > 0) lines.push(...generic(rest, level + 2), "");
  }
  if (value.relationships !== undefined) {
    lines.push(heading(level, "Relationships"), "", ...tableOr(["from", "to", "cardinality", "label"])(value.relationships, level + 1), "");
  }
  const rest = Object.fromEntries(Object.entries(value).filter(([key]) => !["entities", "relationships"].includes(key)));
  if (Object.keys(rest).length > 0) lines.push(...generic(rest, level));
  return lines;
}

/** Mermaid source inside a ```mermaid block, without any fence the agent put around it. */
function mermaid(value: unknown, level: number): Lines {
  if (typeof value !== "string") return generic(value, level);
  const source = value.replace(/^\s*```\s*mermaid\s*\n?/i, "").replace(/\n?\s*```\s*$/, "");
  return fenced("mermaid", source);
}

function pseudocode(value: unknown, level: number): Lines {
  const entries: [string, unknown][] = isPlainObject(value)
    ? Object.entries(value)
    : Array.isArray(value)
      ? value.map((entry, index) => {
          const record = isPlainObject(entry) ? entry : {};
          const id = record.user_story_id ?? record.story_id ?? record.id ?? `Entry ${index + 1}`;
          return [inline(id), record.pseudocode ?? record.code ?? entry];
        })
      : [];
  if (entries.length === 0) return generic(value, level);
  return entries.flatMap(([id, code]) => [
    heading(level, id),
    "",
    ...(typeof code === "string" ? fenced("text", code) : Array.isArray(code) && code.every((line) => typeof line === "string") ? fenced("text", code.join("\n")) : generic(code, level + 1)),
    "",
  ]);
}

function testCase(testCaseValue: unknown, level: number, index: number): Lines {
  if (!isPlainObject(testCaseValue)) return [`- ${itemLabel(testCaseValue)}`, ""];
  const lines: Lines = [heading(level, itemTitle(testCaseValue, `Test case ${index + 1}`)), ""];
  const { preconditions, steps, expected_result: expected } = testCaseValue;
  const rest = Object.fromEntries(Object.entries(testCaseValue).filter(([key]) => !["id", "title", "preconditions", "steps", "expected_result"].includes(key)));
  if (Object.keys(rest).length > 0) lines.push(...generic(rest, level + 1), "");
  if (preconditions !== undefined) lines.push("**Preconditions**", "", ...bullets(preconditions, level + 1), "");
  if (Array.isArray(steps) && steps.every((step) => isScalar(step) || isPlainObject(step))) {
    lines.push("**Steps**", "", ...steps.map((step, index) => `${index + 1}. ${itemLabel(step)}`), "");
  } else if (steps !== undefined) {
    lines.push("**Steps**", "", ...generic(steps, level + 1), "");
  }
  if (expected !== undefined) lines.push(`**Expected result:** ${isScalar(expected) ? inline(expected) : JSON.stringify(expected)}`, "");
  return lines;
}

function testSuites(value: unknown, level: number): Lines {
  if (!Array.isArray(value)) return generic(value, level);
  return value.flatMap((suite, index) => {
    if (!isPlainObject(suite)) return [`- ${itemLabel(suite)}`, ""];
    const cases = Array.isArray(suite.test_cases) ? suite.test_cases : Array.isArray(suite.cases) ? suite.cases : undefined;
    const rest = Object.fromEntries(Object.entries(suite).filter(([key]) => !["id", "name", "title", "description", "test_cases", "cases"].includes(key)));
    const lines: Lines = [heading(level, itemTitle(suite, `Suite ${index + 1}`)), ""];
    if (typeof suite.description === "string") lines.push(suite.description, "");
    if (Object.keys(rest).length > 0) lines.push(...generic(rest, level + 1), "");
    if (cases) {
      const flat = cases.filter(isPlainObject);
      if (flat.length > 0) {
        lines.push(
          ...table(
            ["id", "title", "user_story_id", "type", "priority", "expected_result"],
            flat.map((testCaseValue) => [testCaseValue.id, testCaseValue.title ?? testCaseValue.name ?? "", testCaseValue.user_story_id ?? "", testCaseValue.type ?? "", testCaseValue.priority ?? "", testCaseValue.expected_result ?? ""]),
            ["ID", "Title", "Story", "Type", "Priority", "Expected result"],
          ),
          "",
        );
      }
      lines.push(...cases.flatMap((testCaseValue, index) => testCase(testCaseValue, level + 1, index)));
    } else if (suite.test_cases !== undefined) {
      lines.push(...generic(suite.test_cases, level + 1), "");
    }
    return lines;
  });
}

const SECTIONS: Record<string, [field: string, title: string, render: Section][]> = {
  requirements: [
    ["problem_statement_refined", "Problem statement", paragraph],
    ["identified_domains", "Identified domains", bullets],
    ["core_capabilities", "Core capabilities", tableOr(["id", "name", "description", "actor"])],
    ["external_dependencies", "External dependencies", tableOr(["name", "purpose"])],
    ["assumptions", "Assumptions", bullets],
  ],
  inception: [
    ["product_vision", "Product vision", paragraph],
    ["scope_in", "In scope", bullets],
    ["scope_out", "Out of scope", bullets],
    ["stakeholders", "Stakeholders", tableOr(["name", "interest"])],
    ["high_level_architecture", "High-level architecture", architecture],
    ["risk_matrix", "Risk matrix", tableOr(["id", "risk", "probability", "impact", "mitigation"])],
    ["functional_requirements", "Functional requirements", requirementsTable],
    ["non_functional_requirements", "Non-functional requirements", requirementsTable],
  ],
  agile: [["epics", "Epics", epics]],
  diagramacion: [
    ["entity_relationship_model", "Entity-relationship model", entityModel],
    ["mermaid_sequence_diagram", "Sequence diagram", mermaid],
  ],
  pseudocodigo: [["user_story_pseudocode", "Pseudocode by user story", pseudocode]],
  qa: [["test_suites", "Test suites", testSuites]],
};

/** A section that fails on an unexpected shape is rendered generically instead: the document always renders. */
function safely(render: Section, value: unknown, level: number): Lines {
  try {
    return render(value, level);
  } catch {
    try {
      return generic(value, level);
    } catch {
      return fenced("json", String(JSON.stringify(value, null, 2)));
    }
  }
}

function artifactBody(artifactType: string, artifact: unknown): Lines {
  if (!isPlainObject(artifact)) return safely(generic, artifact, 2);
  const lines: Lines = [];
  const known = SECTIONS[artifactType] ?? [];
  for (const [field, title, render] of known) {
    if (!(field in artifact)) continue;
    lines.push(heading(2, title), "", ...safely(render, artifact[field], 3), "");
  }
  for (const [field, value] of Object.entries(artifact)) {
    if (known.some(([name]) => name === field)) continue;
    lines.push(heading(2, humanize(field)), "", ...safely(generic, value, 3), "");
  }
  return lines;
}

/** Who approved the version, when, and each comment quoted under its approval. */
function approvalsSection(approvals: NonNullable<MarkdownInput["approvals"]>): Lines {
  if (approvals.length === 0) return [];
  const lines: Lines = [heading(2, "Approval"), ""];
  for (const approval of approvals) {
    lines.push(`- Approved by ${inline(approval.by ?? "an unnamed reviewer")} on ${inline(approval.at)}${approval.comment ? ":" : " (no comment)"}`);
    if (approval.comment) lines.push(...approval.comment.split(/\r?\n/).map((line) => `  > ${line}`.trimEnd()));
  }
  return [...lines, ""];
}

/** A part's address at the start of a change line, as a person says it: "core_capabilities[CAP-001].description: ..." -> "CAP-001 description: ...". */
const LEADING_ANCHOR = /^([a-z_]+(?:\[[^\]]+\])*(?:\.[a-z_]+(?:\[[^\]]+\])*)*)(?::([LP])(\d+))?(:\s|$)/;

export function readableAnchors(line: string): string {
  const match = LEADING_ANCHOR.exec(line);
  if (!match?.[1]) return line;
  const path = match[1];
  const ids = [...path.matchAll(/\[([^\]]+)\]/g)].map((found) => found[1] ?? "");
  const lastId = ids.at(-1);
  const afterId = lastId ? path.slice(path.lastIndexOf(`[${lastId}]`) + lastId.length + 2) : path;
  const fields = afterId.split(".").filter(Boolean).map((field) => humanize(field).toLowerCase());
  const base = [lastId, ...fields].filter(Boolean).join(" ");
  const named = lastId ? base : humanize(path.replace(/\./g, " "));
  const where = match[2] ? `${match[2] === "L" ? "line" : "paragraph"} ${match[3]} of ${named}` : named;
  return `${where.charAt(0).toUpperCase()}${where.slice(1)}${match[4] ?? ""}${line.slice(match[0].length)}`;
}

function changesSection(changes: unknown): Lines {
  if (!isPlainObject(changes)) return changes === undefined ? [] : [heading(2, "Changes in this version"), "", ...safely(generic, changes, 3), ""];
  const lines: Lines = [heading(2, "Changes in this version"), ""];
  for (const [kind, items] of Object.entries(changes)) {
    if (Array.isArray(items) && items.length === 0) continue;
    lines.push(`**${humanize(kind)}**`, "", ...(Array.isArray(items) ? items.map((item) => `- ${readableAnchors(itemLabel(item))}`) : safely(generic, items, 3)), "");
  }
  return lines.length > 2 ? lines : [];
}

export function renderArtifactMarkdown(input: MarkdownInput): string {
  const title = input.step?.name ?? describeType(input.artifact_type).title;
  const content = input.content;
  const isEnvelope = isPlainObject(content) && "artifact" in content;
  const artifact = isEnvelope ? content.artifact : content;
  const lines: Lines = [
    heading(1, input.step ? `${String(input.step.position).padStart(2, "0")} ${title}` : title),
    "",
    ...(input.step ? [`- **Step:** ${input.step.position} of ${input.step.of}, ${inline(title)}`] : []),
    `- **Version:** ${input.version}`,
    ...(input.made_by ? [`- **Made by:** ${inline(input.made_by.label)}. ${inline(input.made_by.detail)}`] : []),
    `- **Created:** ${inline(input.created_at)}`,
    ...(input.run_id ? [`- **Run:** ${inline(input.run_id)}`] : []),
    "",
    ...artifactBody(input.artifact_type, artifact),
  ];
  if (isEnvelope) {
    lines.push(...changesSection(content.changes_made));
    if (content.justification !== undefined && content.justification !== "") {
      lines.push(heading(2, "Justification"), "", ...safely(paragraph, content.justification, 3), "");
    }
    // comment_outcomes answer the review round before this version, and the justification says them in words: as a
    // table they were stale "Done: false" rows with raw anchors.
    const extras = Object.fromEntries(Object.entries(content).filter(([key]) => !["artifact", "changes_made", "justification", "comment_outcomes"].includes(key)));
    if (Object.keys(extras).length > 0) lines.push(heading(2, "Other fields"), "", ...safely(generic, extras, 3), "");
  }
  lines.push(...approvalsSection(input.approvals ?? []));
  // Blank lines are collapsed between elements only; code blocks are single elements and keep theirs.
  const compact = lines.filter((line, index) => !(line === "" && (index === 0 || lines[index - 1] === "")));
  return `${compact.join("\n").trim()}\n`;
}
