/**
 * The agile agent: one user story per functional requirement (US-001, ...), grouped into epics by business
 * domain, each with acceptance criteria drawn from the requirement, the dependencies it touches and the
 * non-functional requirements, a MoSCoW priority and an estimate.
 */
import { type AgileArtifact, type Epic, type EnvelopeOf, type RequirementItem, UserStory } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import type { Directive } from "../feedback";
import { type AgentRequest, AgentInputError, contextArtifact, domainOf, previousArtifact } from "../request";
import { copyOf, label, recordNote, renameItem } from "../revisions/shared";
import { actorReference, firstPerson, isPersonWord, roleName } from "../text/actors";
import { capabilitiesIn, capabilityName } from "../text/capabilities";
import { itemText, nextNumber, padId } from "../text/items";
import { overlap } from "../text/keywords";
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

interface StoryInput {
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

function buildStory(input: StoryInput, priority: string, services: readonly ServiceFact[], nonFunctional: readonly RequirementItem[]): UserStory {
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

const PRIORITY = /\b(must|should|could|won'?t)(?:[- ]have)?\b/i;
const PRIORITY_HINT = /\b(priority|prioriti[sz]e|must[- ]have|should[- ]have|could[- ]have|won'?t[- ]have|a must|a should|a could)\b/i;

const STORY_ITEM = /^epics\[[^\]]+\]\.user_stories\[[^\]]+\]$/;
/** Where a story's action names two: "unlock the locker and pick up the tool", "book; pay", "reserve, then collect". */
const ACTION_BREAK = /\s*;\s*|,?\s+(?:and\s+)?then\s+|\s+and\s+/i;

/**
 * The acceptance criterion a reviewer asks for: "a late-fee criterion" names what it is about (the late fee applies);
 * "a criterion for closed restaurants" names the situation it starts from.
 */
function criterionFor(story: UserStory, directive: Directive): string {
  const action = lowerFirst((story.i_want ?? story.title ?? "use it").replace(/^to\s+/i, ""));
  const named = /\b(?:a|an|the|one|another)\s+((?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s+(?:acceptance\s+)?criteri(?:on|a)\b/i.exec(directive.sentence)?.[1];
  const topic = named?.replace(/^(?:new|extra|acceptance)\s*/i, "").replace(/-/g, " ").toLowerCase();
  if (topic && !/^(?:new|extra|acceptance|)$/.test(topic)) {
    const words = topic;
    return `Given ${withArticle(words)} applies, when I ${action}, then the ${words} is applied and shown to me`;
  }
  return `Given ${lowerFirst(directive.subject)}, when I ${action}, then the product handles it and tells me what happened`;
}

/** The priority a request sets ("make it a Must"), when it sets one. */
function priorityIn(directive: Directive): string | undefined {
  const word = PRIORITY_HINT.test(directive.sentence) ? PRIORITY.exec(directive.sentence)?.[1] : undefined;
  if (!word) return undefined;
  return word.toLowerCase().startsWith("won") ? "Won't" : sentenceCase(word.toLowerCase());
}

const isStory = (item: unknown): item is UserStory => UserStory.safeParse(item).success;

/** Two stories from one that names two actions; the second has the same role, requirements and priority. */
function splitStory(item: Record<string, unknown>, directive: Directive, newId: string): { value: [UserStory, UserStory]; did: string } | { refused: string } {
  if (!isStory(item)) return { refused: "it is not a user story" };
  const story = item;
  const action = lowerFirst((story.i_want ?? story.title ?? "").replace(/^to\s+/i, "").replace(/[.]+$/, ""));
  const parts = (directive.replacement ?? action).split(ACTION_BREAK).map((part) => part.trim().replace(/^to\s+/i, "")).filter(Boolean);
  if (parts.length < 2) {
    return { refused: `no second action named: it names one action ("${action}"); say what the two stories should be ("split it into A and B")` };
  }
  const [first = "", ...rest] = parts;
  const second = rest.join(" and ");
  const kind = story.kind === "system" || story.kind === "rule" ? story.kind : "person";
  const linked: unknown = story.functional_requirement_ids;
  const requirementIds = Array.isArray(linked) ? linked.filter((id): id is string => typeof id === "string") : [];
  const build = (id: string, part: string) =>
    buildStory(
      { id, title: capabilityName(part), role: story.as_a ?? "User", action: part, kind, requirementIds, description: story.story ?? "" },
      story.priority ?? "Should",
      [],
      [],
    );
  // The story's own criteria carry over where they name the action; fresh ones otherwise.
  const carried = (part: string, built: UserStory) => {
    const criteria = (story.acceptance_criteria ?? []).map(itemText);
    if (!criteria.some((criterion) => criterion.includes(action))) return built.acceptance_criteria;
    return criteria.map((criterion) => criterion.split(action).join(part));
  };
  const firstBuilt = build(story.id, first);
  const secondBuilt = build(newId, second);
  const kept: UserStory = {
    ...story,
    title: firstBuilt.title,
    i_want: firstBuilt.i_want,
    so_that: firstBuilt.so_that,
    story: firstBuilt.story,
    acceptance_criteria: carried(first, firstBuilt),
  };
  const added: UserStory = { ...secondBuilt, acceptance_criteria: carried(second, secondBuilt), source: `split from ${story.id} at review` };
  return { value: [kept, added], did: `"${first}" stays ${story.id}, "${second}" is the new ${newId} after it` };
}

/** A story gains a criterion or a priority; a story naming two actions splits; the last story stays. */
const AGILE_RULES: PartRules<AgileArtifact> = {
  addToItem: (item, directive) => {
    if (!isStory(item)) return { refused: "only a user story takes acceptance criteria" };
    const priority = priorityIn(directive);
    if (priority) return { value: { ...item, priority }, did: `priority ${item.priority ?? "(none)"} -> ${priority}` };
    const criterion = criterionFor(item, directive);
    return { value: { ...item, acceptance_criteria: [...(item.acceptance_criteria ?? []), criterion] }, did: `added the acceptance criterion "${criterion}"` };
  },
  splitItem: (item, directive, newId) => splitStory(item, directive, newId),
  keepItem: (artifact, part) =>
    STORY_ITEM.test(part.anchor) && artifact.epics.flatMap((epic) => epic.user_stories).length <= 1
      ? "it is the only story, and the backlog needs one"
      : undefined,
};

export function reviseAgile(request: AgentRequest): EnvelopeOf<"agile"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "agile")), request, AGILE_RULES);
  const { artifact, changes, outcomes } = revision;
  const allStories = () => artifact.epics.flatMap((epic) => epic.user_stories);
  const storiesNamed = (ids: string[]) => allStories().filter((story) => ids.includes(story.id.toUpperCase()));

