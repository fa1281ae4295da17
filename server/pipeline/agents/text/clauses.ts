/**
 * Reading a brief into clauses: who (a group, the product, or a thing) does what, with the actor carried into
 * clauses that omit it. Rules only, no randomness, so the same text always reads the same way.
 */
import { DETERMINERS, actorName, actorReference, isActorNoun, isPluralNoun, isSingularGroup } from "./actors";
import { lowerFirst, normalizeSpace, sentenceCase, splitSentences, tokensOf } from "./normalize";
import { objectPhrase } from "./objects";
import { NOT_IN_NOUN_PHRASE, SUBJECT_PRONOUNS, readOpening, verbAfter } from "./subjects";
import { bare, baseOfThirdPerson, isBaseVerb, thirdPersonPhrase } from "./verbs";

/**
 * One thing a brief says: who (an actor, the system, or a thing) does what. `description` clauses only
 * describe the product ("A ride-hailing app for a mid-sized city").
 */
export interface Clause {
  kind: "person" | "system" | "rule" | "description";
  /** Who acts, as a group in sentence case ("Riders", "Operations staff", "Back office"); "System" for the product and for rules. */
  actor: string;
  /** The verb phrase in its base form ("pay by card"); for a rule, the whole clause ("payments must go through Stripe"); for a description, its text. */
  action: string;
  /** The clause as a sentence with its subject, the actor carried into clauses that omit it ("Riders pay by card"). */
  text: string;
}

/** Words that join clauses and say nothing themselves. */
const LEADING_CONNECTIVES = /^(?:and|or|but|while|whereas|then|also|plus|so|as well as|where|whereby)\s+/i;
const LEADING_FILLER = /^(?:also|then|easily|quickly|securely|directly|simply|to)\s+/i;

function cleanAction(action: string): string {
  let clean = normalizeSpace(action).replace(/[.;:!?,]+$/, "");
  while (LEADING_FILLER.test(clean)) clean = clean.replace(LEADING_FILLER, "");
  return clean;
}

/** Parts of a sentence that carry their own clauses: after a colon, at "where", at "that lets ..." and similar. */
function segmentsOf(sentence: string): string[] {
  const segments = normalizeSpace(sentence)
    .replace(/[.!?]+$/, "")
    .split(/\s*[:;]\s+|,?\s+(?:where|in which|through which|with which|whereby)\s+|,?\s+(?:(?:that|which)\s+)?(?:lets|allows|enables|helps|permits)\s+/i)
    .filter((segment) => segment.trim() !== "");
  // "a planner for busy families who cook together": the relative clause's subject is the group named before "who".
  return segments.flatMap((segment) => {
    const relative = /^(.+?)\s+who\s+(.+)$/i.exec(segment);
    if (!relative?.[1] || !relative[2]) return [segment];
    const before = tokensOf(relative[1]);
    const head = before[before.length - 1] ?? "";
    // "see who has what": "who" after a verb asks a question, it names no group.
    if (!isActorNoun(bare(head)) || isBaseVerb(bare(head))) return [segment];
    const qualifier = before[before.length - 2];
    const group = qualifier && !NOT_IN_NOUN_PHRASE.has(bare(qualifier)) && !DETERMINERS.has(bare(qualifier)) ? `${qualifier} ${head}` : head;
    const passive = passiveRule(before.length === 1 || before.length === 2 ? group : relative[1], relative[2]);
    if (passive) return [passive];
    return [relative[1], `${group} ${relative[2]}`];
  });
}

/** "suspended" -> "suspend", "banned" -> "ban", "notified" -> "notify": the base verb of a past participle, when known. */
function baseOfParticiple(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (!/(?:ed|en)$/.test(lower)) return undefined;
  const stem = lower.slice(0, -2);
  const candidates = [stem, lower.slice(0, -1), stem.slice(0, -1), `${stem.slice(0, -1)}y`, `${lower.slice(0, -3)}y`];
  return candidates.find((candidate) => candidate.length >= 2 && isBaseVerb(candidate));
}

/**
 * "Members who return late twice are suspended for a month": the group is acted on, so the product does it, on a
 * condition: "the system suspends members for a month when they return late twice". Undefined for any other shape.
 */
