/**
 * The start of a clause: its subject (a person or group, the product, or a thing) and the verb that agrees
 * with it, past modals ("should be able to") and adverbs ("also").
 */
import { DETERMINERS, PLURAL_COLLECTIVES, isActorNoun, isPluralNoun } from "./actors";
import { bare, baseOfThirdPerson, isBaseVerb } from "./verbs";

/** Subjects that name the product itself ("the app must ...", "we send ..."). */
const SYSTEM_WORDS = new Set(
  "system app application platform product solution service backend it we portal website site tool software api wallet marketplace".split(" "),
);

const MODAL_PHRASE =
  /^(?:should be able to|must be able to|shall be able to|will be able to|are able to|is able to|be able to|need to|needs to|want to|wants to|have to|has to|can|could|should|must|shall|will|may|might|to)\b/i;

/** Words between a subject and its verb that change nothing ("drivers can also rate riders"). */
const SKIPPED_ADVERBS = new Set("also then easily quickly securely directly simply only now still always instantly".split(" "));

/** Words that cannot be part of a subject: prepositions, conjunctions, auxiliaries and pronouns. */
export const NOT_IN_NOUN_PHRASE = new Set(
  (
    "for to from with by in on at via through using before after when while so that which who where into about of per and or but as than " +
    "within without during until every once " +
    "is are was were be been has have had do does did not no can could should must shall will may might would if because they he she i you me us them"
  ).split(" "),
);

/** Pronouns that stand for the subject before them ("Drivers accept trips. They also rate riders."). */
export const SUBJECT_PRONOUNS = new Set(["they", "he", "she"]);

/** How a clause starts: who or what acts, in which number, and where its verb is. */
export interface Opening {
  kind: "person" | "system" | "thing";
  /** The subject as written ("the back office"). */
  subject: string;
  singular: boolean;
  modal: string;
  /** Index of the verb in the tokens. */
  verbAt: number;
}

/** Where the verb is after `from` (past a modal and adverbs), checking it agrees with the subject. */
export function verbAfter(tokens: string[], from: number, singularSubject: boolean | undefined): { modal: string; verbAt: number } | undefined {
  let at = from;
  const modal = MODAL_PHRASE.exec(tokens.slice(at).join(" "))?.[0] ?? "";
  if (modal) at += modal.split(" ").length;
  while (SKIPPED_ADVERBS.has(bare(tokens[at]))) at++;
  const word = tokens[at];
  if (!word) return undefined;
  if (modal || singularSubject === false) return isBaseVerb(word) ? { modal, verbAt: at } : undefined;
  if (baseOfThirdPerson(word)) return { modal, verbAt: at };
  // A collective such as "staff" takes either number.
  return singularSubject === undefined && isBaseVerb(word) ? { modal, verbAt: at } : undefined;
}

/** "riders book ...", "the back office reconciles ...", "payments must ...": a subject and its verb at the start of a clause. */
export function readOpening(tokens: string[]): Opening | undefined {
  for (let at = 1; at <= Math.min(5, tokens.length - 1); at++) {
    const phrase = tokens.slice(0, at);
    const word = bare(phrase[at - 1]);
    if (word === "" || NOT_IN_NOUN_PHRASE.has(word) || MODAL_PHRASE.test(word) || (at > 1 && DETERMINERS.has(word))) return undefined;
    const head = word;
    const kind = isActorNoun(head) ? "person" : SYSTEM_WORDS.has(head) ? "system" : "thing";
    // A thing's phrase must not start with a verb: "track orders" is an action, not orders that a "track" does.
    if (kind !== "person" && isBaseVerb(phrase[0] ?? "") && !DETERMINERS.has(bare(phrase[0]))) continue;
    const number = PLURAL_COLLECTIVES.has(head) ? undefined : head === "we" ? false : !isPluralNoun(head);
    const verb = verbAfter(tokens, at, number);
    if (verb) return { kind, subject: phrase.join(" "), singular: number === true, ...verb };
  }
  return undefined;
}
