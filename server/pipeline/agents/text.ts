/**
 * Plain-language reading of briefs and feedback for the deterministic agents: sentences, clauses, actors,
 * capabilities, quality targets, external services and business domains. Rules only, no randomness, so the
 * same text always reads the same way.
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

/** Up to `max` words, for names and titles. */
export function shorten(text: string, max = 8): string {
  const words = normalizeSpace(text).split(" ");
  return words.length <= max ? words.join(" ") : `${words.slice(0, max).join(" ")}...`;
}

export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 3 || /(ss|us|is)$/.test(lower)) return word;
  if (/ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses)$/.test(lower)) return word.slice(0, -2);
  if (/s$/.test(lower)) return word.slice(0, -1);
  return word;
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

/** "a customer", "an administrator". */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

export function joinList(items: string[], conjunction = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
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
    "person team teams shopper shoppers learner learners instructor instructors coach coaches athlete athletes farmer farmers clinician clinicians"
  ).split(" "),
);

const SYSTEM_WORDS = new Set(
  "system app application platform product solution service backend it we portal website site tool software api".split(" "),
);

export function isPersonWord(word: string): boolean {
  return PERSON_WORDS.has(word.toLowerCase());
}

/** "customers" -> "Customer"; the role name used in stories and diagrams. */
export function roleName(actor: string): string {
  const words = normalizeSpace(actor).split(" ");
  const last = words[words.length - 1] ?? actor;
  const role = [...words.slice(0, -1), last.toLowerCase() === "people" ? "person" : last.toLowerCase() === "staff" ? "staff member" : singular(last)].join(" ");
  return sentenceCase(role);
}

// ---- quality targets --------------------------------------------------------------------------------

const QUALITY_PATTERN =
  /\b(\d[\d,.]*\s*(?:k\b|ms\b|milliseconds|seconds|secs?\b|minutes|%|percent|concurrent|requests|users|rps|tps)|concurrent|latency|response times?|uptime|availab(?:le|ility)|24\/7|scal(?:e|able|ability)|performan(?:t|ce)|secure|security|encrypt\w*|gdpr|hipaa|pci|complian\w*|accessib\w*|wcag|audit\w*|backups?|disaster|recover\w*|offline|reliab\w*|throughput|peak|fast|quickly|privacy|resilien\w*|observab\w*|localiz\w*|multi-?language|i18n)\b/i;

export function isQualityText(text: string): boolean {
  return QUALITY_PATTERN.test(text);
}