function passiveRule(group: string, relative: string): string | undefined {
  const split = /^(.+?)\s+(?:are|is|get|gets|will be|must be|should be)\s+([a-z]+)\b(.*)$/i.exec(relative);
  const base = split?.[2] ? baseOfParticiple(split[2]) : undefined;
  if (!split?.[1] || !base) return undefined;
  return `the system ${thirdPersonPhrase(base)} ${lowerFirst(group)}${split[3] ?? ""} when they ${split[1]}`;
}

/** Pieces of a segment split at commas and conjunctions, each with the separator that preceded it. */
function piecesOf(segment: string): { text: string; separator: string }[] {
  const pieces: { text: string; separator: string }[] = [];
  const pattern = /\s*,\s*(?:(?:and|or|but|while|whereas|plus)\s+)?|\s+(?:and|or|but|while|whereas|as well as|plus)\s+/gi;
  let last = 0;
  let separator = "";
  for (const match of segment.matchAll(pattern)) {
    pieces.push({ text: segment.slice(last, match.index), separator });
    separator = match[0];
    last = (match.index ?? 0) + match[0].length;
  }
  pieces.push({ text: segment.slice(last), separator });
  return pieces.map((piece) => ({ text: piece.text.trim().replace(LEADING_CONNECTIVES, ""), separator: piece.separator })).filter((piece) => piece.text !== "");
}

interface Subject {
  kind: "person" | "system" | "thing";
  actor: string;
  /** As the brief wrote it, for rules ("payments"). */
  words: string;
  singular: boolean;
  modal: string;
}

/**
 * Every clause of a text, in order: split at sentences, colons, semicolons, relative markers ("where",
 * "that lets"), commas and conjunctions; a clause without a subject ("... and pay by card") takes the
 * subject before it; a piece without a verb ("... products, orders and invoices") continues the list
 * of things the previous clause works on.
 */
export function readClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let subject: Subject | undefined;
  let subjectNamed = false;
  for (const sentence of splitSentences(text)) {
    for (const segment of segmentsOf(sentence)) {
      let lastInSegment: Clause | undefined;
      let loneVerb: { separator: string; word: string } | undefined;
      // A clause without a subject continues one in the same segment, or follows a segment that only named the group.
      let canContinue = subjectNamed;
      subjectNamed = false;
      const segmentPieces = piecesOf(segment);
      // A segment that only names a group ("Drivers: accept trips, ...") sets who acts next.
      if (segmentPieces.length === 1) {
        const tokens = tokensOf(segmentPieces[0]?.text ?? "");
        const head = tokens[tokens.length - 1] ?? "";
        if (tokens.length <= 3 && isActorNoun(bare(head)) && !tokens.some((token) => isBaseVerb(token) || NOT_IN_NOUN_PHRASE.has(bare(token)))) {
          const actor = actorName(tokens.join(" "));
          subject = { kind: "person", actor, words: tokens.join(" "), singular: isSingularGroup(actor), modal: "" };
          subjectNamed = true;
          continue;
        }
      }
      for (const piece of segmentPieces) {
        const tokens = tokensOf(piece.text.replace(/[.;:!?]+$/, ""));
        let opening = readOpening(tokens);
        if (opening?.kind !== "person" && SUBJECT_PRONOUNS.has(bare(tokens[0])) && subject) {
          const verb = verbAfter(tokens, 1, subject.singular && bare(tokens[0]) !== "they");
          if (verb) opening = { kind: subject.kind, subject: subject.words, singular: subject.singular, ...verb };
        }
        let verbAt: number;
        let modal: string;
        if (opening && opening.kind === "person") {
          subject = { kind: "person", actor: actorName(opening.subject), words: opening.subject, singular: opening.singular, modal: opening.modal };
          ({ verbAt, modal } = opening);
        } else {
          // After a modal ("customers can order food and book rides") the verbs that follow are in their base form.
          const continued = subject ? verbAfter(tokens, 0, subject.modal ? false : subject.singular) : undefined;
          if (subject && continued && (canContinue || lastInSegment !== undefined || loneVerb !== undefined)) {
            ({ verbAt, modal } = continued);
            modal = modal || subject.modal;
          } else if (opening) {
            subject =
              opening.kind === "system"
                ? { kind: "system", actor: "System", words: opening.subject, singular: true, modal: opening.modal }
                : { kind: "thing", actor: "System", words: opening.subject, singular: opening.singular, modal: opening.modal };
            ({ verbAt, modal } = opening);
          } else if (lastInSegment && !loneVerb) {
            // No verb of its own: more of what the previous clause works on.
            lastInSegment.action += `${piece.separator}${piece.text}`;
            lastInSegment.text += `${piece.separator}${piece.text}`;
            continue;
          } else {
            clauses.push({ kind: "description", actor: "System", action: piece.text, text: sentenceCase(piece.text) });
            continue;
          }
        }
        const current = subject as Subject;
        const verb = tokens[verbAt] ?? "";
        const base = isBaseVerb(verb) ? verb : (baseOfThirdPerson(verb) ?? verb);
        let action = cleanAction([base, ...tokens.slice(verbAt + 1)].join(" "));
        // "search products and add them to a cart": "them" is what the same actor's previous clause worked on.
        const previous = clauses[clauses.length - 1];
        if (/\bthem\b/i.test(action) && previous?.kind === "person" && current.kind === "person" && previous.actor === current.actor) {
          const things = objectPhrase(previous.action);
          const head = things[things.length - 1];
          if (head && isPluralNoun(head) && !isActorNoun(head)) action = action.replace(/\bthem\b/i, things.join(" "));
        }
        // "search and filter products": a verb alone shares the object of the verb after it.
        if (loneVerb) {
          action = `${loneVerb.word}${loneVerb.separator}${action}`;
          loneVerb = undefined;
        }
        if (tokens.length === verbAt + 1 && piece !== segmentPieces[segmentPieces.length - 1]) {
          loneVerb = { separator: segmentPieces[segmentPieces.indexOf(piece) + 1]?.separator ?? " and ", word: action };
          continue;
        }
        const said = normalizeSpace(`${modal} ${action}`);
        let clause: Clause;
        if (current.kind === "person") {
          const agreeing = current.singular && !modal ? thirdPersonPhrase(action) : said;
          clause = { kind: "person", actor: current.actor, action, text: sentenceCase(`${actorReference(current.actor)} ${agreeing}`) };
        } else if (current.kind === "system") {
          clause = { kind: "system", actor: "System", action, text: sentenceCase(`${current.words} ${modal ? said : current.singular ? thirdPersonPhrase(action) : action}`) };
        } else {
          const rule = sentenceCase(`${current.words} ${modal ? said : current.singular ? thirdPersonPhrase(action) : action}`);
          clause = { kind: "rule", actor: "System", action: lowerFirst(rule), text: rule };
        }
        clauses.push(clause);
        lastInSegment = clause;
      }
      if (loneVerb && lastInSegment) lastInSegment.action += `${loneVerb.separator}${loneVerb.word}`;
    }
  }
  return clauses;
}

