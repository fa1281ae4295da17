/**
 * What a brief says, as the composer's prompts read it: who the product is for, what they do with it, its rules and
 * constraints, and what it connects to. A guide, not a rule: the words looked for are the usual ones for each topic,
 * and a brief that misses some may still be started (the composer asks once, and lets her go on).
 */

export interface BriefTopic {
  id: "audience" | "activities" | "constraints" | "integrations";
  /** The prompt beside the box. */
  prompt: string;
  /** An example of what answers it. */
  example: string;
  /** What the check says is missing. */
  missing: string;
  pattern: RegExp;
}

export const briefTopics: readonly BriefTopic[] = [
  {
    id: "audience",
    prompt: "Who is it for?",
    example: "neighbours in one building, the volunteers who run it",
    missing: "who it is for",
    pattern: /\b(for|users?|customers?|clients?|members?|neighbou?rs?|staff|employees?|admins?|administrators?|people|teams?|students?|patients?|visitors?|owners?|volunteers?|buyers?|sellers?|drivers?|riders?)\b/i,
  },
  {
    id: "activities",
    prompt: "What do they do with it?",
    example: "lend a drill, book it for a day, get a reminder to return it",
    missing: "what people do with it",
    pattern: /\b(can|could|should|will|lets?|allows?|books?|booking|pays?|lends?|borrows?|tracks?|manages?|creates?|shares?|searches?|orders?|reserves?|sends?|sign(s)? up|logs? in|uploads?|reviews?|rates?|schedules?|requests?|returns?)\b/i,
  },
  {
    id: "constraints",
    prompt: "Rules and constraints",
    example: "one item per person at a time, a deposit, GDPR, works offline",
    missing: "its rules and constraints",
    pattern: /\b(must|only|never|always|limits?|rules?|constraints?|requires?|required|complian\w*|deadline|budget|gdpr|hipaa|pci|within|at most|at least|no more than|per (day|week|month|person|user)|deposit|offline|secure|encrypt\w*)\b/i,
  },
  {
    id: "integrations",
    prompt: "What it connects to",
    example: "card payments by Stripe, email reminders, the building's sign-in",
    missing: "the systems it connects to",
    pattern: /\b(integrat\w*|api|apis|connects?|sync\w*|imports?|exports?|payments?|stripe|paypal|e-?mails?|sms|calendars?|sso|oauth|webhooks?|erp|crm|maps?|notifications?|existing system)\b/i,
  },
];

/** Under this many characters a brief is short whatever it covers: the six agents have little to work from. */
export const thinBriefLength = 160;

export interface BriefCoverage {
  covered: ReadonlySet<BriefTopic["id"]>;
  missing: BriefTopic[];
  short: boolean;
  /** Worth a second look before starting: short, or silent on two topics or more. */
  thin: boolean;
}

export function briefCoverage(brief: string): BriefCoverage {
  const text = brief.trim();
  const covered = new Set(briefTopics.filter((topic) => topic.pattern.test(text)).map((topic) => topic.id));
  const missing = briefTopics.filter((topic) => !covered.has(topic.id));
  const short = text.length < thinBriefLength;
  return { covered, missing, short, thin: short || missing.length >= 2 };
}

/** "It is short (31 characters) and does not say what people do with it, its rules and constraints or the systems it connects to." */
export function thinBriefMessage(brief: string): string {
  const { missing, short } = briefCoverage(brief);
  const parts = missing.map((topic) => topic.missing);
  const list = parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`;
  const length = `short (${brief.trim().length} characters)`;
  if (short && parts.length > 0) return `It is ${length} and does not say ${list}.`;
  if (short) return `It is ${length}: the six agents work from what it says.`;
  return `It does not say ${list}.`;
}
