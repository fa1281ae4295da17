/**
 * External systems a brief names ("Stripe", "via Twilio") or clearly needs ("pay by card" needs a payment
 * gateway), and how prose refers to them.
 */
import { isPersonWord } from "./actors";
import { readClauses } from "./clauses";
import { lowerFirst, sentenceCase, splitSentences } from "./normalize";
import { withArticle } from "./nouns";

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
