/**
 * The agile agent: one user story per functional requirement (US-001, ...), grouped into epics by business
 * domain, each with acceptance criteria drawn from the requirement, the dependencies it touches and the
 * non-functional requirements, a MoSCoW priority and an estimate.
 */
import type { AgileArtifact, Epic, EnvelopeOf, RequirementItem, UserStory } from "../../artifacts";
import { type Directive, parseFeedback, revisionJustification } from "../feedback";
import { type AgentRequest, AgentInputError, contextArtifact, domainOf, previousArtifact } from "../request";
import {
  capabilitiesIn,
  isPersonWord,
  itemText,
  joinList,
  lowerFirst,
  nextNumber,
  overlap,
  padId,
  roleName,
  sentenceCase,
  withArticle,
  shorten,
  firstPerson,
} from "../text";
import {
  type Changes,
  type RequirementFact,
  type ServiceFact,
  capabilityFacts,
  copyOf,
  envelope,
  functionalFacts,
  label,
  noChanges,
  operationOf,
  recordNote,
  renameItem,
  rolesOf,
  plural,
  serviceFacts,
  servicesFor,
  storyEntity,
  wantPhrase,
} from "./shared";

const BENEFIT_BY_DOMAIN: Record<string, (object: string) => string> = {
  "Payments and billing": (object) => `my ${object} is settled and I keep a receipt`,
  "Ordering and commerce": (object) => `I get the ${object} I need without phoning anyone`,
  "Mobility and logistics": (object) => `I know where my ${object} is and when it arrives`,
  "Scheduling and bookings": (object) => `my ${object} is confirmed for a time that suits me`,
  "Identity and access": (object) => `my ${object} is mine alone and protected`,
  "Notifications and messaging": (object) => `I learn about the ${object} when it matters`,
  "Reporting and analytics": (object) => `I can decide from the ${object} instead of guessing`,
  "Content and documents": (object) => `the ${object} is stored once and easy to find`,
  "Search and discovery": (object) => `I find the right ${object} quickly`,
  "Reviews and ratings": (object) => `others can trust the ${object}`,
};

function benefit(requirement: RequirementFact, object: string): string {
  const purpose = /\b(?:so that|in order to)\s+(.+?)\.?$/i.exec(`${requirement.title} ${requirement.description}`);
  if (purpose?.[1]) return lowerFirst(purpose[1]);
  const template = requirement.domain ? BENEFIT_BY_DOMAIN[requirement.domain] : undefined;
  return template ? template(object) : `my ${object} is handled in one place instead of by hand`;
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
  action: string;
  kind: "person" | "system" | "rule";
  requirementIds: string[];
  domain?: string;
  description: string;
}

