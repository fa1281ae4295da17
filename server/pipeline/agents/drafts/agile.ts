/**
 * The agile agent: one user story per functional requirement (US-001, ...), grouped into epics by business
 * domain, each with acceptance criteria drawn from the requirement, the dependencies it touches and the
 * non-functional requirements, a MoSCoW priority and an estimate. Its revision after a reviewer's feedback is
 * in ../revisions/agile.ts.
 */
import type { AgileArtifact, Epic, EnvelopeOf, RequirementItem, UserStory } from "../../artifacts";
import { type AgentRequest, contextArtifact, domainOf } from "../request";
import { actorReference, firstPerson, roleName } from "../text/actors";
import { padId } from "../text/items";
import { count, joinClauses, joinList } from "../text/lists";
import { lowerFirst, sentenceCase } from "../text/normalize";
import { pluralNoun, singular, withArticle } from "../text/nouns";
import { objectPhrase, oneOf } from "../text/objects";
import { serviceReference } from "../text/services";
import { deliveredBy, passiveVerb, verbOf } from "../text/verbs";
import {
  type Changes,
  type ServiceFact,
  capabilityFacts,
  envelope,
  functionalFacts,
  operationOf,
  rolesOf,
  serviceFacts,
  servicesFor,
  storyObject,
  wantPhrase,
} from "./shared";

/** The thing a story works on, as prose needs it: one, many, and as many as the action says. */
interface ObjectWords {
  one: string;
  many: string;
  asWritten: string;
  /** The action says the things are the actor's own ("manage their schedules"). */
  owned: boolean;
}

function objectWords(action: string, one: string): ObjectWords {
  const head = objectPhrase(action).pop();
  const plural = head !== undefined && singular(head) !== head;
  const many = pluralNoun(one);
  return { one, many, asWritten: plural ? many : one, owned: /\b(their|my|his|her)\b/i.test(action) };
}

const PARTICIPLES: Record<string, string> = { confirm: "confirmed", approve: "approved", verify: "verified", validate: "validated" };

/** Why a person does it, by what the verb does; generic English, so any brief reads sensibly. */
/** Phrasal verbs mean something of their own ("check out" is not "check"). */
const BENEFIT_BY_PHRASAL: readonly (readonly [RegExp, string])[] = [
  [/^check\s+out\b/i, "I can pay and finish in one go"],
  [/^check\s+in\b/i, "I am registered on arrival without queueing"],
  [/^sign\s+up\b/i, "I have an account ready to use"],
  [/^(?:log|sign)\s+(?:in|on)\b/i, "only I can see and change what is mine"],
];

