/**
 * What the deterministic agents share: reading earlier artifacts of any shape into plain facts (capabilities,
 * services, stories), and recording what a draft or a revision changed. What only the revisions share (the
 * edits a reviewer's feedback makes) is in ../revisions/shared.ts.
 */
import type { AgileArtifact, Envelope, InceptionArtifact, RequirementsArtifact } from "../../artifacts";
import { isPersonWord, roleName } from "../text/actors";
import { capabilitiesIn, capabilityName } from "../text/capabilities";
import { primaryDomain } from "../text/domains";
import { allText, itemId, itemText } from "../text/items";
import { overlap } from "../text/keywords";
import { lowerFirst, normalizeSpace, sentenceCase, titleCase } from "../text/normalize";
import { pluralNoun, singular } from "../text/nouns";
import { objectNoun, objectText } from "../text/objects";
import { deliveredBy } from "../text/verbs";
import { isPlainObject } from "../../../lib/json";

// ---- changes ----------------------------------------------------------------------------------------

// A type alias, not an interface, so it fits the envelope's loose `changes_made` object.
export type Changes = {
  added: string[];
  removed: string[];
  modified: string[];
};

export function envelope<A>(artifact: A, changes: Changes, justification: string): Envelope<A> {
  return { artifact, changes_made: changes, justification };
}

// ---- facts read from earlier artifacts --------------------------------------------------------------

export interface CapabilityFact {
  id: string;
  name: string;
  description: string;
  /** What is done, as the brief said it ("manage their catalogs"); the name may be shorter ("Manage catalogs"). */
  action: string;
  actor: string;
  /** Whether a person role acts (person), the product acts (system), or it is a rule about a thing (rule). */
  kind: "person" | "system" | "rule";
  domain?: string;
}

/** Capabilities of a requirements artifact, whether the agent wrote objects or sentences. */
export function capabilityFacts(requirements: RequirementsArtifact): CapabilityFact[] {
  return requirements.core_capabilities.map((item, index) => {
    const id = itemId(item) ?? `CAP-${String(index + 1).padStart(3, "0")}`;
    const record = isPlainObject(item) ? item : {};
    const text = itemText(item);
    const description = typeof record.description === "string" ? record.description : text;
    const read = capabilitiesIn(description)[0] ?? capabilitiesIn(text)[0];
    const actor = typeof record.actor === "string" && record.actor.trim() !== "" ? record.actor : (read?.actor ?? "Users");
    const kind = actor === "System" ? (read?.kind === "rule" ? "rule" : "system") : "person";
    const name = typeof record.name === "string" ? record.name : capabilityName(read?.action ?? text);
    // The description's own words where they are about this capability's actor, so possessives survive ("manage their catalogs").
    const action = read && (read.actor === actor || kind !== "person") ? read.action : lowerFirst(name);
    const domain = typeof record.domain === "string" ? record.domain : primaryDomain(`${name} ${description}`);
    return { id, name, description, action, actor, kind, ...(domain ? { domain } : {}) };
  });
}

export interface ServiceFact {
  name: string;
  purpose: string;
}

export function serviceFacts(requirements: RequirementsArtifact | undefined): ServiceFact[] {
  if (!requirements) return [];
  return requirements.external_dependencies
    .map((item) => {
      const record = isPlainObject(item) ? item : {};
      const name = itemText(item);
      return { name, purpose: typeof record.purpose === "string" ? record.purpose : "" };
    })
    .filter((service) => service.name.trim() !== "");
}

/** What a service is for, by its name, and the words of a piece of work that need it. */
const SERVICE_KINDS: readonly (readonly [RegExp, RegExp])[] = [
  [/stripe|paypal|adyen|braintree|square|mercado pago|apple pay|google pay|payment/i, /\b(pay|pays|paid|paying|payments?|payouts?|checkout|bills?|billing|charges?|refunds?|invoices?)\b/i],
  [/bank/i, /\b(banks?|banking|settlements?|reconcil\w*|payouts?|transfers?)\b/i],
  [/sendgrid|mailgun|mailchimp|e-?mail/i, /\be-?mails?\b/i],
  [/twilio|sms/i, /\b(sms|text messages?)\b/i],
  [/firebase|onesignal|expo|push/i, /\bnotif\w*/i],
  [/google maps|mapbox|maps|geolocation/i, /\b(maps?|routes?|routing|locations?|nearby|rides?|deliver\w*)\b/i],
  [/auth0|okta|keycloak|identity/i, /\b(sign|log ?in|accounts?|authenticat\w*)\b/i],
  [/zoom|teams|video/i, /\b(video|call|consult\w*)\b/i],
];