function buildStory(input: StoryInput, priority: string, services: readonly ServiceFact[], nonFunctional: readonly RequirementItem[]): UserStory {
  const person = input.kind === "person";
  const action = person ? firstPerson(input.action) : input.action;
  const object = storyEntity({ action: input.action, title: input.title, kind: input.kind }).toLowerCase();
  const want = wantPhrase(input.kind, action);
  const soThat = benefit({ id: input.requirementIds[0] ?? "", title: input.title, description: input.description, actor: input.role, kind: input.kind, ...(input.domain ? { domain: input.domain } : {}) }, object);
  const touched = servicesFor(`${input.action} ${input.description}`, services);
  const requirementRef = input.requirementIds.join(", ") || "this story";
  const act = person
    ? `I ${lowerFirst(action)}`
    : input.kind === "system"
      ? `the system is due to ${lowerFirst(action)}`
      : `a ${object} that falls under ${requirementRef} is processed`;
  const operation = operationOf(action);
  const success = person
    ? operation === "read"
      ? `then I see the ${plural(object)} that concern me`
      : operation === "delete"
        ? `then the ${object} is removed and I see a confirmation`
        : `then the ${object} is ${operation === "update" ? "updated" : "saved"} and I see a confirmation`
    : input.kind === "system"
      ? "then it happens once and the outcome is recorded"
      : `then ${lowerFirst(action).replace(/\b(?:must|should|shall|will|has to|have to|needs to|need to)\s+/i, "")}`;
  const criteria = [
    `Given ${person ? `I am signed in as ${withArticle(input.role.toLowerCase())}` : `the conditions of ${requirementRef} hold`}, when ${act}, ${success}`,
    person && operation === "read"
      ? `Given ${plural(object)} that belong to another ${input.role.toLowerCase()}, when ${act}, then none of them are shown to me`
      : person
        ? `Given the ${object} details are incomplete or invalid, when ${act}, then I am told which fields to correct and nothing is saved`
        : `Given the ${object} data is incomplete or invalid, when ${act}, then it is rejected with a logged reason and nothing is saved`,
    ...touched.map((service) =>
      person
        ? `Given ${service.name} is unavailable, when ${act}, then I see that it could not be completed and retrying does not do it twice`
        : `Given ${service.name} is unavailable, when ${act}, then the failure is reported and retrying does not do it twice`,
    ),
    ...[...nonFunctional.filter((requirement) => requirement.title === "Performance"), ...nonFunctional.filter((requirement) => requirement.title === "Scalability")]
      .slice(0, 1)
      .map((requirement) => `Given normal load, when ${act}, then the response meets ${requirement.id} (${requirement.title})`),
  ];
  return {
    id: input.id,
    title: input.title,
    as_a: input.role,
    i_want: want,
    so_that: soThat,
    story: `As ${withArticle(input.role.toLowerCase())}, I want ${want}, so that ${soThat}.`,
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

export function draftAgile(request: AgentRequest): EnvelopeOf<"agile"> {
  const requirements = contextArtifact(request, "requirements", "agile");
  const inception = contextArtifact(request, "inception", "agile");
  const domain = domainOf(request);
  const capabilities = capabilityFacts(requirements);
  const roles = rolesOf(capabilities);
  const services = serviceFacts(requirements);
  const functional = functionalFacts(inception, capabilities);
  const fallbackRole = roles[0] ?? "User";

  const groupOf = (requirement: RequirementFact) => requirement.domain ?? (domain ? `${sentenceCase(domain)} core` : "Core capabilities");
  const groups = [...new Set(functional.map(groupOf))];
  let storyNumber = 0;
  const epics: Epic[] = groups.map((group, groupIndex) => {
    const members = functional.filter((requirement) => groupOf(requirement) === group);
    const userStories = members.map((requirement) => {
      storyNumber += 1;
      const role = requirement.kind === "person" ? roleName(requirement.actor) : fallbackRole;
      const index = functional.indexOf(requirement);
      return buildStory(
        {
          id: padId("US", storyNumber),
          title: requirement.title,
          role,
          action: requirement.title,
          kind: requirement.kind,
          requirementIds: [requirement.id],
          ...(requirement.domain ? { domain: requirement.domain } : {}),
          description: requirement.description,
        },
        priorityAt(index, functional.length),
        services,
        inception.non_functional_requirements,
      );
    });
    const actors = [...new Set(userStories.filter((story) => story.kind === "person").map((story) => (story.as_a ?? "").toLowerCase()))];
    const acting = members.filter((requirement) => requirement.kind === "person");
    const rules = members.filter((requirement) => requirement.kind !== "person");
    const description = [
      acting.length > 0 ? `Lets ${joinList(actors.map((actor) => plural(actor)))} ${joinList(acting.map((requirement) => lowerFirst(requirement.title)))}.` : "",
      rules.length > 0 ? `Ensures that ${joinList(rules.map((requirement) => lowerFirst(requirement.title)))}.` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return {
      id: padId("EP", groupIndex + 1, 2),
      title: group,
      description,
      functional_requirement_ids: members.map((requirement) => requirement.id),
      user_stories: userStories,
    };
  });

  const stories = epics.flatMap((epic) => epic.user_stories);
  const artifact: AgileArtifact = { epics };
  const changes: Changes = {
    added: [
      ...epics.map((epic) => `epics: ${epic.id} "${epic.title}" (${epic.user_stories.length} stories)`),
      ...stories.map((story) => `user_stories: ${story.id} "${story.title}"`),
    ],
    removed: [],
    modified: [],
  };
  const justification =
    `One user story per functional requirement (${functional.length}), numbered ${stories[0]?.id} to ${stories[stories.length - 1]?.id} and grouped into ${epics.length} epics by business domain. ` +
    `Acceptance criteria cover the success path, invalid input, each external dependency the story touches (${joinList(services.map((service) => service.name)) || "none"}) and the performance requirement where one exists; ` +
    `priorities follow the order of the requirements (Must first), estimates grow with the dependencies and criteria involved.`;
  return envelope(artifact, changes, justification);
}

const PRIORITY = /\b(must|should|could|won'?t)(?:[- ]have)?\b/i;
const PRIORITY_HINT = /\b(priority|prioriti[sz]e|must[- ]have|should[- ]have|could[- ]have|won'?t[- ]have|a must|a should|a could)\b/i;

export function reviseAgile(request: AgentRequest): EnvelopeOf<"agile"> {
  const artifact = copyOf(previousArtifact(request, "agile"));
  const changes = noChanges();
  const outcomes: string[] = [];
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
      { id, title: sentenceCase(shorten(action, 10)), role, action, kind: read?.kind ?? "person", requirementIds: [], description: directive.sentence },
      "Should",
      [],
      [],
    );
    story.source = "reviewer feedback";
    epic.user_stories.push(story);
    changes.added.push(`user_stories: ${story.id} "${story.title}" in ${epic.id ?? epic.title}`);
    outcomes.push(`Added ${story.id} "${story.title}" to epic "${epic.title}".`);
  };

  for (const directive of parseFeedback(request.feedback)) {
    const named = storiesNamed(directive.ids);
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (named.length > 0 && directive.kind !== "remove" && PRIORITY_HINT.test(directive.sentence) && PRIORITY.test(directive.sentence)) {
      const word = PRIORITY.exec(directive.sentence)?.[1] ?? "Should";
      const priority = word.toLowerCase().startsWith("won") ? "Won't" : sentenceCase(word.toLowerCase());
      for (const story of named) {
        changes.modified.push(`${story.id}: priority ${story.priority ?? "(none)"} -> ${priority}`);
        story.priority = priority;
      }
      outcomes.push(`Set the priority of ${joinList(named.map((story) => story.id))} to ${priority}.`);
    } else if (directive.kind === "add" && named.length > 0) {
      for (const story of named) {
        const action = lowerFirst((story.i_want ?? story.title ?? "use it").replace(/^to\s+/i, ""));
        const criterion = `Given ${lowerFirst(directive.subject)}, when I ${action}, then the product handles it and tells me what happened`;
        story.acceptance_criteria = [...(story.acceptance_criteria ?? []), criterion];
        changes.modified.push(`${story.id}: acceptance criterion added "${criterion}"`);
      }
      outcomes.push(`Added an acceptance criterion for "${directive.subject}" to ${joinList(named.map((story) => story.id))}.`);
    } else if (directive.kind === "add") {
      if (/\bepics?\b/i.test(directive.sentence)) {
        const epic: Epic = {
          id: padId("EP", nextNumber(artifact.epics.map((candidate) => candidate.id ?? ""), "EP"), 2),
          title: sentenceCase(shorten(directive.subject, 8)),
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
  if (artifact.epics.length === 0) {
    throw new AgentInputError("agile: the feedback removes every user story; an agile artifact needs at least one epic with a story, so say which stories to keep");
  }
  return envelope(artifact, changes, revisionJustification("agile backlog", request.feedback, outcomes));
}
