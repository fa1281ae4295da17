/**
 * Targeted revision: a reviewer's comments on parts of an artifact, applied by the built-in agents. Each comment
 * changes exactly the part its anchor names (an item, a field, a line of a text), read with the same directive reader
 * as general feedback but scoped to that part, and is reported back as done or not with what was done or why not.
 * Every part no comment names is left as it was (replaceAt copies only the path to the part).
 *
 * The agents supply only their own rules (where a new sub-item goes, how an item splits, what a new line looks like);
 * resolving anchors, editing one part, the outcome record and the justification live here.
 */
import { z } from "zod";
import { AnchorError, type ParsedAnchor, type Segment, anchorsOf, formatAnchor, itemSegments, parseAnchor, replaceAt, valueAt } from "../../review/anchors";
import { generalFeedback } from "../../review/feedback";
import { Anchor, type SentComment } from "../../review/schemas";
import type { Envelope } from "../artifacts";
import type { Changes } from "./drafts/shared";
import { type Directive, itemMatches, parseFeedback, replaceWording, revisionJustification, withoutIds } from "./feedback";
import type { AgentRequest } from "./request";
import { itemText, nextNumber } from "./text/items";
import { normalizeSpace, sentenceCase } from "./text/normalize";
import { isPlainObject } from "../../lib/json";

/** What an agent did with one comment: `done` only when every request in it was carried out. */
export const CommentOutcome = z.object({ anchor: Anchor, done: z.boolean(), message: z.string() });
export type CommentOutcome = z.infer<typeof CommentOutcome>;

/** An envelope's `comment_outcomes`, checked; undefined when it has none (an agent not answering comments). */
export function commentOutcomesOf(envelope: { [key: string]: unknown }): CommentOutcome[] | undefined {
  const parsed = z.array(CommentOutcome).safeParse(envelope.comment_outcomes);
  return parsed.success ? parsed.data : undefined;
}

type Json = Record<string, unknown>;

/** A revision in progress: the artifact (a record, edited in place at its top level), what changed, and what was done. */
export interface Revision<A> {
  artifact: A;
  changes: Changes;
  /** What was done with each request of the general feedback, for the justification. */
  outcomes: string[];
  comments: CommentOutcome[];
}

/** The part a comment or a scoped request is about, as found in the artifact now. */
export interface Part {
  anchor: string;
  parsed: ParsedAnchor;
  /** How messages name it: "CAP-001", "FR-002 description", "line 4 of US-003", "problem_statement_refined". */
  name: string;
  value: unknown;
}

/** An agent's answer to an edit: the new value and what it did, or why it could not. */
export type Edit<T> = { value: T; did: string } | { refused: string };

/** The type-specific rules an agent supplies; every one is optional, and a missing one is reported as not done. */
export interface PartRules<A> {
  /** Something asked for on an item ("add a late-fee criterion"): the item with it, and what was added where. */
  addToItem?: (item: Json, directive: Directive, part: Part) => Edit<Json>;
  /** Something asked for on a whole text (a pseudocode entry, the diagram source); else a sentence is appended. */
  addToText?: (text: string, directive: Directive, part: Part) => Edit<string>;
  /** The line to insert after the line commented on. */
  lineAfter?: (line: string, directive: Directive) => Edit<string>;
  /** Two items from one: the first keeps the item's id, the second takes `newId`. */
  splitItem?: (item: Json, directive: Directive, newId: string, artifact: A) => Edit<[Json, Json]>;
  /** Why an item must stay (the last story of a backlog); undefined when it may go. */
  keepItem?: (artifact: A, part: Part) => string | undefined;
}

export type Outcome = { done: boolean; message: string };

// ---- finding parts ----------------------------------------------------------------------------------------------

const segmentName = (segment: Segment) => ("field" in segment ? segment.field : "key" in segment ? segment.key : `#${segment.index}`);

/** "core_capabilities[CAP-001]" -> "CAP-001"; "functional_requirements[FR-002].description" -> "FR-002 description". */
export function partName(parsed: ParsedAnchor): string {
  const keyAt = parsed.path.map((segment) => "key" in segment).lastIndexOf(true);
  const base =
    keyAt >= 0
      ? [segmentName(parsed.path[keyAt] as Segment), ...parsed.path.slice(keyAt + 1).map(segmentName)].join(" ")
      : parsed.path.map(segmentName).join(" ");
  if (!parsed.part) return base || "the whole output";
  return "line" in parsed.part ? `line ${parsed.part.line} of ${base}` : `paragraph ${parsed.part.paragraph} of ${base}`;
}