/** The services a piece of work touches: named in it, of a kind its words need, or sharing most words with why the service is needed. */
export function servicesFor(text: string, services: readonly ServiceFact[]): ServiceFact[] {
  const lower = text.toLowerCase();
  return services.filter((service) => {
    if (lower.includes(service.name.toLowerCase())) return true;
    if (SERVICE_KINDS.some(([kind, needs]) => kind.test(service.name) && needs.test(text))) return true;
    // The brief's sentence that called for the service is mostly about this work, not merely sharing a few words.
    return service.purpose !== "" && overlap(service.purpose, text) >= 0.75;
  });
}

/** Quality targets a requirements artifact carries (the built-in agent keeps them in `quality_attributes`). */
export function qualityFacts(requirements: RequirementsArtifact | undefined): string[] {
  const value = requirements?.quality_attributes;
  return Array.isArray(value) ? value.map(itemText).filter((text) => text.trim() !== "") : [];
}

export function rolesOf(capabilities: readonly CapabilityFact[]): string[] {
  const roles = new Map<string, string>();
  for (const capability of capabilities) {
    if (capability.kind === "person") roles.set(roleName(capability.actor).toLowerCase(), roleName(capability.actor));
  }
  return [...roles.values()];
}

/** The groups that act in the capabilities, as the brief names them ("Riders", "Operations staff"), in order. */
export function groupsOf(capabilities: readonly CapabilityFact[]): string[] {
  const groups = new Map<string, string>();
  for (const capability of capabilities) {
    if (capability.kind === "person" && !groups.has(roleName(capability.actor).toLowerCase())) groups.set(roleName(capability.actor).toLowerCase(), capability.actor);
  }
  return [...groups.values()];
}

/** The capabilities of one group, in order. */
export function actionsOf(group: string, capabilities: readonly CapabilityFact[]): CapabilityFact[] {
  return capabilities.filter((capability) => capability.kind === "person" && roleName(capability.actor) === roleName(group));
}

export interface RequirementFact {
  id: string;
  title: string;
  description: string;
  /** What is done, in the requirement's own words ("manage their catalogs"). */
  action: string;
  actor: string;
  kind: "person" | "system" | "rule";
  domain?: string;
}

/** Functional requirements of an inception artifact, with who acts read from their text or their capability. */
export function functionalFacts(inception: InceptionArtifact, capabilities: readonly CapabilityFact[]): RequirementFact[] {
  return inception.functional_requirements.map((requirement) => {
    const record = requirement;
    const capability =
      capabilities.find((candidate) => candidate.id === record.capability_id) ??
      capabilities.find((candidate) => normalizeSpace(candidate.name).toLowerCase() === normalizeSpace(requirement.title).toLowerCase());
    const allow = /allow (?:the |a |an )?([a-z ]+?) to /i.exec(requirement.description);
    const actorFromText = allow?.[1] && isPersonWord(allow[1].split(" ").pop() ?? "") ? sentenceCase(allow[1]) : undefined;
    const actor = (typeof record.actor === "string" ? record.actor : undefined) ?? capability?.actor ?? actorFromText ?? "System";
    const kind = actor === "System" ? (capability?.kind === "rule" ? "rule" : "system") : "person";
    const domain = capability?.domain ?? primaryDomain(`${requirement.title} ${requirement.description}`);
    // The requirement's own sentence wins over the capability's: a revision may have reworded it.
    const stated =
      kind === "person"
        ? /\ballow (?:the |a |an )?[A-Za-z -]+? to (.+?)\.?$/i.exec(requirement.description)?.[1]
        : kind === "system"
          ? /^the system shall (.+?)\.?$/i.exec(requirement.description)?.[1]
          : undefined;
    const action = stated ?? capability?.action ?? lowerFirst(requirement.title);
    return { id: requirement.id, title: requirement.title, description: requirement.description, action, actor, kind, ...(domain ? { domain } : {}) };
  });
}

