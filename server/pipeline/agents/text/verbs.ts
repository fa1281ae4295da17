/**
 * Verbs: which words are verbs (from a fixed list, so nouns stay nouns), their third-person and base forms,
 * and actions the actor receives rather than does ("get paid weekly", "receive SMS reminders").
 */
import { normalizeSpace } from "./normalize";

/** Verbs briefs use for what people do with software; a word is read as a verb only from this list, so nouns stay nouns. */
const VERBS = new Set(
  (
    "accept access add adjust allocate analyse analyze answer apply approve archive arrange assign attach attend audit authorise authorize " +
    "automate be bid block book borrow browse buy calculate call cancel capture change charge chat check choose claim clean close collect " +
    "comment compare complete comply configure confirm connect consult contact control convert cook coordinate copy correct create customise " +
    "customize deactivate decide decline define delete deliver deposit design detect dispatch display donate download drive earn edit email " +
    "enable encrypt enrol enroll enter escalate estimate evaluate exchange explore export fetch file fill filter find finish fix flag follow " +
    "forecast forward generate get give go grade handle have hire hold host import inspect install invest invite invoice issue join keep " +
    "label launch learn leave lend list load locate lock log look maintain make manage map mark match measure meet merge message migrate " +
    "moderate monitor move notify obtain offer open order organise organize pack park pay pick place plan play post prepare prescribe " +
    "print prioritise prioritize process provide publish purchase push rank rate read rebook receive recommend reconcile record recover redeem " +
    "refill refund register reject release remind remove rent renew reorder repair replace reply report request reschedule reserve resolve " +
    "respond restore retrieve return review ride route run save scan schedule search see select sell send set settle share ship show sign " +
    "sort start stop store stream submit subscribe suggest supervise support swap switch sync take teach test tip top trace track trade " +
    "train transfer translate travel treat unlock unsubscribe update upload use validate verify view visit vote walk watch withdraw write bill count suspend ban warn fine"
  ).split(" "),
);

/** Third-person forms that the -s rules below would get wrong. */
const IRREGULAR_THIRD_PERSON: Record<string, string> = { be: "is", have: "has", do: "does", go: "goes" };
const IRREGULAR_BASE: Record<string, string> = { is: "be", are: "be", has: "have", does: "do", goes: "go" };

/** A word in lower case without punctuation, for looking it up in the word lists. */
export function bare(word: string | undefined): string {
  return (word ?? "").toLowerCase().replace(/[^a-z'-]/g, "");
}

export function isBaseVerb(word: string): boolean {
  return VERBS.has(bare(word));
}

/** "reconciles" -> "reconcile", "watches" -> "watch", "carries" -> "carry"; undefined when the word is no verb of the list. */
export function baseOfThirdPerson(word: string): string | undefined {
  const lower = bare(word);
  if (IRREGULAR_BASE[lower]) return IRREGULAR_BASE[lower];
  if (!lower.endsWith("s") || lower.endsWith("ss")) return undefined;
  const candidates = [lower.slice(0, -1), lower.endsWith("es") ? lower.slice(0, -2) : "", lower.endsWith("ies") ? `${lower.slice(0, -3)}y` : ""];
  return candidates.find((candidate) => candidate !== "" && VERBS.has(candidate));
}

export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR_THIRD_PERSON[lower]) return IRREGULAR_THIRD_PERSON[lower];
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** "book trips" -> "books trips", "get paid weekly" -> "gets paid weekly". */
export function thirdPersonPhrase(action: string): string {
  const [first = "", ...rest] = normalizeSpace(action).split(" ");
  if (!isBaseVerb(first)) return action;
  return [thirdPerson(first), ...rest].join(" ");
}

const IRREGULAR_PARTICIPLES: Record<string, string> = { paid: "pay", sent: "send", sold: "sell", bought: "buy", made: "make", given: "give", taken: "take", shown: "show", seen: "see", kept: "keep", held: "hold", told: "tell" };

/** "get paid weekly", "be notified": an action the actor receives rather than does; returns the verb done to them ("pay"). */
export function passiveVerb(action: string): string | undefined {
  const [first, second] = normalizeSpace(action).toLowerCase().split(" ");
  if (!first || !second || !["get", "be", "become"].includes(first)) return undefined;
  const participle = second.replace(/[^a-z]/g, "");
  if (IRREGULAR_PARTICIPLES[participle]) return IRREGULAR_PARTICIPLES[participle];
  if (!participle.endsWith("ed")) return undefined;
  const candidates = [participle.slice(0, -1), participle.slice(0, -2), participle.endsWith("ied") ? `${participle.slice(0, -3)}y` : "", participle.slice(0, -3)];
  return candidates.find((candidate) => candidate !== "" && VERBS.has(candidate));
}

/**
 * What is done for the actor when the action happens to them rather than by them: "get paid weekly" -> "pay",
 * "receive SMS reminders" -> "send". Such work runs on the product's side (a schedule), not on the actor's click.
 */
export function deliveredBy(action: string): string | undefined {
  return passiveVerb(action) ?? (/^receives?\s+\S/i.test(normalizeSpace(action)) ? "send" : undefined);
}

/** The first word of an action, as an imperative verb ("order", "book"). */
export function verbOf(action: string): string {
  return (action.split(/\s+/)[0] ?? "handle").toLowerCase().replace(/[^a-z-]/g, "") || "handle";
}

/** What an actor does to the thing, for a relationship's label: "books", "pays", and "receives" for "get paid". */
export function relationLabel(action: string): string {
  if (passiveVerb(action)) return "receives";
  return thirdPerson(verbOf(action));
}
