/**
 * The pipeline's agents account for each revision in `changes_made`; this holds that account against the computed diff
 * of the two versions (server/review/diff.ts): the claims the diff shows nothing for, and the changes no claim
 * mentions. Inline review shows them beside the diff (the pipeline's review door, commands.ts, hands this to it).
 */
import { isPlainObject } from "../lib/json";
import { AnchorError, type Segment, parseAnchor, textOf } from "../review/anchors";
import { MAX_DEPTH, WORD, anchorOf } from "../review/diff";
import type { ClaimMismatch, DiffChange } from "../review/schemas";
import { Capability, ChangesMade, Entity, Relationship, RequirementItem, Risk, TestCase, TestSuite, UserStory, artifactSchemas } from "./artifacts";

type Verb = "added" | "removed" | "modified";

/** One `changes_made` entry, read for what it names: a field, ids, quoted text. */
interface Claim {
  verb: Verb;
  text: string;
  field?: string;
  ids: string[];
  quotes: string[];
}

/** What a change can be recognised by: the ids and fields on its path, and the texts it holds. */
interface ChangeFacts {
  change: DiffChange;
  keys: string[];
  fields: string[];
  texts: string[];
}

/** CAP-001, US-003, TC-004, FR-002, NFR-001, EP-1, TS-01. */
const ID = /\b[A-Z][A-Z0-9]{0,7}-\d+\b/g;
const QUOTED = /"([^"]+)"|“([^”]+)”/g;
const FIELD_PREFIX = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([\s\S]*))?$/;
/** Keys of an object claim whose values are the text of the part it is about. */
const QUOTE_KEYS = new Set(["text", "quote", "value", "item", "name", "title", "old", "new", "from", "to", "before", "after"]);

/** Field names the artifacts define, so `assumptions: ...` or `epics: ...` read as naming a field. */
const ARTIFACT_FIELDS = new Set<string>(
  [...Object.values(artifactSchemas), Capability, RequirementItem, Risk, UserStory, Entity, Relationship, TestCase, TestSuite].flatMap((schema) =>
    Object.keys(schema.shape),
  ),
);

const unique = <T>(values: T[]): T[] => [...new Set(values)];
const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim().replace(/[.;:,]+$/, "");
const clip = (text: string, length = 80) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function stringLeaves(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number") return [String(value)];
  if (depth > MAX_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item) => stringLeaves(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).flatMap((item) => stringLeaves(item, depth + 1));
  return [];
}

function factsOf(change: DiffChange): ChangeFacts {
  let path: Segment[] = [];
  try {
    path = parseAnchor(change.anchor).path;
  } catch (error) {
    if (!(error instanceof AnchorError)) throw error;
  }
  const texts = change.kind === "moved" ? [] : [...stringLeaves(change.before), ...stringLeaves(change.after)];
  return {
    change,
    keys: path.flatMap((segment) => ("key" in segment ? [segment.key] : [])),
    fields: path.flatMap((segment) => ("field" in segment ? [segment.field] : [])),
    texts,
  };
}

/** A field is named when the artifacts define it, a change is under it, or it is written like one (snake_case). */
function isFieldName(word: string, facts: ChangeFacts[]): boolean {
  return ARTIFACT_FIELDS.has(word) || /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(word) || facts.some((fact) => fact.fields.includes(word));
}

function readText(verb: Verb, text: string, facts: ChangeFacts[]): Claim {
  const prefix = FIELD_PREFIX.exec(text);
  const field = prefix && isFieldName(prefix[1]!, facts) ? prefix[1] : undefined;
  const rest = field !== undefined ? (prefix?.[2] ?? "") : text;
  const quotes = [...rest.matchAll(QUOTED)].map((match) => (match[1] ?? match[2])!.trim()).filter((quote) => quote !== "");
  const unquoted = rest.replace(QUOTED, " ");
  return { verb, text, ...(field !== undefined ? { field } : {}), ids: unique(unquoted.match(ID) ?? []), quotes };
}

function readObject(verb: Verb, entry: Record<string, unknown>, facts: ChangeFacts[]): Claim {
  const values = Object.entries(entry).flatMap(([key, value]) => stringLeaves(value).map((text) => ({ key, text })));
  const field = [...Object.keys(entry), ...values.map((value) => value.text)].find((word) => WORD.test(word) && isFieldName(word, facts));
  const quotes = values.filter((value) => QUOTE_KEYS.has(value.key) && value.text.trim().length >= 3).map((value) => value.text.trim());
  const ids = unique(values.flatMap((value) => value.text.match(ID) ?? []));
  return { verb, text: clip(JSON.stringify(entry), 300), ...(field !== undefined ? { field } : {}), ids, quotes };
}

/** The claims, or undefined when `changes_made` is in a shape this cannot read (a sentence, a bare list). */
function readClaims(changesMade: unknown, facts: ChangeFacts[]): Claim[] | undefined {
  const parsed = ChangesMade.safeParse(changesMade);
  if (!parsed.success) return undefined;
  const verbs: Verb[] = ["added", "removed", "modified"];
  return verbs.flatMap((verb) =>
    parsed.data[verb].flatMap((entry): Claim[] => {
      if (typeof entry === "string" || typeof entry === "number") return [readText(verb, String(entry), facts)];
      return isPlainObject(entry) ? [readObject(verb, entry, facts)] : [];
    }),
  );
}