/** "The app must support 100k concurrent users and respond within 300 ms" -> one target per clause. */
export function qualityTargetsIn(sentence: string): string[] {
  const text = normalizeSpace(sentence);
  const modal = MODAL.exec(text);
  if (!modal) return [`${sentenceCase(text)}.`];
  const subject = text.slice(0, modal.index + modal[0].length);
  const clauses = splitActions(text.slice(modal.index + modal[0].length));
  if (clauses.length < 2 || !clauses.every(isQualityText)) return [`${sentenceCase(text)}.`];
  // A clause with its own modal has its own subject ("... and the system must comply with HIPAA").
  return clauses.map((clause) => `${sentenceCase(MODAL.test(clause) ? clause : `${subject} ${clause}`)}.`);
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
  ["Payments and billing", /\b(pay|pays|paying|payments?|bills?|billing|invoices?|checkout|wallets?|refunds?|subscriptions?|charges?|fees?)\b/i],
  ["Ordering and commerce", /\b(orders?|ordering|carts?|catalogs?|catalogues?|products?|purchases?|shop|shopping|stores?|inventory|merchants?|sellers?)\b/i],
  ["Mobility and logistics", /\b(rides?|drivers?|deliver\w*|shipments?|shipping|couriers?|routes?|routing|fleet|tracking|track)\b/i],
  ["Scheduling and bookings", /\b(book|books|booking|bookings|appointments?|reservations?|reserve|schedul\w*|calendars?|slots?)\b/i],
  ["Identity and access", /\b(log ?in|sign ?in|sign ?up|register|registration|accounts?|profiles?|roles?|permissions?|authenticat\w*|passwords?)\b/i],
  ["Notifications and messaging", /\b(notif\w*|e-?mails?|sms|messages?|messaging|chat|reminders?|alerts?)\b/i],
  ["Reporting and analytics", /\b(reports?|reporting|dashboards?|analytics|metrics?|statistics|insights?|kpis?|exports?)\b/i],
  ["Content and documents", /\b(documents?|files?|uploads?|content|articles?|media|photos?|images?|videos?)\b/i],
  ["Healthcare", /\b(patients?|doctors?|clinics?|medical|health|prescriptions?|nurses?)\b/i],
  ["Education", /\b(students?|courses?|teachers?|lessons?|grades?|exams?|classes)\b/i],
  ["Search and discovery", /\b(search|filter\w*|browse|recommend\w*|discover\w*)\b/i],
  ["Reviews and ratings", /\b(reviews?|ratings?|rate|stars)\b/i],
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
const NOT_A_SYSTEM = /^(GDPR|HIPAA|PCI|PCI DSS|SOC ?2?|ISO|WCAG|SLA|SMS|API|APIs|UI|UX|PDF|CSV|JSON|HTTP|HTTPS|TLS|SSL|REST|SSO|OAuth)$/i;

const GENERIC_SERVICES: readonly (readonly [string, RegExp, RegExp])[] = [
  // [service, when the text needs it, unless a named service already covers it]
  ["Payment gateway", /\b(pay|pays|paying|payments?|checkout|card|cards|billing|charges?)\b/i, /\b(stripe|paypal|adyen|braintree|square|mercado pago|apple pay|google pay)\b/i],
  ["Email delivery service", /\be-?mails?\b/i, /\b(sendgrid|mailgun|mailchimp|ses)\b/i],
  ["SMS gateway", /\b(sms|text messages?)\b/i, /\b(twilio)\b/i],
  ["Push notification service", /\bpush notifications?\b/i, /\b(firebase|onesignal|expo)\b/i],
  ["Maps and geolocation provider", /\b(maps?|geolocat\w*|gps|routes?|routing|locations?|nearby)\b/i, /\b(google maps|mapbox)\b/i],
  ["Identity provider (SSO/OAuth)", /\b(sso|single sign-on|oauth|sign in with|log ?in with)\b/i, /\b(auth0|okta|keycloak)\b/i],
  ["Video conferencing service", /\b(video calls?|videoconferenc\w*|teleconsult\w*|telemedicine)\b/i, /\b(zoom|microsoft teams)\b/i],
];

export interface ExternalService {
  name: string;
  /** The sentence of the brief that calls for it. */
  purpose: string;
}

/** External systems a text names or clearly needs, in order of first mention. */
export function externalServicesIn(text: string): ExternalService[] {
  const found = new Map<string, ExternalService>();
  const sentences = splitSentences(text);
  const sentenceWith = (needle: RegExp | string) =>
    sentences.find((sentence) => (typeof needle === "string" ? sentence.includes(needle) : needle.test(sentence))) ?? "";
  const add = (name: string, purpose: string) => {
    const key = name.toLowerCase();
    if (![...found.keys()].some((existing) => existing === key || existing.includes(key) || key.includes(existing))) {
      found.set(key, { name, purpose });
    }
  };
  for (const name of KNOWN_SERVICES) {
    if (new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(text)) add(name, sentenceWith(name));
  }
  for (const match of text.matchAll(INTEGRATION_LEAD)) {
    const words = (match[1] ?? "").split(/\s+/).filter((word) => !NOT_A_SERVICE.has(word));
    const name = words.join(" ").replace(/[.,;:]+$/, "");
    if (name.length > 1 && !isPersonWord(name) && !NOT_A_SYSTEM.test(name)) add(name, sentenceWith(match[0]));
  }
  for (const [name, needed, coveredBy] of GENERIC_SERVICES) {
    if (needed.test(text) && !coveredBy.test(text)) add(name, sentenceWith(needed));
  }
  return [...found.values()];
}

// ---- capabilities -----------------------------------------------------------------------------------

export interface ExtractedCapability {
  /** Who does it: a role from the text ("Customers"), or "System" when the product itself acts. */
  actor: string;
  /** What is done, starting with its verb where the text has one ("order food"). */
  action: string;
  /** The clause it came from, as a sentence. */
  sentence: string;
  /** person: a role acts; system: the product acts; rule: a statement about a thing ("Payments must go through Stripe"). */
  kind: "person" | "system" | "rule";
}

/** "order food, book rides and pay bills" -> three actions; a lone verb stays with the next one ("search and filter products"). */
export function splitActions(text: string): string[] {
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

const LEADING_FILLER = /^(?:also|then|easily|quickly|securely|directly|simply|to)\s+/i;

function cleanAction(action: string): string {
  let clean = normalizeSpace(action).replace(/[.;:!?]+$/, "");
  while (LEADING_FILLER.test(clean)) clean = clean.replace(LEADING_FILLER, "");
  return clean;
}

/** The actor words right before the modal ("where customers can" -> "customers"). */
function actorBefore(subject: string): { kind: "person" | "system" | "other"; actor: string } {
  const words = subject
    .replace(/[^A-Za-z\s-]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  const last = words[words.length - 1] ?? "";
  if (isPersonWord(last)) {
    const before = words[words.length - 2];
    // Keep a qualifier that names the role ("delivery drivers", "hospital staff"), not an article or a verb.
    const qualifier = before && /^[a-z]+$/.test(before) && !STOP_WORDS.has(before) && !/(ing|ed|ly)$/.test(before) && words.length >= 2 ? before : "";
    return { kind: "person", actor: sentenceCase(qualifier ? `${qualifier} ${last}` : last) };
  }
  if (SYSTEM_WORDS.has(last.toLowerCase())) return { kind: "system", actor: "System" };
  return { kind: "other", actor: "System" };
}

/** What the product must let someone do, read from one sentence; empty when the sentence only describes or sets a quality target. */
export function capabilitiesIn(sentence: string): ExtractedCapability[] {
  const text = normalizeSpace(sentence);
  // "We will build an app where customers can order food": the modal that follows a person wins.
  const modals = [...text.matchAll(new RegExp(MODAL.source, "gi"))];
  const modal = modals.find((match) => actorBefore(text.slice(0, match.index)).kind === "person") ?? modals[0];
  if (modal) {
    const subject = text.slice(0, modal.index);
    const rest = text.slice(modal.index + modal[0].length).trim();
    const who = actorBefore(subject);
    if (who.kind === "person") {
      return splitActions(rest)
        .map(cleanAction)
        .filter((action) => action.length > 0)
        .map((action) => ({ actor: who.actor, action, sentence: text, kind: "person" as const }));
    }
    if (isQualityText(text)) return [];
    if (who.kind === "system") {
      return splitActions(rest)
        .map(cleanAction)
        .filter((action) => action.length > 0)
        .map((action) => ({ actor: "System", action, sentence: text, kind: "system" as const }));
    }
    // "Payments must go through Stripe": a rule about a thing, kept whole.
    return rest.length > 0 ? [{ actor: "System", action: lowerFirst(cleanAction(text)), sentence: text, kind: "rule" as const }] : [];
  }
  // No modal: "Merchants manage their catalogs and track orders."
  const words = text.split(/\s+/);
  const personAt = words.slice(0, 3).findIndex((word) => isPersonWord(word.replace(/[^A-Za-z]/g, "")));
  if (personAt >= 0 && words.length > personAt + 1 && !isQualityText(text)) {
    const who = actorBefore(words.slice(0, personAt + 1).join(" "));
    return splitActions(words.slice(personAt + 1).join(" "))
      .map(cleanAction)
      .filter((action) => action.length > 0)
      .map((action) => ({ actor: who.actor, action, sentence: text, kind: "person" as const }));
  }
  return [];
}

/** Person roles a text mentions, in order ("customers", "merchants"). */
export function rolesIn(text: string): string[] {
  const roles = new Map<string, string>();
  for (const word of text.split(/[^A-Za-z]+/)) {
    if (isPersonWord(word) && !["people", "person", "team", "teams"].includes(word.toLowerCase())) {
      const role = roleName(word);
      roles.set(role.toLowerCase(), role);
    }
  }
  return [...roles.values()];
}

// ---- entities ---------------------------------------------------------------------------------------

const DETERMINERS = new Set("the a an their his her its our your my his all any each every some new existing own".split(" "));

/** The words naming what an action works on ("accept ride requests" -> ["ride", "requests"]). */
export function objectPhrase(action: string): string[] {
  const words = action
    .replace(/[^A-Za-z\s-]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  // The object ends before a preposition or a subordinate clause.
  const stopAt = words.findIndex((word, index) => index > 0 && /^(for|to|from|with|by|in|on|at|via|through|using|before|after|when|while|so|that|into|about|of|per)$/i.test(word));
  return (stopAt > 0 ? words.slice(1, stopAt) : words.slice(1)).filter(
    (word) => word.length >= 3 && !DETERMINERS.has(word.toLowerCase()) && !STOP_WORDS.has(word.toLowerCase()),
  );
}

/** The thing an action works on, as an entity name ("book rides" -> "Ride", "manage their catalogs" -> "Catalog"). */
export function objectNoun(action: string): string | undefined {
  const head = objectPhrase(action).pop();
  return head ? titleCase(singular(head.toLowerCase())) : undefined;
}

/** A role's own words in the first person, for stories ("manage their catalogs" -> "manage my catalogs"). */
export function firstPerson(action: string): string {
  return action.replace(/\btheir\b/gi, "my").replace(/\bthemselves\b/gi, "myself").replace(/\bthem\b/gi, "me");
}

/** The first word of an action, as an imperative verb ("order", "book"). */
export function verbOf(action: string): string {
  return (action.split(/\s+/)[0] ?? "handle").toLowerCase();
}