const BENEFIT_BY_VERB: readonly (readonly [RegExp, (object: ObjectWords, verb: string) => string])[] = [
  [/^(book|reserve|schedule|reschedule|rebook)$/, (o) => `the ${o.one} is confirmed for a time that suits me`],
  [/^(pay|settle)$/, (o) => `the ${o.one} is settled and I keep a receipt`],
  [/^(order|buy|purchase)$/, (o) => `I get the ${o.one} I need without phoning anyone`],
  [/^(accept|take)$/, (o) => `each ${o.one} I accept is confirmed and recorded against my account`],
  [/^(handle|resolve|process|escalate)$/, (o) => `each ${o.one} is resolved and its outcome recorded`],
  [/^(confirm|approve|verify|validate)$/, (o, verb) => `everyone involved knows the ${o.one} is ${PARTICIPLES[verb] ?? "confirmed"}`],
  [/^(manage|update|edit|maintain|adjust|configure|organi[sz]e)$/, (o) => `${o.owned ? "my" : "the"} ${o.many} stay accurate without extra paperwork`],
  [/^(track|monitor|follow|watch)$/, (o) => `I know where each ${o.one} stands without asking anyone`],
  [/^(see|view|check|browse|read|consult|access|show)$/, (o) => `I have the ${o.asWritten} in front of me when I need ${o.asWritten === o.one ? "it" : "them"}`],
  [/^(reconcile|match|audit)$/, (o) => `every ${o.one} matches the records and differences are caught early`],
  [/^(export|download|print)$/, (o) => `I can use the ${o.many} outside the product`],
  [/^(receive|get)$/, (o) => `each ${o.one} reaches me when it matters`],
  [/^(write|create|add|submit|post|publish|upload|record|register|file|report|enter|log|prescribe)$/, (o) => `the ${o.one} is recorded once and easy to find`],
  [/^(rate|review|comment)$/, (o) => `others can rely on what is said about each ${o.one}`],
  [/^(search|find|filter|discover|compare)$/, (o) => `I find the right ${o.one} quickly`],
  [/^(cancel|delete|remove|withdraw|archive)$/, (o) => `I am not held to a ${o.one} I no longer need`],
  [/^(send|notify|remind|message|contact|email|share)$/, (o) => `the right people hear about the ${o.one} in time`],
  [/^(assign|allocate|dispatch|route)$/, (o) => `each ${o.one} goes to someone who can act on it`],
  [/^(enrol|enroll|register|join|subscribe|apply)$/, (o) => `my place in the ${o.one} is confirmed`],
  [/^(grade|mark|assess|evaluate|score)$/, (o) => `each ${o.one} gets a fair result that is recorded`],
  [/^(pick|pack|ship|deliver)$/, (o) => `each ${o.one} leaves on time and its status is recorded`],
  [/^(plan|prepare|arrange)$/, (o) => `every ${o.one} is planned ahead and nothing is forgotten`],
  [/^(close|complete|finish)$/, (o) => `each ${o.one} is closed with a record of what was done`],
];

const BENEFIT_BY_DOMAIN: Record<string, (object: ObjectWords) => string> = {
  "Payments and billing": (o) => `the ${o.one} is settled and I keep a receipt`,
  "Ordering and commerce": (o) => `each ${o.one} moves through its steps without phone calls or paperwork`,
  "Mobility and logistics": (o) => `I know where the ${o.one} is and when it arrives`,
  "Scheduling and bookings": (o) => `the ${o.one} is confirmed for a time that suits me`,
  "Identity and access": (o) => `my ${o.one} is mine alone and protected`,
  "Notifications and messaging": (o) => `I learn about the ${o.one} when it matters`,
  "Reporting and analytics": (o) => `I can decide from the ${o.many} instead of guessing`,
  "Content and documents": (o) => `the ${o.one} is stored once and easy to find`,
  "Search and discovery": (o) => `I find the right ${o.one} quickly`,
  "Reviews and ratings": (o) => `others can trust the ${o.one}`,
  "Support and dispute resolution": (o) => `each ${o.one} is resolved and its outcome recorded`,
};

function benefit(input: StoryInput, object: ObjectWords): string {
  const purpose = /\b(?:so that|in order to)\s+(.+?)\.?$/i.exec(`${input.title} ${input.description}`);
  if (purpose?.[1]) return lowerFirst(purpose[1]);
  if (input.kind !== "rule") {
    if (passiveVerb(input.action)) return `each ${object.one} reaches me on time and I can see what it covers`;
    const phrasal = BENEFIT_BY_PHRASAL.find(([pattern]) => pattern.test(input.action));
    if (phrasal) return phrasal[1];
    const verb = verbOf(input.action);
    const byVerb = BENEFIT_BY_VERB.find(([verbs]) => verbs.test(verb));
    if (byVerb) return byVerb[1](object, verb);
  }
  const byDomain = input.domain ? BENEFIT_BY_DOMAIN[input.domain] : undefined;
  return byDomain ? byDomain(object) : `each ${object.one} is handled in one place instead of by hand`;
}

const POINTS = [1, 2, 3, 5, 8, 13];

/** Fibonacci points that grow with the kind of work, the services involved and the criteria to meet. */
function estimate(action: string, services: number, criteria: number): number {
  const score = (operationOf(action) === "read" ? 0 : 1) + services + (criteria > 3 ? 1 : 0) + (action.split(/\s+/).length > 4 ? 1 : 0);
  return POINTS[Math.min(POINTS.length - 1, score + 1)] ?? 13;
}