/** The part at `anchor`, or why it cannot be found. */
export function resolvePart(artifact: unknown, anchor: string): Part | { missing: string } {
  let parsed: ParsedAnchor;
  try {
    parsed = parseAnchor(anchor);
  } catch (error) {
    if (error instanceof AnchorError) return { missing: `"${anchor}" is not an address in this artifact (${error.message})` };
    throw error;
  }
  const value = anchor === "" ? undefined : valueAt(artifact, anchor);
  const name = partName(parsed);
  if (value === undefined) return { missing: anchor === "" ? "a comment on the whole output names no part to change" : `${name} is not in this version` };
  return { anchor, parsed, name, value };
}

/** The anchor of the list item whose id is `id` ("US-003" -> "epics[EP-01].user_stories[US-003]"), wherever it is. */
export function anchorOfId(artifact: unknown, id: string): string | undefined {
  return anchorsOf(artifact).find((info) => info.anchor.endsWith(`[${id}]`) && !/:[LP]\d+$/.test(info.anchor))?.anchor;
}

/** The next free id with the prefix of `id` ("US-004" -> "US-009"), counting every id in the artifact, kept as wide. */
function nextIdLike(artifact: unknown, id: string): string | undefined {
  const match = /^([A-Z]+)-(\d+)$/i.exec(id);
  if (!match?.[1] || !match[2]) return undefined;
  const ids = anchorsOf(artifact).map((info) => /\[([^[\]]+)\]$/.exec(info.anchor)?.[1] ?? "");
  return `${match[1]}-${String(nextNumber(ids, match[1])).padStart(match[2].length, "0")}`;
}

// ---- writing parts ----------------------------------------------------------------------------------------------

/** Writes `value` at `anchor`; the artifact object stays the same, so an agent's reference to it stays good. */
function write<A>(revision: Revision<A>, anchor: string, value: unknown): void {
  const artifact: unknown = revision.artifact;
  if (!isPlainObject(artifact)) throw new AnchorError("an artifact is an object");
  Object.assign(artifact, replaceAt(artifact, anchor, value));
}

const parentOf = (parsed: ParsedAnchor) => ({ anchor: formatAnchor({ path: parsed.path.slice(0, -1) }), last: parsed.path[parsed.path.length - 1] });

/** The position of the item `last` names in `list`, or -1. */
function positionIn(list: readonly unknown[], last: Segment | undefined): number {
  if (!last || "field" in last) return -1;
  if ("index" in last) return last.index - 1;
  return itemSegments(list).findIndex((segment) => "key" in segment && segment.key === last.key);
}

/** Whether the part is an item of a list or an entry of a record keyed by id (a story's pseudocode). */
function isItem(part: Part, artifact: unknown): boolean {
  if (part.parsed.part || part.parsed.path.length < 2) return false;
  const { anchor, last } = parentOf(part.parsed);
  return last !== undefined && !("field" in last) && valueAt(artifact, anchor) !== undefined;
}

/** Replaces the item with `items` (none removes it, two split it); order and every other item stay. */
function spliceItem<A>(revision: Revision<A>, part: Part, items: unknown[]): void {
  const { anchor, last } = parentOf(part.parsed);
  const container = valueAt(revision.artifact, anchor);
  if (Array.isArray(container)) {
    const at = positionIn(container, last);
    write(revision, anchor, [...container.slice(0, at), ...items, ...container.slice(at + 1)]);
  } else if (isPlainObject(container) && last && "key" in last) {
    write(revision, anchor, Object.fromEntries(Object.entries(container).filter(([key]) => key !== last.key)));
  }
}

/** The text part a line belongs to, and its lines. */
function linesAt(revision: Revision<unknown>, part: Part): { anchor: string; lines: string[]; at: number } | undefined {
  if (!part.parsed.part || !("line" in part.parsed.part)) return undefined;
  const anchor = formatAnchor({ path: part.parsed.path });
  const text = valueAt(revision.artifact, anchor);
  return typeof text === "string" ? { anchor, lines: text.split("\n"), at: part.parsed.part.line - 1 } : undefined;
}