/** "We are building a super-app where ..." -> "a super-app": what the brief says the product is, when it says so. */
export function productDescriptionIn(brief: string): string | undefined {
  const sentence = splitSentences(brief)[0] ?? "";
  const first = readClauses(sentence).find((clause) => clause.kind === "description");
  if (!first) return undefined;
  // The clause reader splits at "and" ("a web and mobile app" -> "a web"): the description is the sentence's opening
  // up to where its clauses begin, when that is where the description clause starts.
  const opening = normalizeSpace(sentence.split(/\s*[:;]\s*|,?\s+(?:where|in which|through which|with which|whereby|that lets|which lets|so that)\s+/i)[0] ?? "");
  const whole = opening.toLowerCase().startsWith(first.action.toLowerCase()) ? opening : first.action;
  const described = whole
    .replace(/^(?:we|i)\s+(?:are|am|'re)\s+(?:building|creating|developing|making|designing|launching)\s+/i, "")
    .replace(/^(?:we|i)\s+(?:want|need|plan|would like)\s+(?:to\s+(?:build|create|develop|make|launch)\s+)?/i, "")
    .replace(/^(?:build|create|develop|design|launch|make)\s+/i, "")
    .replace(/^(?:this|it|the product)\s+is\s+/i, "")
    .replace(/[.,;:]+$/, "");
  // A description ends in what the product is, never in an adjective or a word that joins ("a web", "an app for").
  const last = described.split(" ").at(-1)?.toLowerCase() ?? "";
  const dangling = /^(?:web|mobile|online|digital|desktop|native|hybrid|cloud|simple|small|new|and|or|for|of|with|to|the|a|an)$/.test(last);
  return /^(?:a|an)\s+\S/i.test(described) && described.split(" ").length <= 14 && !dangling ? lowerFirst(described) : undefined;
}
