/**
 * A reviewer's feedback, read as edits: add something, remove something, or change one thing into another.
 * Each agent decides where an edit lands in its own artifact; these helpers only read the words and match
 * them against existing items.
 */
import { allText, itemId } from "./text/items";
import { overlap, significantWords } from "./text/keywords";
import { normalizeSpace, splitSentences } from "./text/normalize";

/**
 * `note`: a remark that asks for nothing to add, remove or change ("Too generic"); agents record it as a review note.
 * `split`: one item should become two ("split the unlock story"); `replacement` holds the two parts when named ("into A and B").
 */
export type DirectiveKind = "add" | "remove" | "modify" | "split" | "note";

export interface Directive {
  kind: DirectiveKind;
  /** What the reviewer names ("export reports as PDF"). */
  subject: string;
  /** For `modify`: what the subject becomes. */
  replacement?: string;
  /** The sentence of the feedback the directive comes from; agents read hints ("risk", "entity") from it. */
  sentence: string;
  /** Item ids the sentence names (US-002, FR-001, TC-003, ...), or that the sentence it belongs to names before a colon. */
  ids: string[];
  /** For `add`: no adding verb, the sentence itself is the request ("a reservation must be limited to 3 days"). */
  wish?: boolean;
}

/** "rename to X", "rename this to X", "call it X": the part the feedback is about gets a new wording. */
const SELF = /(?:this|it)(?:\s+(?:one|item|story|capability|requirement|case|step|line))?/.source;
const RENAME_SELF = new RegExp(`^(?:please\\s+)?(?:(?:rename|retitle|reword)\\s+(?:${SELF}\\s+)?(?:to|as|into)|call\\s+${SELF})\\s+(.+)$`, "i");
const SPLIT = /^(?:please\s+)?split\s+(.+?)(?:\s+(?:in|into)\s+(.+))?$/i;
const REMOVE = /\b(?:remove|drop|delete|exclude|get rid of|take out|leave out|cut|no longer need|(?:do not|don't|doesn't|does not) need)\s+(.+)$/i;
const MODIFY =
  /\b(?:rename|change|replace|reword|turn|convert|update)\s+(.+?)\s+(?:to|with|into|by|as)\s+(.+)$/i;
const ADD =
  /\b(?:add|include|also|support|cover|consider|introduce|there should be|there must be|we need|i need|it needs|is missing|missing|lacks|lacking|would like|nice to have|we want|i want|they want|users want)\s+(.+)$/i;
/** A wish stated as a sentence ("Drivers should be able to rate customers"): kept whole as the subject. */
const WISH = /\b(?:should|must|shall|needs? to|has to|have to|ought to|can|could|will)\b/i;

/** Words that say which part of an artifact is meant ("add a risk about ..."), dropped from the subject itself. */
const KIND_WORDS =
  /^(?:(?:a|an|the|one|some|more|new|another|extra|separate|dedicated)\s+)*(?:capabilit(?:y|ies)|requirements?|features?|user stor(?:y|ies)|stor(?:y|ies)|test cases?|tests?|cases?|(?:acceptance )?criteri(?:on|a)|entit(?:y|ies)|tables?|steps?|assumptions?|risks?|stakeholders?|dependenc(?:y|ies)|domains?|epics?|suites?|scenarios?|items?|attributes?|fields?|participants?|flows?|nfrs?|frs?|non-functional requirements?|functional requirements?)\b\s*(?:(?:for|to|that|about|covering|on|of|where|which|so that|called|named)\s+)?/i;

/** "should gain a late-fee criterion": a modal with a verb of having asks for the thing it names. */
const GAIN = /(?:should|must|could|would|can) (?:gain|get|have|receive|include)|gains?|gets?/.source;
const LEADING_FILLER = new RegExp(
  `^(?:please|also|add|include|cover|support|needs?|requires?|to|for|the ability to|ability to|a way to|support for|handling of|handling for|${GAIN})\\s+`,
  "i",
);
const TRAILING_KIND =
  /\s+(?:capability|requirement|feature|user story|story|test case|test|tests|cases|entity|table|step|assumption|risk|item|(?:acceptance )?criteri(?:on|a))$/i;
/** "in US-007", "for FR-002": the ids are kept in `ids`, the words around them are not part of the subject. */
const ID_REFERENCE = /\s*\b(?:in|for|of|to|on|from|under)?\s*\b(?:US|FR|NFR|TC|TS|CAP|EP|R|RISK|REQ|INC|DIA|PSE)-\d+\b:?/gi;