// ---- applying one request to one part ---------------------------------------------------------------------------

const DEICTIC = /^(?:this|it|that|these|those|the whole (?:\w+)|this (?:\w+)|that (?:\w+)|the line|this line)$/i;
const LABEL_FIELDS = ["name", "title", "risk"];
const ADD_FIELDS = ["description", "mitigation", "responsibility", "interest", "expected_result", "purpose"];

/** The sentence a request adds: the rule the reviewer stated, in her words ("A reservation must be limited to 3 days."). */
export function addedSentence(directive: Directive): string {
  return `${sentenceCase(withoutIds(directive.sentence))}.`;
}

/** A statement of what must hold: a modal or a limit ("must", "at most 3", "only", "never"). */
const RULE = /\b(?:must|should|shall|may|can|cannot|can't|has to|have to|needs? to|is to|are to|at most|at least|no more than|up to|only|never|always|limited|required|mandatory)\b/i;

/**
 * Why the offline drafting leaves a part as it was rather than write a request into it, or undefined when the request
 * is a rule the part can carry in the reviewer's own words. A remark ("'Return late twice' is not something a tenant
 * does") says what is wrong, not what the part should say; "add a late fee" names a topic, not a sentence to write.
 * Pasting either into a deliverable would make it read as the reviewer's note, not as the product's requirement.
 */
function cannotWrite(directive: Directive, part: Part): string | undefined {
  if (directive.wish && RULE.test(directive.sentence)) return undefined;
  return directive.wish
    ? `${quoted(directive.sentence)} says what is wrong with ${part.name}, not what it should say instead; the offline drafting does not write a reviewer's words into the output, so it is left as it was (say "change X to Y", or edit it by hand)`
    : `the offline drafting cannot write new wording about ${quoted(directive.subject)} into ${part.name}, so it is left as it was (say "change X to Y", state the rule it must hold, or edit it by hand)`;
}

const quoted = (text: string) => `"${normalizeSpace(text).length > 120 ? `${normalizeSpace(text).slice(0, 119)}…` : normalizeSpace(text)}"`;

/** Rewrites the wording in the item's text fields and lists of texts; the fields it changed. */
function rewordItem(item: Json, subject: string, replacement: string): { item: Json; fields: string[] } {
  const fields: string[] = [];
  const next = Object.fromEntries(
    Object.entries(item).map(([key, value]) => {
      if (typeof value === "string") {
        const changed = replaceWording(value, subject, replacement);
        if (changed !== undefined && changed !== value) {
          fields.push(key);
          return [key, normalizeSpace(changed)];
        }
      } else if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) {
        const entries = value.map((entry: string) => replaceWording(entry, subject, replacement) ?? entry);
        if (entries.some((entry, index) => entry !== value[index])) {
          fields.push(key);
          return [key, entries.map(normalizeSpace)];
        }
      }
      return [key, value];
    }),
  );
  return { item: next, fields };
}

function applyRemove<A>(revision: Revision<A>, part: Part, directive: Directive, rules: PartRules<A>): Outcome {
  const lines = linesAt(revision, part);
  if (lines) {
    const removed = lines.lines[lines.at] ?? "";
    write(revision, lines.anchor, [...lines.lines.slice(0, lines.at), ...lines.lines.slice(lines.at + 1)].join("\n"));
    revision.changes.removed.push(`${part.anchor}: ${quoted(removed)}`);
    return { done: true, message: `removed ${part.name} (${quoted(removed)})` };
  }
  const whole = DEICTIC.test(directive.subject) || directive.subject === "" || itemMatches(part.value, { subject: directive.subject, ids: [] });
  if (whole && isItem(part, revision.artifact)) {
    const kept = rules.keepItem?.(revision.artifact, part);
    if (kept) return { done: false, message: `${part.name} was not removed: ${kept}` };
    spliceItem(revision, part, []);
    revision.changes.removed.push(`${part.anchor}: ${quoted(itemText(part.value))}`);
    return { done: true, message: `removed ${part.name}` };
  }
  if (whole) return { done: false, message: `${part.name} is a required part and cannot be removed; say what it should say instead` };
  // Something inside the part: entries of its lists that match, else the wording itself.
  if (isPlainObject(part.value)) {
    const removed: string[] = [];
    const next = Object.fromEntries(
      Object.entries(part.value).map(([key, value]) => {
        if (!Array.isArray(value)) return [key, value];
        const kept = value.filter((entry) => !itemMatches(entry, { subject: directive.subject, ids: [] }));
        removed.push(...value.filter((entry) => !kept.includes(entry)).map((entry) => `${key}: ${quoted(itemText(entry))}`));
        return [key, kept];
      }),
    );
    if (removed.length > 0) {
      write(revision, part.anchor, next);
      revision.changes.removed.push(...removed.map((line) => `${part.anchor}.${line}`));
      return { done: true, message: `removed from ${part.name}: ${removed.join("; ")}` };
    }
  }
  return applyReword(revision, part, { ...directive, kind: "modify", replacement: "" });
}

