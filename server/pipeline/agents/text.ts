/**
 * Plain-language reading of briefs and feedback for the deterministic agents: sentences, clauses, actors,
 * capabilities, quality targets, external services and business domains; and the English the agents write
 * back (plurals, counts, verb agreement). Rules only, no randomness, so the same text always reads the same way.
 */

// ---- words ------------------------------------------------------------------------------------------

const STOP_WORDS = new Set(
  (
    "a an the and or but of to for in on at by with from into onto via as is are be been being was were it its this that these those " +
    "their his her our your my we you they he she i me us them can could should would must shall will may might need needs want wants " +
    "able also please so then than there here which who whom whose what when where how all any each every some such not no do does did " +
    "has have had just only very more most other new add added include including remove delete change replace rename support make sure"
  ).split(" "),
);

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function sentenceCase(text: string): string {
  const clean = normalizeSpace(text).replace(/[.;:,!?]+$/, "");
  return clean.charAt(0).toUpperCase() + clean.slice(1);
}

export function lowerFirst(text: string): string {
  // Keep acronyms and proper names ("SMS", "Stripe ...") as they are.
  if (/^[A-Z]{2,}/.test(text) || /^[A-Z][a-z]+[A-Z]/.test(text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function titleCase(text: string): string {
  return normalizeSpace(text)
    .split(" ")
    .map((word) => (word.length > 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join(" ");
}

/** Up to `max` words, for names and titles; cut at the first clause when that fits, otherwise marked with an ellipsis. */
export function shorten(text: string, max = 8): string {
  const words = normalizeSpace(text).split(" ");
  if (words.length <= max) return words.join(" ");
  const clause = normalizeSpace(text).split(/\s*[;:(]\s*|,\s+/)[0] ?? "";
  if (clause.split(" ").length <= max && clause.split(" ").length >= 3) return clause;
  return `${words.slice(0, max).join(" ").replace(/[,;:]$/, "")}…`;
}

const IRREGULAR_PLURALS: Record<string, string> = {
  person: "people",
  child: "children",
  man: "men",
  woman: "women",
  foot: "feet",
  criterion: "criteria",
  analysis: "analyses",
  basis: "bases",
  crisis: "crises",
  datum: "data",
};
const IRREGULAR_SINGULARS: Record<string, string> = Object.fromEntries(Object.entries(IRREGULAR_PLURALS).map(([one, many]) => [many, one]));
/** Words with one form for one and many. */
const UNCOUNTED = new Set("staff personnel data information equipment feedback news series species software hardware money media".split(" "));

function sameCase(model: string, word: string): string {
  return /^[A-Z]/.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (IRREGULAR_SINGULARS[lower]) return sameCase(word, IRREGULAR_SINGULARS[lower]);
  if (UNCOUNTED.has(lower) || lower.length <= 3 || /(ss|us|is|ics)$/.test(lower)) return word;
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zzes|tuses|buses|nuses|puses|ruses)$/.test(lower)) return word.slice(0, -2);
  if (/s$/.test(lower)) return word.slice(0, -1);
  return word;
}

/** "trip" -> "trips", "person" -> "people", "staff" -> "staff"; a phrase is pluralised on its last word. */
export function pluralNoun(phrase: string): string {
  const words = normalizeSpace(phrase).split(" ");
  const last = words.pop() ?? "";
  const lower = last.toLowerCase();
  let many: string;
  if (IRREGULAR_PLURALS[lower]) many = sameCase(last, IRREGULAR_PLURALS[lower]);
  else if (UNCOUNTED.has(lower) || /[^aeiou]ies$/.test(lower) || IRREGULAR_SINGULARS[lower]) many = last;
  else if (/^[A-Z0-9]+$/.test(last)) many = `${last}s`;
  else if (/[^aeiou]y$/i.test(last)) many = `${last.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(last)) many = `${last}es`;
  else many = `${last}s`;
  return [...words, many].join(" ");
}

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** "three", "12": small counts read better in words. */
export function numberWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

/** "1 capability", "5 capabilities", "no quality targets": a count with its noun in the right number. */
export function count(n: number, noun: string, many = pluralNoun(noun)): string {
  if (n === 0) return `no ${many}`;
  return `${n} ${n === 1 ? noun : many}`;
}

/** "one capability", "two quality targets": a count for prose. */
export function countInWords(n: number, noun: string, many = pluralNoun(noun)): string {
  return `${numberWord(n)} ${n === 1 ? noun : many}`;
}

/** Lowers a leading article only ("The payment gateway ..." -> "the payment gateway ..."), so names such as "Stripe" keep their capital. */
export function lowerArticle(text: string): string {
  return text.replace(/^(The|A|An|All|Each|Every|This|These|Those|Our|Their)\b/, (word) => word.toLowerCase());
}

function stem(word: string): string {
  return singular(word.toLowerCase()).replace(/(ing|ed)$/, "");
}

/** The words that carry meaning, stemmed, for matching feedback against items. */
export function significantWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .replace(/[^a-z0-9\s-]/g, " ")
        .split(/[\s-]+/)
        .filter((word) => word.length > 2 && !STOP_WORDS.has(word))
        .map(stem),
    ),
  ];
}

/** How many of `subject`'s significant words occur in `text` (0..1). */
export function overlap(subject: string, text: string): number {
  const wanted = significantWords(subject);
  if (wanted.length === 0) return 0;
  const present = new Set(significantWords(text));
  return wanted.filter((word) => present.has(word)).length / wanted.length;
}

export function camelCase(text: string): string {
  const words = text
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0 && !["the", "a", "an", "their", "his", "her", "its", "our", "your", "my"].includes(word.toLowerCase()));
  if (words.length === 0) return "handleRequest";
  return words
    .slice(0, 5)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join("");
}

/** "a customer", "an administrator", "an SMS gateway", "a user". */
export function withArticle(noun: string): string {
  const acronym = /^[A-Z]{2,}\b/.test(noun);
  const vowelSound = acronym ? /^[AEFHILMNORSX]/.test(noun) : /^(?:[aeio]|u(?!ni|s[eu]|r[aeiou]|til)|hour|honest)/i.test(noun) && !/^(?:one|eu)/i.test(noun);
  return `${vowelSound ? "an" : "a"} ${noun}`;
}

export function joinList(items: string[], conjunction = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Clauses joined for prose, with a serial comma once a clause holds an "and" of its own ("..., and operations staff handle disputes"). */
export function joinClauses(clauses: string[]): string {
  if (clauses.length < 2 || !clauses.some((clause) => / and /.test(clause))) return joinList(clauses);
  return `${clauses.slice(0, -1).join(", ")}, and ${clauses[clauses.length - 1]}`;
}

export function padId(prefix: string, n: number, width = 3): string {
  return `${prefix}-${String(n).padStart(width, "0")}`;
}

/** The next free number after every `PREFIX-n` id in `ids`. */
export function nextNumber(ids: readonly string[], prefix: string): number {
  let max = 0;
  const pattern = new RegExp(`^${prefix}-(\\d+)$`, "i");
  for (const id of ids) {
    const match = pattern.exec(id);
    if (match?.[1]) max = Math.max(max, Number(match[1]));
  }
  return max + 1;
}

/** Readable text of a list item that may be a string or an object of any shape. */
export function itemText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string") return item;
  if (typeof item === "number" || typeof item === "boolean") return String(item);
  if (Array.isArray(item)) return item.map(itemText).join(", ");
  const record = item as Record<string, unknown>;
  for (const key of ["name", "title", "capability", "risk", "requirement", "description", "text", "summary", "label", "value"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return Object.values(record)
    .filter((value) => typeof value === "string")
    .join(" - ");
}

/** Every string inside a value, for matching feedback against items of unknown shape. */
export function allText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") return String(item);
  if (Array.isArray(item)) return item.map(allText).join(" ");
  return Object.values(item as Record<string, unknown>)
    .map(allText)
    .join(" ");
}

export function itemId(item: unknown): string | undefined {
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const id = (item as Record<string, unknown>).id;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return undefined;
}

// ---- sentences --------------------------------------------------------------------------------------

/** Sentences and bullet points of a text, without their final punctuation. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\r/g, "")
    .split(/(?<=[.!?])\s+|\n+|;\s+|\s+[•·]\s+/)
    .map((sentence) =>
      sentence
        .replace(/^\s*(?:[-*•·]|\d+[.)])\s+/, "")
        .replace(/[.!?]+$/, "")
        .trim(),
    )
    .filter((sentence) => /[A-Za-z]/.test(sentence) && sentence.length > 2);
}

const MODAL =
  /\b(should be able to|must be able to|shall be able to|will be able to|are able to|is able to|be able to|need to|needs to|want to|wants to|have to|has to|can|could|should|must|shall|will|may)\b/i;

// ---- actors -----------------------------------------------------------------------------------------

const PERSON_WORDS = new Set(
  (
    "user users customer customers client clients admin admins administrator administrators merchant merchants driver drivers rider riders " +
    "patient patients doctor doctors nurse nurses student students teacher teachers employee employees manager managers staff guest guests " +
    "member members buyer buyers seller sellers vendor vendors visitor visitors operator operators agent agents analyst analysts reviewer " +
    "reviewers owner owners tenant tenants landlord landlords partner partners supplier suppliers courier couriers passenger passengers " +
    "traveler travelers traveller travellers player players reader readers author authors editor editors subscriber subscribers citizen " +
    "citizens volunteer volunteers donor donors parent parents physician physicians accountant accountants investor investors applicant " +
    "applicants candidate candidates recruiter recruiters participant participants resident residents host hosts organizer organizers " +
    "attendee attendees consultant consultants technician technicians dispatcher dispatchers auditor auditors approver approvers people " +
    "person team teams shopper shoppers learner learners instructor instructors coach coaches athlete athletes farmer farmers clinician clinicians " +
    "receptionist receptionists cashier cashiers pharmacist pharmacists therapist therapists dentist dentists family families friend friends " +
    "worker workers officer officers clerk clerks caregiver caregivers carer carers freelancer freelancers contractor contractors " +
    "homeowner homeowners restaurant restaurants shop shops store stores business businesses company companies school schools"
  ).split(" "),
);

/** Groups that act as one ("the back office reconciles ..."); a story's role is one of their members. */
const COLLECTIVES = new Set("staff personnel team office department desk crew board committee unit management support administration helpdesk".split(" "));
/** Collectives that take a plural verb ("operations staff handle disputes"). */
const PLURAL_COLLECTIVES = new Set(["staff", "personnel"]);

/** Nouns that look like someone who does something (-er, -or, -ist, -ant, ...) but name things. */
const NOT_AGENTS = new Set(
  (
    "order offer letter number paper filter transfer answer voucher container parameter center centre folder header footer banner timer " +
    "counter marker layer server browser computer printer router scanner sticker poster cover power water tower register ledger trailer " +
    "corner border matter chapter character calendar barrier reminder error sensor monitor color colour floor door factor vector mirror motor " +
    "elevator indicator calculator event component incident accident content intent fee tree degree guarantee coffee dinner summer winter " +
    "weather meter liter litre cluster trigger slider tracker wrapper buffer cursor processor connector adapter plant percent talent patent " +
    "invoice distributor generator converter ingredient payment document comment statement settlement appointment"
  ).split(" "),
);

const SYSTEM_WORDS = new Set(
  "system app application platform product solution service backend it we portal website site tool software api wallet marketplace".split(" "),
);

export function isPersonWord(word: string): boolean {
  return PERSON_WORDS.has(word.toLowerCase());
}

/** Whether a noun names someone who acts: a known role, a group, or a noun of agency ("receptionists", "vendors"). */
function isActorNoun(word: string): boolean {
  const lower = word.toLowerCase();
  if (PERSON_WORDS.has(lower) || COLLECTIVES.has(lower)) return true;
  const one = singular(lower);
  if (NOT_AGENTS.has(one) || /(ment|list|ness|tion|sion)$/.test(one)) return false;
  return /(er|or|ist|ian|ant|ent|ee|eer)$/.test(one);
}

const DETERMINERS = new Set("the a an their his her its our your my all any each every some these those this new existing own".split(" "));

/** The actor's words without a leading determiner ("the back office" -> "back office"). */
function actorWords(actor: string): string[] {
  const words = normalizeSpace(actor).split(" ");
  while (words.length > 1 && DETERMINERS.has((words[0] ?? "").toLowerCase())) words.shift();
  return words;
}

/** A group named in the singular ("Back office", "Support team"): "the back office", with a singular verb. */
export function isSingularGroup(actor: string): boolean {
  const last = (actorWords(actor).at(-1) ?? "").toLowerCase();
  return COLLECTIVES.has(last) && !PLURAL_COLLECTIVES.has(last);
}

/** "customers" -> "Customer", "operations staff" -> "Operations staff member", "back office" -> "Back office member": the role in stories and diagrams. */
export function roleName(actor: string): string {
  const words = actorWords(actor);
  const last = words[words.length - 1] ?? actor;
  const lower = last.toLowerCase();
  if (lower === "member" || lower === "members") return sentenceCase([...words.slice(0, -1), "member"].join(" "));
  if (COLLECTIVES.has(lower) || (lower === "teams" && words.length > 0)) return sentenceCase([...words.slice(0, -1), singular(last), "member"].join(" "));
  return sentenceCase([...words.slice(0, -1), singular(last)].join(" "));
}

/** How a sentence names the actor's group mid-sentence: "riders", "operations staff", "the back office". */
export function actorReference(actor: string): string {
  if (actor === "System") return "the system";
  const words = actorWords(actor).join(" ");
  return isSingularGroup(actor) ? `the ${lowerFirst(words)}` : lowerFirst(words);
}

/** The actor doing the actions, agreeing in number: "riders book trips and pay by card", "the back office reconciles settlements". */
export function actorClause(actor: string, actions: string | readonly string[]): string {
  const agreeing = (action: string) => (isSingularGroup(actor) || actor === "System" ? thirdPersonPhrase(action) : action);
  return `${actorReference(actor)} ${joinList((typeof actions === "string" ? [actions] : [...actions]).map(agreeing))}`;
}

// ---- verbs ------------------------------------------------------------------------------------------

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
    "train transfer translate travel treat unlock unsubscribe update upload use validate verify view visit vote walk watch withdraw write bill count"
  ).split(" "),
);

/** Third-person forms that the -s rules below would get wrong. */
const IRREGULAR_THIRD_PERSON: Record<string, string> = { be: "is", have: "has", do: "does", go: "goes" };
const IRREGULAR_BASE: Record<string, string> = { is: "be", are: "be", has: "have", does: "do", goes: "go" };

function bare(word: string | undefined): string {
  return (word ?? "").toLowerCase().replace(/[^a-z'-]/g, "");
}

export function isBaseVerb(word: string): boolean {
  return VERBS.has(bare(word));
}

/** "reconciles" -> "reconcile", "watches" -> "watch", "carries" -> "carry"; undefined when the word is no verb of the list. */
function baseOfThirdPerson(word: string): string | undefined {
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

// ---- clauses ----------------------------------------------------------------------------------------

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

const MODAL_PHRASE =
  /^(?:should be able to|must be able to|shall be able to|will be able to|are able to|is able to|be able to|need to|needs to|want to|wants to|have to|has to|can|could|should|must|shall|will|may|might|to)\b/i;
/** Words between a subject and its verb that change nothing ("drivers can also rate riders"). */
const SKIPPED_ADVERBS = new Set("also then easily quickly securely directly simply only now still always instantly".split(" "));
const NOT_IN_NOUN_PHRASE = new Set(
  (
    "for to from with by in on at via through using before after when while so that which who where into about of per and or but as than " +
    "within without during until every once " +
    "is are was were be been has have had do does did not no can could should must shall will may might would if because they he she i you me us them"
  ).split(" "),
);
const SUBJECT_PRONOUNS = new Set(["they", "he", "she"]);

interface Opening {
  kind: "person" | "system" | "thing";
  /** The subject as written ("the back office"). */
  subject: string;
  singular: boolean;
  modal: string;
  /** Index of the verb in the tokens. */
  verbAt: number;
}

function isPluralNoun(word: string): boolean {
  const lower = bare(word);
  if (PLURAL_COLLECTIVES.has(lower) || IRREGULAR_SINGULARS[lower]) return true;
  return singular(lower) !== lower;
}

/** Where the verb is after `from` (past a modal and adverbs), checking it agrees with the subject. */
function verbAfter(tokens: string[], from: number, singularSubject: boolean | undefined): { modal: string; verbAt: number } | undefined {
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
function readOpening(tokens: string[]): Opening | undefined {
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

/** The actor as a group in sentence case: "each driver" -> "Drivers", "the back office" -> "Back office". */
function actorName(subject: string): string {
  const words = actorWords(subject);
  const last = words[words.length - 1] ?? subject;
  const lower = last.toLowerCase();
  const group = COLLECTIVES.has(lower) || isPluralNoun(last) ? last : pluralNoun(last);
  return sentenceCase([...words.slice(0, -1), group].join(" "));
}

function tokensOf(text: string): string[] {
  return normalizeSpace(text).split(" ").filter(Boolean);
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
    if (!isActorNoun(bare(head))) return [segment];
    const qualifier = before[before.length - 2];
    const group = qualifier && !NOT_IN_NOUN_PHRASE.has(bare(qualifier)) && !DETERMINERS.has(bare(qualifier)) ? `${qualifier} ${head}` : head;
    return [relative[1], `${group} ${relative[2]}`];
  });
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
  const first = readClauses(splitSentences(brief)[0] ?? "").find((clause) => clause.kind === "description");
  if (!first) return undefined;
  const described = first.action
    .replace(/^(?:we|i)\s+(?:are|am|'re)\s+(?:building|creating|developing|making|designing|launching)\s+/i, "")
    .replace(/^(?:we|i)\s+(?:want|need|plan|would like)\s+(?:to\s+(?:build|create|develop|make|launch)\s+)?/i, "")
    .replace(/^(?:build|create|develop|design|launch|make)\s+/i, "")
    .replace(/^(?:this|it|the product)\s+is\s+/i, "")
    .replace(/[.,;:]+$/, "");
  return /^(?:a|an)\s+\S/i.test(described) && described.split(" ").length <= 14 ? lowerFirst(described) : undefined;
}

// ---- quality targets --------------------------------------------------------------------------------

const QUALITY_PATTERN =
  /\b(\d[\d,.]*\s*(?:k\b|ms\b|milliseconds|seconds|secs?\b|minutes|%|percent|concurrent|requests|users|rps|tps)|concurrent|latency|response times?|uptime|availab(?:le|ility)|24\/7|scal(?:e|able|ability)|performan(?:t|ce)|secure|security|encrypt\w*|gdpr|hipaa|pci|complian\w*|accessib\w*|wcag|audit\w*|backups?|disaster|recover\w*|offline|reliab\w*|throughput|peak|fast|quickly|privacy|resilien\w*|observab\w*|localiz\w*|multi-?language|i18n)\b/i;

export function isQualityText(text: string): boolean {
  return QUALITY_PATTERN.test(text);
}

/** "order food, book rides and pay bills" -> three actions; a lone verb stays with the next one ("search and filter products"). */
function splitActions(text: string): string[] {
  const parts = text
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+as well as\s+/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const actions: string[] = [];
  let pending = "";
  for (const part of parts) {
    if (part.split(/\s+/).length === 1) {
      pending = pending ? `${pending}, ${part}` : part;
      continue;
    }
    actions.push(pending ? `${pending} and ${part}` : part);
    pending = "";
  }
  if (pending) {
    if (actions.length > 0) actions[actions.length - 1] = `${actions[actions.length - 1]} and ${pending}`;
    else actions.push(pending);
  }
  return actions;
}

/** "The app must support 100k concurrent users and respond within 300 ms" -> one target per clause. */
function qualityTargetsIn(sentence: string): string[] {
  const text = normalizeSpace(sentence);
  const modal = MODAL.exec(text);
  if (!modal) return [`${sentenceCase(text)}.`];
  const subject = text.slice(0, modal.index + modal[0].length);
  const clauses = splitActions(text.slice(modal.index + modal[0].length));
  if (clauses.length < 2 || !clauses.every(isQualityText)) return [`${sentenceCase(text)}.`];
  // A clause with its own modal has its own subject ("... and the system must comply with HIPAA").
  return clauses.map((clause) => `${sentenceCase(MODAL.test(clause) ? clause : `${subject} ${clause}`)}.`);
}

/** Quality targets of a whole brief: sentences that only set targets, and target clauses of the product or of things in mixed sentences. */
export function qualityTargetsOf(brief: string): string[] {
  const targets: string[] = [];
  for (const sentence of splitSentences(brief)) {
    if (!isQualityText(sentence)) continue;
    const clauses = readClauses(sentence);
    if (capabilitiesIn(sentence).length === 0) {
      targets.push(...qualityTargetsIn(sentence));
      continue;
    }
    for (const clause of clauses) {
      if ((clause.kind === "system" || clause.kind === "rule") && isQualityText(clause.text)) targets.push(`${sentenceCase(clause.text)}.`);
    }
  }
  return [...new Set(targets)];
}

/** The quality a sentence is about, as the title of a non-functional requirement. */
export function qualityCategory(text: string): string {
  const lower = text.toLowerCase();
  if (/(concurrent|scal|peak|throughput|\d\s*k\b|users\b)/.test(lower)) return "Scalability";
  if (/(latency|response time|ms\b|millisecond|second|fast|quickly|performan)/.test(lower)) return "Performance";
  if (/(uptime|availab|24\/7|reliab|resilien|%|percent)/.test(lower)) return "Availability";
  if (/(gdpr|hipaa|pci|complian|privacy)/.test(lower)) return "Compliance and privacy";
  if (/(secure|security|encrypt)/.test(lower)) return "Security";
  if (/(audit)/.test(lower)) return "Auditability";
  if (/(accessib|wcag)/.test(lower)) return "Accessibility";
  if (/(backup|disaster|recover)/.test(lower)) return "Recoverability";
  if (/(offline)/.test(lower)) return "Offline operation";
  if (/(observab)/.test(lower)) return "Observability";
  if (/(locali|language|i18n)/.test(lower)) return "Localization";
  return "Quality";
}

// ---- business domains -------------------------------------------------------------------------------

const DOMAIN_KEYWORDS: readonly (readonly [string, RegExp])[] = [
  ["Payments and billing", /\b(pay|pays|paid|paying|payments?|payouts?|bills?|billing|invoices?|checkout|wallets?|refunds?|subscriptions?|charges?|fees?|settlements?|settle|reconcil\w*)\b/i],
  ["Ordering and commerce", /\b(orders?|ordering|carts?|catalogs?|catalogues?|products?|purchases?|shop|shopping|stores?|inventory|merchants?|sellers?)\b/i],
  ["Mobility and logistics", /\b(rides?|trips?|drivers?|deliver\w*|shipments?|shipping|couriers?|routes?|routing|fleet|tracking|track|pick-?ups?|drop-?offs?)\b/i],
  ["Scheduling and bookings", /\b(book|books|booking|bookings|appointments?|reservations?|reserve|schedul\w*|calendars?|slots?|visits?)\b/i],
  ["Identity and access", /\b(log ?in|sign ?in|sign ?up|register|registration|accounts?|profiles?|roles?|permissions?|authenticat\w*|passwords?)\b/i],
  ["Notifications and messaging", /\b(notif\w*|e-?mails?|sms|messages?|messaging|chat|reminders?|alerts?)\b/i],
  ["Reporting and analytics", /\b(reports?|reporting|dashboards?|analytics|metrics?|statistics|insights?|kpis?|exports?|totals?)\b/i],
  ["Content and documents", /\b(documents?|files?|uploads?|content|articles?|media|photos?|images?|videos?)\b/i],
  ["Healthcare", /\b(patients?|doctors?|clinics?|medical|health|prescriptions?|nurses?)\b/i],
  ["Education", /\b(students?|courses?|teachers?|lessons?|grades?|exams?|classes)\b/i],
  ["Search and discovery", /\b(search|filter\w*|browse|recommend\w*|discover\w*)\b/i],
  ["Reviews and ratings", /\b(reviews?|ratings?|rate|stars)\b/i],
  ["Support and dispute resolution", /\b(disputes?|complaints?|tickets?|claims?|incidents?|help ?desk|escalat\w*)\b/i],
];

export function domainsIn(text: string): string[] {
  return DOMAIN_KEYWORDS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** The first business domain a text belongs to, used to group requirements into epics. */
export function primaryDomain(text: string): string | undefined {
  return domainsIn(text)[0];
}

// ---- external services ------------------------------------------------------------------------------

const KNOWN_SERVICES = [
  "Stripe", "PayPal", "Adyen", "Braintree", "Square", "Mercado Pago", "Plaid", "Twilio", "SendGrid", "Mailgun", "Mailchimp",
  "Google Maps", "Mapbox", "Google Calendar", "Outlook", "Firebase", "Auth0", "Okta", "Keycloak", "Salesforce", "SAP", "HubSpot",
  "Zendesk", "Slack", "WhatsApp", "Telegram", "Shopify", "Jira", "GitHub", "OpenAI", "AWS", "Amazon S3", "S3", "Azure", "Google Cloud",
  "Cloudflare", "Zoom", "Microsoft Teams", "DocuSign", "QuickBooks", "Xero", "Segment", "Mixpanel", "Sentry", "Datadog", "Elasticsearch",
  "Kafka", "SWIFT", "SEPA", "Visa", "Mastercard", "Apple Pay", "Google Pay", "OneSignal", "Expo", "n8n",
];

const INTEGRATION_LEAD =
  /\b(?:via|through|using|(?:sign|log)\s?in\s+with|integrat(?:e|es|ed|ing|ion)\s+(?:with|into)|connect(?:s|ed|ing)?\s+(?:to|with)|powered\s+by|backed\s+by|hosted\s+on|deployed\s+(?:on|to)|sync(?:s|ed|ing)?\s+with)\s+((?:[A-Z][\w.&+-]*)(?:\s+[A-Z][\w.&+-]*){0,2})/g;

const NOT_A_SERVICE = new Set(["The", "A", "An", "Our", "Their", "Each", "All", "Any", "Every", "This", "That", "These", "Those", "It", "I", "We"]);
/** Standards and acronyms that follow "through"/"using" but are not systems to integrate. */
const NOT_A_SYSTEM = /^(GDPR|HIPAA|PCI|PCI DSS|SOC ?2?|ISO|WCAG|SLA|SMS|API|APIs|UI|UX|PDF|CSV|JSON|HTTP|HTTPS|TLS|SSL|REST|SSO|OAuth|QR)$/i;

const GENERIC_SERVICES: readonly (readonly [string, RegExp, RegExp])[] = [
  // [service, when the text needs it, unless a named service already covers it]
  ["Payment gateway", /\b(pay|pays|paid|paying|payments?|payouts?|checkout|card|cards|billing|charges?)\b/i, /\b(stripe|paypal|adyen|braintree|square|mercado pago|apple pay|google pay)\b/i],
  ["Email delivery service", /\be-?mails?\b/i, /\b(sendgrid|mailgun|mailchimp|ses)\b/i],
  ["SMS gateway", /\b(sms|text messages?)\b/i, /\b(twilio)\b/i],
  ["Push notification service", /\bpush notifications?\b/i, /\b(firebase|onesignal|expo)\b/i],
  ["Maps and geolocation provider", /\b(maps?|geolocat\w*|gps|routes?|routing|locations?|nearby)\b/i, /\b(google maps|mapbox)\b/i],
  ["Identity provider (SSO/OAuth)", /\b(sso|single sign-on|oauth|sign in with|log ?in with)\b/i, /\b(auth0|okta|keycloak)\b/i],
  ["Video conferencing service", /\b(video calls?|videoconferenc\w*|teleconsult\w*|telemedicine)\b/i, /\b(zoom|microsoft teams)\b/i],
  ["Banking interface", /\b(?:the|a|our|their|partner)\s+banks?\b|\bbank (?:transfers?|accounts?|statements?|files?)\b/i, /\b(plaid|swift|sepa)\b/i],
];

const GENERIC_SERVICE_NAMES = new Set(GENERIC_SERVICES.map(([name]) => name.toLowerCase()));

/** How prose names a service: "Stripe", or "a payment gateway" / "the payment gateway" for a kind of service. */
export function serviceReference(name: string, article: "a" | "the" = "the"): string {
  if (!GENERIC_SERVICE_NAMES.has(name.toLowerCase())) return name;
  const lower = lowerFirst(name);
  return article === "a" ? withArticle(lower) : `the ${lower}`;
}

export interface ExternalService {
  name: string;
  /** The clause of the brief that calls for it, with its actor ("Riders pay by card."). */
  purpose: string;
}

/** External systems a text names or clearly needs, in order of first mention. */
export function externalServicesIn(text: string): ExternalService[] {
  const found = new Map<string, ExternalService>();
  const clauses = readClauses(text).map((clause) => clause.text);
  const sentences = splitSentences(text);
  // Every clause that needs the service, up to three ("Riders pay by card; drivers get paid weekly.").
  const where = (needle: RegExp | string) => {
    const test = (candidate: string) => (typeof needle === "string" ? candidate.includes(needle) : needle.test(candidate));
    const said = clauses.filter(test).slice(0, 3);
    const found = said.length > 0 ? said : sentences.filter(test).slice(0, 1);
    return found.length > 0 ? `${sentenceCase(found.map((clause, index) => (index === 0 ? clause : lowerFirst(clause))).join("; "))}.` : "";
  };
  const add = (name: string, purpose: string) => {
    const key = name.toLowerCase();
    if (![...found.keys()].some((existing) => existing === key || existing.includes(key) || key.includes(existing))) {
      found.set(key, { name, purpose });
    }
  };
  for (const name of KNOWN_SERVICES) {
    if (new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(text)) add(name, where(name));
  }
  for (const match of text.matchAll(INTEGRATION_LEAD)) {
    const words = (match[1] ?? "").split(/\s+/).filter((word) => !NOT_A_SERVICE.has(word));
    const name = words.join(" ").replace(/[.,;:]+$/, "");
    if (name.length > 1 && !isPersonWord(name) && !NOT_A_SYSTEM.test(name)) add(name, where(name));
  }
  for (const [name, needed, coveredBy] of GENERIC_SERVICES) {
    if (needed.test(text) && !coveredBy.test(text)) add(name, where(needed));
  }
  return [...found.values()];
}

// ---- capabilities -----------------------------------------------------------------------------------

export interface ExtractedCapability {
  /** Who does it: a group from the text ("Customers", "Back office"), or "System" when the product itself acts. */
  actor: string;
  /** What is done, starting with its verb where the text has one ("order food"). */
  action: string;
  /** The clause it came from, as a sentence with its actor ("Riders pay by card"). */
  sentence: string;
  /** person: a role acts; system: the product acts; rule: a statement about a thing ("Payments must go through Stripe"). */
  kind: "person" | "system" | "rule";
}

/** What the product must let someone do, read from a text; empty when it only describes or sets quality targets. */
export function capabilitiesIn(text: string): ExtractedCapability[] {
  return readClauses(text)
    .filter((clause): clause is Clause & { kind: ExtractedCapability["kind"] } => clause.kind !== "description")
    .filter((clause) => clause.kind === "person" || !isQualityText(clause.text))
    .map((clause) => ({ actor: clause.actor, action: clause.action, sentence: clause.text, kind: clause.kind }));
}

/** A capability's name: its action without possessives ("manage their catalogs" -> "Manage catalogs"). */
export function capabilityName(action: string): string {
  return sentenceCase(shorten(action.replace(/\s+(?:their|his|her|its|our|your|my)\s+/gi, " "), 10));
}

// ---- entities ---------------------------------------------------------------------------------------

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

/** A role's own words in the first person, for stories ("manage their catalogs" -> "manage my catalogs"). */
export function firstPerson(action: string): string {
  return action.replace(/\btheir\b/gi, "my").replace(/\bthemselves\b/gi, "myself").replace(/\bthem\b/gi, "me");
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