  const addStory = (directive: Directive) => {
    const read = capabilitiesIn(directive.subject)[0];
    const roles = allStories().map((story) => story.as_a ?? "").filter(Boolean);
    const subjectRole = directive.subject.split(/\s+/).find((word) => isPersonWord(word));
    const role = read?.kind === "person" ? roleName(read.actor) : subjectRole ? roleName(subjectRole) : (roles[0] ?? "User");
    const action = read?.action ?? lowerFirst(directive.subject);
    const id = padId("US", nextNumber(allStories().map((story) => story.id), "US"));
    const scored = artifact.epics.map((epic) => ({ epic, score: overlap(directive.subject, `${epic.title} ${epic.description ?? ""} ${epic.user_stories.map((story) => story.title ?? "").join(" ")}`) }));
    const best = scored.reduce<{ epic: Epic; score: number } | undefined>((top, entry) => (entry.score > (top?.score ?? 0) ? entry : top), undefined);
    let epic = best?.epic;
    if (!epic) {
      epic = artifact.epics.find((candidate) => candidate.title === "Reviewer requests");
      if (!epic) {
        epic = { id: padId("EP", nextNumber(artifact.epics.map((candidate) => candidate.id ?? ""), "EP"), 2), title: "Reviewer requests", description: "Stories added at review.", user_stories: [] };
        artifact.epics.push(epic);
        changes.added.push(`epics: ${epic.id} "Reviewer requests"`);
      }
    }
    // A retry's context is this agent's own artifact only, so the new story cannot see dependencies or NFRs.
    const story = buildStory(
      { id, title: capabilityName(action), role, action, kind: read?.kind ?? "person", requirementIds: [], description: directive.sentence },
      "Should",
      [],
      [],
    );
    story.source = "reviewer feedback";
    epic.user_stories.push(story);
    changes.added.push(`user_stories: ${story.id} "${story.title}" in ${epic.id ?? epic.title}`);
    outcomes.push(`Added ${story.id} "${story.title}" to epic "${epic.title}".`);
  };