function applyReword<A>(revision: Revision<A>, part: Part, directive: Directive): Outcome {
  const replacement = directive.replacement ?? "";
  const lines = linesAt(revision, part);
  const action = replacement === "" ? `removed "${directive.subject}"` : `changed "${directive.subject}" to "${replacement}"`;
  if (lines) {
    const line = lines.lines[lines.at] ?? "";
    const indent = /^\s*/.exec(line)?.[0] ?? "";
    const next = directive.subject === "" ? `${indent}${replacement}` : replaceWording(line, directive.subject, replacement);
    if (next === undefined || next === line) return { done: false, message: `"${directive.subject}" does not appear in ${part.name}` };
    write(revision, lines.anchor, lines.lines.map((entry, index) => (index === lines.at ? next : entry)).join("\n"));
    revision.changes.modified.push(`${part.anchor}: ${quoted(line)} -> ${quoted(next)}`);
    return { done: true, message: `${part.name}: ${directive.subject === "" ? `now reads ${quoted(next)}` : action}` };
  }
  if (typeof part.value === "string") {
    const next = directive.subject === "" ? replacement : replaceWording(part.value, directive.subject, replacement);
    if (next === undefined || next === part.value) return { done: false, message: `"${directive.subject}" does not appear in ${part.name}` };
    write(revision, part.anchor, normalizeSpace(next));
    revision.changes.modified.push(`${part.anchor}: ${directive.subject === "" ? `now ${quoted(next)}` : action}`);
    return { done: true, message: `${part.name}: ${directive.subject === "" ? `now reads ${quoted(next)}` : action}` };
  }
  if (!isPlainObject(part.value)) return { done: false, message: `${part.name} holds no text to change` };
  if (directive.subject === "") {
    const field = LABEL_FIELDS.find((key) => isPlainObject(part.value) && typeof part.value[key] === "string");
    if (!field) return { done: false, message: `${part.name} has no name or title to change` };
    const before = String(part.value[field]);
    write(revision, part.anchor, { ...part.value, [field]: replacement });
    revision.changes.modified.push(`${part.anchor}.${field}: ${quoted(before)} -> ${quoted(replacement)}`);
    return { done: true, message: `${part.name}: ${field} changed from ${quoted(before)} to ${quoted(replacement)}` };
  }
  const { item, fields } = rewordItem(part.value, directive.subject, replacement);
  if (fields.length === 0) return { done: false, message: `"${directive.subject}" does not appear in ${part.name}` };
  write(revision, part.anchor, item);
  revision.changes.modified.push(...fields.map((field) => `${part.anchor}.${field}: ${action}`));
  return { done: true, message: `${part.name}: ${action} in its ${fields.join(", ")}` };
}