function cleanSubject(text: string): string {
  let subject = normalizeSpace(text.replace(ID_REFERENCE, " ")).replace(/[.!?;:,]+$/, "");
  for (let pass = 0; pass < 3; pass++) {
    while (LEADING_FILLER.test(subject)) subject = subject.replace(LEADING_FILLER, "");
    const withoutKind = subject.replace(KIND_WORDS, "").replace(TRAILING_KIND, "");
    if (withoutKind.trim().length > 0) subject = withoutKind.trim();
  }
  return subject
    .replace(/^(?:a|an|the)\s+/i, "")
    .replace(/^["'“]|["'”]$/g, "")
    .trim();
}

/** Remarks about the artifact rather than instructions ("Too generic", "Looks good overall", "The vision is vague"). */
const REMARK =
  /^(?:too|looks|seems|it'?s|it is|this is|that is|these are|those are|great|good|nice|ok|okay|fine|thanks|thank you|i like|i love|well done|not bad|overall|generally|in general|(?:the|this|that) \w+ (?:is|are|looks|seems|feels))\b/i;

const ID_PATTERN = /\b(?:US|FR|NFR|TC|TS|CAP|EP|R|RISK|REQ|INC|DIA|PSE)-\d+\b/gi;

export function idsIn(text: string): string[] {
  return [...new Set([...text.matchAll(ID_PATTERN)].map((match) => match[0].toUpperCase()))];
}

/** A text without the ids it names ("US-001 should gain ..." -> "should gain ..."). */
export function withoutIds(text: string): string {
  return normalizeSpace(text.replace(ID_REFERENCE, " "));
}

/** A sentence that opens on what it is about ("CAP-001 is too vague: ..."): the ids it names scope what follows. */
const SCOPE_HEAD = /^(.{3,80}?):\s+(.+)$/;
/** Where one sentence carries several requests: ", and ...", ", then ...", ", also ...", "and also ...". */
const CLAUSE_BREAK = /,\s+(?:and\s+also|and|then|also|but)\s+|\s+and\s+also\s+/i;

/** The requests of one sentence with the ids each is about; a colon's head that names ids scopes every clause after it. */
function clausesOf(sentence: string): { text: string; ids: string[] }[] {
  const head = SCOPE_HEAD.exec(sentence);
  const headIds = head?.[1] ? idsIn(head[1]) : [];
  const scoped = head?.[1] && head[2] && headIds.length > 0 && !ADD.test(head[1]) && !REMOVE.test(head[1]) && !MODIFY.test(head[1]);
  const body = scoped && head[2] ? head[2] : sentence;
  return body
    .split(CLAUSE_BREAK)
    .map((text) => text.trim())
    .filter((text) => /[A-Za-z]/.test(text) && text.length > 2)
    .map((text) => {
      const own = idsIn(text);
      return { text, ids: own.length > 0 ? own : scoped ? headIds : [] };
    });
}

/**
 * Every instruction in the feedback, in order: one per clause of each sentence (a sentence such as "CAP-001 is too
 * vague: a, and b; also c" carries three), so never empty for feedback with words.
 */
export function parseFeedback(feedback: string): Directive[] {
  const directives: Directive[] = [];
  for (const { text: sentence, ids } of splitSentences(feedback).flatMap(clausesOf)) {
    const split = SPLIT.exec(sentence);
    if (split?.[1]) {
      const parts = split[2] ? normalizeSpace(split[2]).replace(/^(?:two|2)\s+(?:stories|items|parts)?\s*(?::|-)?\s*/i, "") : "";
      directives.push({ kind: "split", subject: cleanSubject(split[1]), ...(parts ? { replacement: parts } : {}), sentence, ids });
      continue;
    }
    const rename = RENAME_SELF.exec(sentence);
    if (rename?.[1]) {
      directives.push({ kind: "modify", subject: "", replacement: rename[1].replace(/^["'“]|["'”.]+$/g, "").trim(), sentence, ids });
      continue;
    }
    const modify = MODIFY.exec(sentence);
    if (modify?.[1] && modify[2]) {
      directives.push({ kind: "modify", subject: cleanSubject(modify[1]), replacement: cleanSubject(modify[2]), sentence, ids });
      continue;
    }
    const remove = REMOVE.exec(sentence);
    if (remove?.[1]) {
      directives.push({ kind: "remove", subject: cleanSubject(remove[1]), sentence, ids });
      continue;
    }
    const add = ADD.exec(sentence);
    if (!add && !WISH.test(sentence) && ids.length === 0 && REMARK.test(sentence)) {
      directives.push({ kind: "note", subject: normalizeSpace(sentence), sentence, ids });
      continue;
    }
    // Without an adding verb the sentence itself is the request: an imperative ("Log every failed call")
    // or a wish ("Drivers should be able to rate customers").
    const subject = cleanSubject(add?.[1] ?? sentence);
    directives.push({ kind: "add", subject: subject || normalizeSpace(sentence), sentence, ids, ...(add ? {} : { wish: true }) });
  }
  return directives;
}

/** True when an item is the one the reviewer names: by id, or by most of the subject's words. */
export function itemMatches(item: unknown, directive: Pick<Directive, "subject" | "ids">): boolean {
  const id = itemId(item)?.toUpperCase();
  if (id && directive.ids.includes(id)) return true;
  const wanted = significantWords(directive.subject);
  if (wanted.length === 0) return false;
  const score = overlap(directive.subject, allText(item));
  return wanted.length === 1 ? score === 1 : score >= 0.6;
}

/** Replaces the subject's wording inside a text, or returns undefined when the text does not contain it literally. */
export function replaceWording(text: string, subject: string, replacement: string): string | undefined {
  const pattern = new RegExp(subject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
  return pattern.test(text) ? text.replace(pattern, replacement) : undefined;
}

/** The justification of a revision: the feedback quoted, then what was done with each part of it. */
export function revisionJustification(agentName: string, feedback: string, outcomes: string[]): string {
  const quoted = normalizeSpace(feedback);
  return [`Revised the ${agentName} in response to the reviewer's feedback: "${quoted}".`, ...outcomes].join(" ");
}

/**
 * The parts of an artifact a sentence names by kind ("remove the map capability" -> core_capabilities), so an
 * edit does not spill into other lists that happen to share words; undefined when it names none.
 */
export function fieldsNamed<F extends string>(directive: Directive, hints: Record<F, RegExp>): F[] | undefined {
  const named = (Object.keys(hints) as F[]).filter((field) => hints[field].test(directive.sentence));
  return named.length > 0 ? named : undefined;
}

/** Whether the sentence asks for this kind of item ("add a risk ..." -> /risk/). */
export function mentions(directive: Directive, pattern: RegExp): boolean {
  return pattern.test(directive.sentence);
}
