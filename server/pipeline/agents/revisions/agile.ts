/**
 * How the agile agent revises its backlog after a reviewer's feedback: comments on a story add a criterion, set
 * a priority or split it in two; general feedback sets priorities, adds criteria to the stories it names, adds
 * stories (and epics), removes stories (an epic left empty goes too) or rewords them. A revision never leaves
 * the backlog without a story. The first draft is in ../drafts/agile.ts.
 */
import { type AgileArtifact, type Epic, type EnvelopeOf, UserStory } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { buildStory } from "../drafts/agile";
import type { Directive } from "../feedback";
import { type AgentRequest, AgentInputError, previousArtifact } from "../request";
import { isPersonWord, roleName } from "../text/actors";
import { capabilitiesIn, capabilityName } from "../text/capabilities";
import { itemText, nextNumber, padId } from "../text/items";
import { overlap } from "../text/keywords";
import { joinList } from "../text/lists";
import { lowerFirst, sentenceCase } from "../text/normalize";
import { withArticle } from "../text/nouns";
import { copyOf, label, recordNote, renameItem } from "./shared";

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