function applyAdd<A>(revision: Revision<A>, part: Part, directive: Directive, rules: PartRules<A>): Outcome {
  const lines = linesAt(revision, part);
  if (lines) {
    const edit = rules.lineAfter?.(lines.lines[lines.at] ?? "", directive) ?? { refused: "this agent adds lines only to its own texts" };
    if ("refused" in edit) return { done: false, message: `nothing was added after ${part.name}: ${edit.refused}` };
    write(revision, lines.anchor, [...lines.lines.slice(0, lines.at + 1), edit.value, ...lines.lines.slice(lines.at + 1)].join("\n"));
    revision.changes.added.push(`${part.anchor}: inserted after it ${quoted(edit.value)}`);
    return { done: true, message: `inserted ${quoted(edit.value.trim())} after ${part.name}` };
  }
  if (typeof part.value === "string") {
    const text = part.value;
    const refusal = cannotWrite(directive, part);
    const edit: Edit<string> =
      rules.addToText?.(text, directive, part) ??
      (refusal ? { refused: refusal } : { value: `${text.replace(/\s+$/, "")} ${addedSentence(directive)}`.trim(), did: `added ${quoted(addedSentence(directive))}` });
    if ("refused" in edit) return { done: false, message: `${part.name}: ${edit.refused}` };
    write(revision, part.anchor, edit.value);
    revision.changes.modified.push(`${part.anchor}: ${edit.did}`);
    return { done: true, message: `${part.name}: ${edit.did}` };
  }
  if (!isPlainObject(part.value)) return { done: false, message: `${part.name} holds nothing a request can be added to` };
  const item = part.value;
  const field = ADD_FIELDS.find((key) => typeof item[key] === "string");
  const sentence = addedSentence(directive);
  const refusal = cannotWrite(directive, part);
  const fallback: Edit<Json> = refusal
    ? { refused: refusal }
    : field
      ? { value: { ...item, [field]: `${String(item[field]).replace(/\s+$/, "")} ${sentence}`.trim() }, did: `added ${quoted(sentence)} to its ${field}` }
      : { refused: "it has no text the request can be added to" };
  const edit = rules.addToItem?.(item, directive, part) ?? fallback;
  if ("refused" in edit) return { done: false, message: `nothing was added to ${part.name}: ${edit.refused}` };
  write(revision, part.anchor, edit.value);
  const changed = Object.keys(edit.value).filter((key) => JSON.stringify(edit.value[key]) !== JSON.stringify(item[key]));
  const unnamed = changed.filter((key) => !edit.did.includes(key));
  revision.changes.modified.push(`${part.anchor}: ${edit.did}${unnamed.length > 0 ? ` (${unnamed.join(", ")})` : ""}`);
  return { done: true, message: `${part.name}: ${edit.did}` };
}

function applySplit<A>(revision: Revision<A>, part: Part, directive: Directive, rules: PartRules<A>): Outcome {
  const id = part.parsed.path.length > 0 ? segmentName(part.parsed.path[part.parsed.path.length - 1] as Segment) : "";
  const newId = nextIdLike(revision.artifact, id);
  if (!rules.splitItem || !isPlainObject(part.value) || !isItem(part, revision.artifact) || !newId) {
    return { done: false, message: `could not split ${part.name} offline: only an item with an id (a user story) can be split` };
  }
  const edit = rules.splitItem(part.value, directive, newId, revision.artifact);
  if ("refused" in edit) return { done: false, message: `could not split ${part.name} offline: ${edit.refused}` };
  spliceItem(revision, part, edit.value);
  const sibling = formatAnchor({ path: [...part.parsed.path.slice(0, -1), { key: newId }] });
  revision.changes.modified.push(`${part.anchor}: split; it now covers ${quoted(itemText(edit.value[0]))}`);
  revision.changes.added.push(`${sibling}: ${quoted(itemText(edit.value[1]))} (split from ${id})`);
  return { done: true, message: `split ${id}: ${edit.did}` };
}

/** Applies one request to one part (found anew, so earlier edits count); what it did, or why not. */
export function applyToPart<A>(revision: Revision<A>, anchor: string, directive: Directive, rules: PartRules<A>): Outcome {
  const part = resolvePart(revision.artifact, anchor);
  if ("missing" in part) return { done: false, message: part.missing };
  switch (directive.kind) {
    case "note":
      return { done: false, message: `${quoted(directive.sentence)} names nothing to change in ${part.name}` };
    case "remove":
      return applyRemove(revision, part, directive, rules);
    case "modify":
      return applyReword(revision, part, directive);
    case "split":
      return applySplit(revision, part, directive, rules);
    case "add":
      return applyAdd(revision, part, directive, rules);
  }
}

/**
 * A request of the general feedback applied to the items it names by id (`anchors`), like a comment on each; what was
 * done goes to the justification's outcomes, a refusal too.
 */
export function applyToNamed<A>(revision: Revision<A>, anchors: readonly string[], directive: Directive, rules: PartRules<A>): void {
  for (const anchor of anchors) {
    const result = applyToPart(revision, anchor, directive, rules);
    revision.outcomes.push(result.done ? `${sentenceCase(result.message)}.` : `Not done: ${result.message}.`);
  }
}

