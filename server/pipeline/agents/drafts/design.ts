/**
 * What the two technical agents, diagrams and pseudocode, share about a story: names in code style
 * (PascalCase entities, snake_case columns), the entity of the data model the story works on, the column
 * that keeps an external service's id, and the work the product does for an actor on a schedule.
 */
import { deliveredBy, passiveVerb } from "../text/verbs";
import { type StoryFact, storyEntity, storyObject } from "./shared";

export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

export function pascalCase(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/**
 * The entity of a data model that a story works on: the first one, other than the story's own role, that
 * lists the story in its `source_stories`; else the one named after the thing the story works on.
 */
export function entityOfStory<E extends { name: string; source_stories?: unknown }>(story: StoryFact, entities: readonly E[]): E | undefined {
  const role = pascalCase(story.role);
  const owned = entities.filter((entity) => {
    const sources = entity.source_stories;
    return Array.isArray(sources) && sources.includes(story.id);
  });
  return owned.find((entity) => entity.name !== role) ?? entities.find((entity) => entity.name === pascalCase(storyEntity(story)));
}

/** The column of a record that keeps an external service's own id: "Stripe" -> stripe_reference, "Identity provider (SSO/OAuth)" -> identity_provider_reference. */
export function referenceColumn(serviceName: string): string {
  return `${snakeCase(serviceName.replace(/\(.*\)/, ""))}_reference`;
}

/** Work the product does for a story's actor on a schedule, rather than the actor doing it. */
export interface ScheduledDelivery {
  /** What the product does: "pay" for "get paid weekly", "send" for "receive SMS reminders". */
  verb: string;
  /** The actor receives the action itself ("get paid"), not a thing ("receive SMS reminders"). */
  passive: boolean;
  /** The deed in words: "pay the driver", "send the SMS reminder to the patient". */
  deed: string;
}

/** How a person's story is done for them by a scheduled run; undefined when the actor does it, or when no person acts. */
export function scheduledDelivery(story: StoryFact): ScheduledDelivery | undefined {
  const verb = story.kind === "person" ? deliveredBy(story.action) : undefined;
  if (!verb) return undefined;
  const passive = Boolean(passiveVerb(story.action));
  const role = story.role.toLowerCase();
  return { verb, passive, deed: passive ? `${verb} the ${role}` : `${verb} the ${storyObject(story)} to the ${role}` };
}