export interface StoryInput {
  id: string;
  title: string;
  role: string;
  /** The verb phrase as the requirement says it ("manage their schedules"). */
  action: string;
  kind: "person" | "system" | "rule";
  requirementIds: string[];
  domain?: string;
  description: string;
  /** The group the role belongs to, as the requirements name it ("Operations staff"). */
  actorGroup?: string;
}

export function buildStory(input: StoryInput, priority: string, services: readonly ServiceFact[], nonFunctional: readonly RequirementItem[]): UserStory {
  const person = input.kind === "person";
  const action = person ? firstPerson(input.action) : input.action;
  const object = objectWords(input.action, storyObject({ action: input.action, title: input.title, kind: input.kind }));
  const want = wantPhrase(input.kind, action);
  const soThat = benefit(input, object);
  const touched = servicesFor(`${input.action} ${input.description}`, services);
  const requirementRef = input.requirementIds.join(", ") || "this story";
  const receives = person && deliveredBy(input.action) !== undefined;
  // "get paid weekly" happens to the actor: the story starts when the thing is due, not when they act.
  const operation = operationOf(action);
  // A scenario is about one of the things ("when I book a trip"), except when reading a list of them.
  const once = operation === "read" ? action : oneOf(action);
  const act = receives
    ? `my ${object.one} is due`
    : person
      ? `I ${lowerFirst(once)}`
      : input.kind === "system"
        ? `the system is due to ${lowerFirst(action)}`
        : `${withArticle(object.one)} that falls under ${requirementRef} is processed`;
  const success = receives
    ? `then the ${object.one} reaches me and I can see it in my account`
    : person
      ? operation === "read"
        ? /^(export|download|print)\b/i.test(action)
          ? `then I get a file with the ${object.many} that concern me`
          : `then I see the ${object.many} that concern me`
        : operation === "delete"
          ? `then the ${object.one} is removed and I see a confirmation`
          : `then the ${object.one} is ${operation === "update" ? "updated" : "saved"} and I see a confirmation`
      : input.kind === "system"
        ? "then it happens once and the outcome is recorded"
        : `then ${lowerFirst(action)}`;
  const role = input.role.toLowerCase();
  const criteria = [
    `Given ${receives ? `I am ${withArticle(role)} with complete account details` : person ? `I am signed in as ${withArticle(role)}` : `the conditions of ${requirementRef} hold`}, when ${act}, ${success}`,
    receives
      ? `Given my account details are incomplete, when ${act}, then I am told what to add and nothing is sent`
      : person && operation === "read"
        ? `Given ${object.many} that belong to another ${role}, when ${act}, then none of them are shown to me`
        : person
          ? `Given the ${object.one} details are incomplete or invalid, when ${act}, then I am told which fields to correct and nothing is saved`
          : `Given the ${object.one} data is incomplete or invalid, when ${act}, then it is rejected with a logged reason and nothing is saved`,
    ...touched.map((service) =>
      person
        ? `Given ${serviceReference(service.name)} is unavailable, when ${act}, then I see that it could not be completed and retrying does not do it twice`
        : `Given ${serviceReference(service.name)} is unavailable, when ${act}, then the failure is reported and retrying does not do it twice`,
    ),
    ...[...nonFunctional.filter((requirement) => requirement.title === "Performance"), ...nonFunctional.filter((requirement) => requirement.title === "Scalability")]
      .slice(0, receives ? 0 : 1)
      .map((requirement) => `Given normal load, when ${act}, then the response meets ${requirement.id} (${requirement.title})`),
  ];
  return {
    id: input.id,
    title: input.title,
    as_a: input.role,
    i_want: want,
    so_that: soThat,
    story: `As ${withArticle(role)}, I want ${want}, so that ${soThat}.`,
    acceptance_criteria: criteria,
    priority,
    story_points: estimate(action, touched.length, criteria.length),
    functional_requirement_ids: input.requirementIds,
    kind: input.kind,
  };
}