/**
 * The items a request is about: those it names by id that are in the artifact; else, when `items` says which anchors
 * are items of the kind meant, those whose words the request names.
 */
export function namedAnchors(artifact: unknown, directive: Directive, items?: RegExp): string[] {
  const named = directive.ids.map((id) => anchorOfId(artifact, id)).filter((anchor): anchor is string => anchor !== undefined);
  if (named.length > 0 || !items) return named;
  const wanted = { subject: directive.subject, ids: [] };
  const matching = anchorsOf(artifact).filter((info) => items.test(info.anchor) && itemMatches(valueAt(artifact, info.anchor), wanted));
  // Those whose name or title the words fit before those that merely mention them somewhere.
  const byLabel = matching.filter((info) => itemMatches(itemText(valueAt(artifact, info.anchor)), wanted));
  return (byLabel.length > 0 ? byLabel : matching).map((info) => info.anchor);
}

/** A general request to split ("split the unlock story"): applied to the items it names, or said to match none. */
export function applySplitRequest<A>(revision: Revision<A>, directive: Directive, rules: PartRules<A>, items: RegExp, what: string): void {
  const targets = namedAnchors(revision.artifact, directive, items);
  if (targets.length > 0) applyToNamed(revision, targets, directive, rules);
  else noneMatched(revision, directive, what);
}

/** A request about items that matched none: said in the justification rather than passed over. */
export function noneMatched<A>(revision: Revision<A>, directive: Directive, what: string): void {
  revision.outcomes.push(`Not done: no ${what} matched "${directive.subject}", so nothing was ${directive.kind === "split" ? "split" : "changed"}.`);
}

// ---- a whole revision -------------------------------------------------------------------------------------------

/** The comments of a request (none when it carries none). */
export function commentsOf(request: AgentRequest): SentComment[] {
  return request.comments ?? [];
}

/** The requests of the general feedback, without the listing of the comments (those are applied from `comments`). */
export function generalDirectives(request: AgentRequest): Directive[] {
  return parseFeedback(generalFeedback(request.feedback));
}

/** Applies each comment to exactly its part, in order, recording one outcome per comment. */
export function applyComments<A>(revision: Revision<A>, comments: readonly SentComment[], rules: PartRules<A>): void {
  for (const comment of comments) {
    const found = resolvePart(revision.artifact, comment.anchor);
    if ("missing" in found) {
      revision.comments.push({ anchor: comment.anchor, done: false, message: found.missing });
      continue;
    }
    // The anchor says which part: ids the text names do not move the request elsewhere.
    const results = parseFeedback(comment.text).map((directive) => applyToPart(revision, comment.anchor, { ...directive, ids: [] }, rules));
    const done = results.length > 0 && results.every((result) => result.done);
    const message = results.length > 0 ? results.map((result) => result.message).join("; ") : `the comment on ${found.name} asks for nothing`;
    revision.comments.push({ anchor: comment.anchor, done, message });
  }
}

/** A revision that starts from `artifact` with the request's comments applied. */
export function commentedRevision<A>(artifact: A, request: AgentRequest, rules: PartRules<A>): Revision<A> {
  const revision: Revision<A> = { artifact, changes: { added: [], removed: [], modified: [] }, outcomes: [], comments: [] };
  applyComments(revision, commentsOf(request), rules);
  return revision;
}

/** The revision's envelope: the justification quotes the general feedback, says what was done, and lists each comment's outcome. */
export function revisionEnvelope<A>(agentName: string, request: AgentRequest, revision: Revision<A>): Envelope<A> & { comment_outcomes?: CommentOutcome[] } {
  const general = generalFeedback(request.feedback);
  const commented = revision.comments.map((outcome) => `[${outcome.anchor}] ${outcome.done ? "done" : "not done"}: ${outcome.message}.`);
  const opening =
    general === ""
      ? [`Revised the ${agentName} in response to the reviewer's ${revision.comments.length === 1 ? "comment" : "comments"}.`, ...revision.outcomes].join(" ")
      : revisionJustification(agentName, general, revision.outcomes);
  const justification = commented.length > 0 ? `${opening} Comments: ${commented.join(" ")}` : opening;
  const base = { artifact: revision.artifact, changes_made: revision.changes, justification };
  return commentsOf(request).length > 0 ? { ...base, comment_outcomes: revision.comments } : base;
}