// A claim with no id, no quote and no field name ("Tightened the wording") cannot be tied to any part: reporting it
// would be a guess, and a false alarm costs the reviewer more than a missed one. Such claims are not checked.
const checkable = (claim: Claim) => claim.ids.length > 0 || claim.quotes.length > 0 || claim.field !== undefined;

const mentionsId = (text: string, id: string) => new RegExp(`(?<![A-Za-z0-9-])${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`).test(text);

function quoteMatches(quote: string, texts: string[]): boolean {
  const wanted = normalize(quote);
  if (wanted.length < 3) return false;
  return texts.some((text) => {
    const held = normalize(text);
    return held.includes(wanted) || (held.length >= 20 && wanted.includes(held));
  });
}

/**
 * Whether a claim is about a change: it names an id on the change's path or in its text, or quotes its text; a claim
 * naming only a field covers every change under that field. A claim naming ids or quotes is held to them.
 */
function covers(claim: Claim, fact: ChangeFacts): boolean {
  if (claim.ids.some((id) => fact.keys.includes(id) || fact.texts.some((text) => mentionsId(text, id)))) return true;
  if (claim.quotes.some((quote) => quoteMatches(quote, fact.texts))) return true;
  return claim.ids.length === 0 && claim.quotes.length === 0 && claim.field !== undefined && fact.fields.includes(claim.field);
}

function claimName(claim: Claim): string {
  if (claim.ids.length > 0) return claim.ids.length <= 3 ? claim.ids.join(" and ") : `${claim.ids[0]} and ${claim.ids.length - 1} others`;
  if (claim.quotes.length > 0) return `"${clip(claim.quotes[0]!)}"`;
  return claim.field ?? claim.text;
}

function notFound(claim: Claim): ClaimMismatch {
  const name = claimName(claim);
  const message =
    claim.verb === "modified"
      ? `The agent says it modified ${name}, but ${name} is the same in both versions.`
      : `The agent says it ${claim.verb} ${name}, but nothing matching it was ${claim.verb === "added" ? "added" : "removed"} or changed.`;
  return { kind: "claimed_not_found", subject: claim.text, message };
}

/** The part a change belongs to as a reviewer names it: its list item (the deepest), else the change's own part. */
function itemOf(change: DiffChange): { anchor: string; name: string } {
  let path: Segment[] = [];
  try {
    path = parseAnchor(change.anchor).path;
  } catch (error) {
    if (!(error instanceof AnchorError)) throw error;
    return { anchor: change.anchor, name: change.label };
  }
  const last = path.findLastIndex((segment) => !("field" in segment));
  if (last < 0) return { anchor: change.anchor, name: change.label };
  const segment = path[last]!;
  const label = change.label.split(" › ").slice(0, last + 1).join(" › ");
  return { anchor: anchorOf(path.slice(0, last + 1)), name: "key" in segment ? segment.key : label };
}

const VERB_PHRASE: Record<DiffChange["kind"], string> = { added: "was added", removed: "was removed", changed: "changed", moved: "moved" };

function unclaimed(anchor: string, name: string, changes: DiffChange[]): ClaimMismatch {
  const kinds = unique(changes.map((change) => change.kind));
  const kind = kinds.length === 1 ? kinds[0]! : "changed";
  const whole = changes.length === 1 && changes[0]!.anchor === anchor ? changes[0]! : undefined;
  const value = whole?.kind === "removed" ? whole.before : whole?.after;
  const quoted = /item \d+$/.test(name) && value !== undefined ? ` ("${clip(textOf(value))}")` : "";
  return { kind: "unclaimed_change", subject: anchor, message: `${name}${quoted} ${VERB_PHRASE[kind]}, and the agent did not say so.` };
}

/** Changes no claim covers, one mismatch per item (three fields of CAP-004 changed is one thing the agent left out). */
function unclaimedChanges(facts: ChangeFacts[], claims: Claim[]): ClaimMismatch[] {
  const groups = new Map<string, { name: string; changes: DiffChange[] }>();
  for (const fact of facts) {
    if (claims.some((claim) => covers(claim, fact))) continue;
    const item = itemOf(fact.change);
    const group = groups.get(item.anchor) ?? { name: item.name, changes: [] };
    group.changes.push(fact.change);
    groups.set(item.anchor, group);
  }
  return [...groups].map(([anchor, group]) => unclaimed(anchor, group.name, group.changes));
}

/**
 * Where the agent's `changes_made` and the computed `changes` disagree: claims (that name an id, quote text or name a
 * field) the diff shows no change for, then changes no claim mentions.
 */
export function compareClaim(changesMade: unknown, changes: DiffChange[]): ClaimMismatch[] {
  const facts = changes.map(factsOf);
  const claims = readClaims(changesMade, facts);
  // A claim that cannot be read says nothing this can hold the diff to; comparing would be guessing.
  if (claims === undefined) return [];
  const missing = claims.filter((claim) => checkable(claim) && !facts.some((fact) => covers(claim, fact))).map(notFound);
  return [...missing, ...unclaimedChanges(facts, claims)];
}
