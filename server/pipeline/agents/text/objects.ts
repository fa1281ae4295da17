/**
 * What an action works on: its object ("accept ride requests" -> "ride request"), the noun its verb makes when
 * it names none ("pay by card" -> "payment"), and one instance of it for a scenario ("book a trip").
 */
import { DETERMINERS, isActorNoun } from "./actors";
import { STOP_WORDS } from "./keywords";
import { normalizeSpace, titleCase } from "./normalize";
import { UNCOUNTED, singular, withArticle } from "./nouns";
import { isBaseVerb, passiveVerb } from "./verbs";

const OBJECT_ENDS = /^(for|to|from|with|by|in|on|at|via|through|using|before|after|when|while|so|that|into|about|of|per|every|each|once|twice|within|until|during|as|if|without)$/i;
/** Words after an object that say how or when, not what ("book appointments online"). */
const TRAILING_ADVERBS = new Set(
  "online offline weekly daily nightly monthly yearly annually hourly instantly quickly remotely automatically manually together again later now today tonight anywhere anytime securely easily directly immediately first".split(" "),
);
const PARTICLES = new Set(["up", "in", "out", "off", "back", "down", "over"]);

/** What the verb phrase's own noun is when it names no object: "pay by card" works on a Payment. */
const NOMINALS: Record<string, string> = {
  pay: "payment", book: "booking", register: "registration", confirm: "confirmation", reconcile: "reconciliation", deliver: "delivery",
  ship: "shipment", subscribe: "subscription", rate: "rating", approve: "approval", notify: "notification", apply: "application",
  enrol: "enrolment", enroll: "enrollment", withdraw: "withdrawal", deposit: "deposit", transfer: "transfer", purchase: "purchase",
  buy: "purchase", sell: "sale", cancel: "cancellation", refund: "refund", order: "order", donate: "donation", vote: "vote",
  travel: "trip", ride: "ride", drive: "trip", chat: "message", message: "message", comment: "comment", reply: "reply", review: "review",
  report: "report", invoice: "invoice", upload: "upload", search: "search", schedule: "schedule", reserve: "reservation", attend: "attendance",
  visit: "visit", bid: "bid", tip: "tip", rent: "rental", borrow: "loan", lend: "loan", redeem: "redemption", consult: "consultation",
  prescribe: "prescription", verify: "verification", check: "check", park: "parking session",
  "sign up": "account", "sign in": "session", "log in": "session", "check in": "check-in", "check out": "checkout", "top up": "top-up",
};
/** What someone receives when something is done to them ("get paid" -> a payout). */
const PASSIVE_NOMINALS: Record<string, string> = { pay: "payout", notify: "notification", remind: "reminder", approve: "approval", invite: "invitation" };

/** The action's words; a comma becomes a word of its own, since it ends an object ("manage products, orders and invoices"). */
function actionWords(action: string): string[] {
  return action
    .replace(/,/g, " , ")
    .replace(/[^A-Za-z0-9\s,-]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/** Where the object starts: after the verbs ("search and filter products"), a passive's participle ("get paid") and a particle ("sign up"). */
function objectStart(words: string[]): number {
  let start = 1;
  while (/^(and|or|,)$/i.test(words[start] ?? "") && isBaseVerb(words[start + 1] ?? "")) start += 2;
  if (passiveVerb(words.join(" "))) start = 2;
  if (PARTICLES.has((words[start] ?? "").toLowerCase())) start++;
  return start;
}

/** The words naming what an action works on ("accept ride requests" -> ["ride", "requests"]); a list of things is named by its first. */
export function objectPhrase(action: string): string[] {
  const words = actionWords(action);
  const start = objectStart(words);
  const stopAt = words.findIndex((word, index) => index >= start && (OBJECT_ENDS.test(word) || /^(and|or|,)$/i.test(word)));
  const phrase = (stopAt >= start ? words.slice(start, stopAt) : words.slice(start)).filter(
    (word) => word.length >= 2 && !DETERMINERS.has(word.toLowerCase()) && !STOP_WORDS.has(word.toLowerCase()) && !/^\d/.test(word),
  );
  while (phrase.length > 0 && TRAILING_ADVERBS.has((phrase[phrase.length - 1] ?? "").toLowerCase())) phrase.pop();
  return phrase;
}

/** The noun an action makes of its verb when it names no object ("pay by card" -> "payment", "get paid weekly" -> "payout"). */
function nominalOf(action: string): string | undefined {
  const passive = passiveVerb(action);
  if (passive) return PASSIVE_NOMINALS[passive] ?? NOMINALS[passive];
  const [verb = "", particle = ""] = actionWords(action).map((word) => word.toLowerCase());
  return NOMINALS[`${verb} ${particle}`] ?? NOMINALS[verb];
}

/** The thing an action works on, as an entity name ("book rides" -> "Ride", "manage their catalogs" -> "Catalog", "pay by card" -> "Payment"). */
export function objectNoun(action: string): string | undefined {
  const head = objectPhrase(action).pop();
  if (head && head.length >= 3) return titleCase(singular(head.toLowerCase()));
  const nominal = nominalOf(action);
  return nominal ? titleCase(nominal) : undefined;
}

/** The thing an action works on, in words, one of it ("accept ride requests" -> "ride request", "see daily totals" -> "daily total"). */
export function objectText(action: string): string | undefined {
  const phrase = objectPhrase(action).slice(-3);
  const head = phrase.pop();
  const keepCase = (word: string) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase());
  if (head && head.length >= 3) return [...phrase.map(keepCase), /^[A-Z]{2,}s?$/.test(head) ? head.replace(/s$/, "") : singular(head.toLowerCase())].join(" ");
  return nominalOf(action);
}

const FREQUENCY = /\s+(?:(?:every|each)\s+(?:day|night|week|month|year|hour|morning|evening)|daily|nightly|weekly|monthly|yearly|annually|hourly)$/i;

/**
 * One instance of what an action does, for a scenario: "book trips" -> "book a trip", "manage my schedules"
 * -> "manage my schedule", "reconcile settlements with the bank every night" -> "reconcile a settlement with the bank".
 */
export function oneOf(action: string): string {
  const words = normalizeSpace(action.replace(FREQUENCY, "")).split(" ");
  const start = objectStart(words.map((word) => word.replace(/[^A-Za-z0-9,-]/g, "")));
  let end = start;
  while (end < words.length && !OBJECT_ENDS.test(words[end] ?? "") && !/^(and|or)$/i.test(words[end] ?? "") && !/,$/.test(words[end - 1] ?? "")) end++;
  let head = end - 1;
  while (head >= start && TRAILING_ADVERBS.has((words[head] ?? "").toLowerCase())) head--;
  // "with doctors" -> "with a doctor": the people one instance involves are one too.
  for (let at = end; at + 1 < words.length; at++) {
    const preposition = words[at] ?? "";
    const person = words[at + 1] ?? "";
    if (/^(with|to|for|from)$/i.test(preposition) && /^[a-z]+$/.test(person) && isActorNoun(person) && singular(person) !== person) words[at + 1] = withArticle(singular(person));
  }
  const word = words[head];
  if (head < start || !word || !/^[a-z]+$/.test(word) || singular(word) === word || UNCOUNTED.has(word)) return words.join(" ");
  words[head] = singular(word);
  const first = words[start] ?? "";
  if (!DETERMINERS.has(first.toLowerCase()) && !/^\d/.test(first)) words[start] = withArticle(first);
  return words.join(" ");
}