export interface StoryFact {
  id: string;
  title: string;
  role: string;
  /** What the story's actor does, as a verb phrase ("order food"). */
  action: string;
  kind: "person" | "system" | "rule";
  epicId: string;
  epicTitle: string;
  priority: string;
  criteria: string[];
  text: string;
}

/** The stories of an agile artifact, flattened in order, whatever fields the agent filled. */
export function storyFacts(agile: AgileArtifact): StoryFact[] {
  const stories: StoryFact[] = [];
  agile.epics.forEach((epic, epicIndex) => {
    const epicId = epic.id ?? `EP-${String(epicIndex + 1).padStart(2, "0")}`;
    for (const story of epic.user_stories) {
      const record = story;
      const storyText = story.story ?? "";
      const asA = story.as_a ?? /as an? ([^,]+),/i.exec(storyText)?.[1] ?? "";
      const want = story.i_want ?? /i want (?:to )?([^,]+)/i.exec(storyText)?.[1] ?? story.title ?? story.id;
      const systemWant = /^the system to\s+/i.test(want);
      const action = lowerFirst(want.replace(/^(?:to|the system to)\s+/i, "").replace(/[.]+$/, ""));
      const kind = record.kind === "rule" || record.kind === "system" ? record.kind : systemWant ? "system" : asA ? "person" : "system";
      stories.push({
        id: story.id,
        title: story.title ?? sentenceCase(action),
        role: asA ? roleName(asA) : "User",
        action,
        kind,
        epicId,
        epicTitle: epic.title,
        priority: story.priority ?? "Should",
        criteria: (story.acceptance_criteria ?? []).map(itemText),
        text: allText(story),
      });
    }
  });
  return stories;
}

/** The main thing a story works on, as an entity name. */
export function storyEntity(story: Pick<StoryFact, "action" | "title" | "kind">): string {
  // A rule names its thing first ("payments must go through Stripe"); an action names it after the verb.
  if (story.kind === "rule") {
    const first = story.action.split(/\s+/).find((word) => word.length >= 3 && !/^(the|all|every|each|any)$/i.test(word));
    if (first) return titleCase(singular(first.replace(/[^A-Za-z]/g, "").toLowerCase()));
  }
  return objectNoun(story.action) ?? objectNoun(`do ${story.title}`) ?? "Record";
}

/** The thing a story works on, in words, one of it ("ride request", "daily total"), for sentences. */
export function storyObject(story: Pick<StoryFact, "action" | "title" | "kind">): string {
  if (story.kind === "rule") return storyEntity(story).toLowerCase();
  return objectText(story.action) ?? objectText(`do ${story.title}`) ?? storyEntity(story).toLowerCase();
}

const READ_VERBS = /^(view|see|browse|search|list|track|check|read|find|look|consult|review|monitor|filter|compare|get|show|display|download|export|follow|watch|access|query)\b/i;
const UPDATE_VERBS = /^(update|edit|manage|change|modify|adjust|configure|maintain|set|reschedule|rename|assign|approve|reject|rate|confirm)\b/i;
const DELETE_VERBS = /^(delete|remove|cancel|archive|close|deactivate|revoke|withdraw)\b/i;

export type Operation = "read" | "create" | "update" | "delete";

export function operationOf(action: string): Operation {
  // "get paid weekly": something is made for the actor, even though "get" reads like a lookup.
  if (deliveredBy(action)) return "create";
  // "check out", "sign up", "log in": a phrasal verb is something done, not a lookup.
  if (/^(check|sign|log)\s+(in|out|up|on)\b/i.test(action)) return "create";
  if (READ_VERBS.test(action)) return "read";
  if (DELETE_VERBS.test(action)) return "delete";
  if (UPDATE_VERBS.test(action)) return "update";
  return "create";
}

export function plural(word: string): string {
  return pluralNoun(word);
}

/** The phrase after "I want" for a story: to act (person), for the product to act (system), or for a rule to hold. */
export function wantPhrase(kind: "person" | "system" | "rule", action: string): string {
  const text = lowerFirst(action);
  if (kind === "person") return `to ${text}`;
  if (kind === "rule") {
    const modal = /\b(must|should|shall|will|can|has to|have to|needs to|need to)\b/i;
    return modal.test(text) ? text.replace(modal, "to") : `the system to ensure that ${text}`;
  }
  return `the system to ${text}`;
}