  for (const directive of generalDirectives(request)) {
    const named = storiesNamed(directive.ids);
    const priority = priorityIn(directive);
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, AGILE_RULES, STORY_ITEM, "story");
    } else if (named.length > 0 && directive.kind !== "remove" && priority) {
      for (const story of named) {
        changes.modified.push(`${story.id}: priority ${story.priority ?? "(none)"} -> ${priority}`);
        story.priority = priority;
      }
      outcomes.push(`Set the priority of ${joinList(named.map((story) => story.id))} to ${priority}.`);
    } else if (directive.kind === "add" && named.length > 0) {
      for (const story of named) {
        const criterion = criterionFor(story, directive);
        story.acceptance_criteria = [...(story.acceptance_criteria ?? []), criterion];
        changes.modified.push(`${story.id}: acceptance criterion added "${criterion}"`);
      }
      outcomes.push(`Added an acceptance criterion for "${directive.subject}" to ${joinList(named.map((story) => story.id))}.`);
    } else if (directive.kind === "add") {
      if (/\bepics?\b/i.test(directive.sentence)) {
        const epic: Epic = {
          id: padId("EP", nextNumber(artifact.epics.map((candidate) => candidate.id ?? ""), "EP"), 2),
          title: capabilityName(directive.subject),
          description: `Added at review: ${directive.sentence}`,
          user_stories: [],
        };
        artifact.epics.push(epic);
        changes.added.push(`epics: ${epic.id} "${epic.title}"`);
      }
      addStory(directive);
    } else if (directive.kind === "remove") {
      const removed: string[] = [];
      for (const epic of artifact.epics) {
        const kept = epic.user_stories.filter((story) => {
          const matches = directive.ids.length > 0 ? directive.ids.includes(story.id.toUpperCase()) : overlap(directive.subject, `${story.title ?? ""} ${story.i_want ?? ""}`) >= 0.6;
          if (matches) removed.push(`user_stories: ${label(story)}`);
          return !matches;
        });
        epic.user_stories = kept;
      }
      const emptied = artifact.epics.filter((epic) => epic.user_stories.length === 0);
      artifact.epics = artifact.epics.filter((epic) => epic.user_stories.length > 0);
      removed.push(...emptied.map((epic) => `epics: ${label(epic)} (no stories left)`));
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join(", ")}.`);
      } else {
        outcomes.push(`No story matched "${directive.subject}", so nothing was removed.`);
      }
    } else {
      const renamed: string[] = [];
      for (const epic of artifact.epics) {
        const nextEpic = renameItem({ ...epic, user_stories: [] }, directive);
        if (nextEpic && nextEpic.title !== epic.title) {
          renamed.push(`epics: "${epic.title}" -> "${nextEpic.title}"`);
          epic.title = nextEpic.title;
        }
        epic.user_stories = epic.user_stories.map((story) => {
          const next = renameItem(story, directive);
          if (!next) return story;
          renamed.push(`${story.id}: "${itemText(story)}" -> "${itemText(next)}"`);
          return next;
        });
      }
      if (renamed.length > 0) {
        changes.modified.push(...renamed);
        outcomes.push(`Changed ${renamed.join(", ")}.`);
      } else {
        addStory({ ...directive, kind: "add", subject: directive.replacement ?? directive.subject });
        outcomes.push(`Nothing matched "${directive.subject}", so a story for "${directive.replacement}" was added instead.`);
      }
    }
  }
  // An epic whose last story a comment removed goes too.
  const emptied = artifact.epics.filter((epic) => epic.user_stories.length === 0);
  if (emptied.length > 0) {
    artifact.epics = artifact.epics.filter((epic) => epic.user_stories.length > 0);
    changes.removed.push(...emptied.map((epic) => `epics: ${label(epic)} (no stories left)`));
  }
  if (artifact.epics.length === 0) {
    throw new AgentInputError("agile: the feedback removes every user story; an agile artifact needs at least one epic with a story, so say which stories to keep");
  }
  return revisionEnvelope("agile backlog", request, revision);
}
