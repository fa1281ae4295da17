/**
 * A reviewer's feedback, read as edits: add something, remove something, or change one thing into another.
 * Each agent decides where an edit lands in its own artifact; these helpers only read the words and match
 * them against existing items.
 */
import { allText, itemId } from "./text/items";
import { overlap, significantWords } from "./text/keywords";
import { normalizeSpace, splitSentences } from "./text/normalize";

/** `note`: a remark that asks for nothing to add, remove or change ("Too generic"); agents record it as a review note. */
export type DirectiveKind = "add" | "remove" | "modify" | "note";

export interface Directive {
  kind: DirectiveKind;
  /** What the reviewer names ("export reports as PDF"). */
  subject: string;
  /** For `modify`: what the subject becomes. */
  replacement?: string;
  /** The sentence of the feedback the directive comes from; agents read hints ("risk", "entity") from it. */
  sentence: string;
  /** Item ids the sentence names (US-002, FR-001, TC-003, ...). */
  ids: string[];
}

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

const LEADING_FILLER =
  /^(?:please|also|add|include|cover|support|needs?|requires?|to|for|the ability to|ability to|a way to|support for|handling of|handling for)\s+/i;
const TRAILING_KIND = /\s+(?:capability|requirement|feature|user story|story|test case|test|tests|cases|entity|table|step|assumption|risk|item)$/i;
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

/** Every instruction in the feedback, one per sentence, in order; one directive per sentence, so never empty for feedback with words. */
export function parseFeedback(feedback: string): Directive[] {
  const directives: Directive[] = [];
  for (const sentence of splitSentences(feedback)) {
    const ids = idsIn(sentence);
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
    directives.push({ kind: "add", subject: subject || normalizeSpace(sentence), sentence, ids });
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