function priorityAt(index: number, total: number): string {
  if (index < Math.ceil(total / 2)) return "Must";
  if (index < Math.ceil((total * 5) / 6)) return "Should";
  return "Could";
}

/** "Lets riders book trips and drivers accept trips. Enforces the rule that ..." */
function epicDescription(members: readonly StoryInput[]): string {
  const groups = [...new Map(members.filter((member) => member.kind === "person").map((member) => [member.role, member])).keys()];
  const doing = groups.map((role) => {
    const actor = members.find((member) => member.role === role && member.kind === "person")?.actorGroup ?? pluralNoun(role);
    return `${actorReference(actor)} ${joinList(members.filter((member) => member.role === role && member.kind === "person").map((member) => member.action))}`;
  });
  const system = members.filter((member) => member.kind === "system").map((member) => member.action);
  const rules = members.filter((member) => member.kind === "rule").map((member) => lowerFirst(member.action));
  return [
    doing.length > 0 ? `Lets ${joinClauses(doing)}.` : "",
    system.length > 0 ? `Makes the system ${joinList(system)}.` : "",
    rules.length > 0 ? `Enforces the rule${rules.length > 1 ? "s" : ""} that ${joinList(rules)}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function draftAgile(request: AgentRequest): EnvelopeOf<"agile"> {
  const requirements = contextArtifact(request, "requirements", "agile");
  const inception = contextArtifact(request, "inception", "agile");
  const domain = domainOf(request);
  const capabilities = capabilityFacts(requirements);
  const roles = rolesOf(capabilities);
  const services = serviceFacts(requirements);
  const functional = functionalFacts(inception, capabilities);
  const fallbackRole = roles[0] ?? "User";

  const groupOf = (requirement: (typeof functional)[number]) => requirement.domain ?? (domain ? `${sentenceCase(domain)} core` : "Core capabilities");
  const groups = [...new Set(functional.map(groupOf))];
  let storyNumber = 0;
  const epics: Epic[] = groups.map((group, groupIndex) => {
    const members = functional.filter((requirement) => groupOf(requirement) === group);
    const inputs = members.map((requirement) => {
      storyNumber += 1;
      const input: StoryInput = {
        id: padId("US", storyNumber),
        title: requirement.title,
        role: requirement.kind === "person" ? roleName(requirement.actor) : fallbackRole,
        action: requirement.action,
        kind: requirement.kind,
        requirementIds: [requirement.id],
        ...(requirement.domain ? { domain: requirement.domain } : {}),
        description: requirement.description,
        actorGroup: requirement.actor,
      };
      return { input, index: functional.indexOf(requirement) };
    });
    const userStories = inputs.map(({ input, index }) => buildStory(input, priorityAt(index, functional.length), services, inception.non_functional_requirements));
    return {
      id: padId("EP", groupIndex + 1, 2),
      title: group,
      description: epicDescription(inputs.map(({ input }) => input)),
      functional_requirement_ids: members.map((requirement) => requirement.id),
      user_stories: userStories,
    };
  });

  const stories = epics.flatMap((epic) => epic.user_stories);
  const artifact: AgileArtifact = { epics };
  const changes: Changes = {
    added: [
      ...epics.map((epic) => `epics: ${epic.id} "${epic.title}" (${count(epic.user_stories.length, "story", "stories")})`),
      ...stories.map((story) => `user_stories: ${story.id} "${story.title}"`),
    ],
    removed: [],
    modified: [],
  };
  const numbered = stories.length === 1 ? `numbered ${stories[0]?.id}` : `numbered ${stories[0]?.id} to ${stories[stories.length - 1]?.id}`;
  const justification =
    `One user story per functional requirement (${count(functional.length, "story", "stories")}), ${numbered} and grouped into ${count(epics.length, "epic")} by business domain. ` +
    `Acceptance criteria cover the success path, invalid input, each external dependency the story touches (${joinList(services.map((service) => serviceReference(service.name))) || "none"}) and the performance requirement where one exists; ` +
    `priorities follow the order of the requirements (Must first), estimates grow with the dependencies and criteria involved.`;
  return envelope(artifact, changes, justification);
}
