/**
 * The pseudocode agent: one function per user story (keyed by story id), shaped by what the story does
 * (read, create, update, delete), the entity the diagram agent gave it, the external services it calls, and
 * its acceptance criteria. Its revision after a reviewer's feedback is in ../revisions/pseudocodigo.ts.
 */
import type { Entity, EnvelopeOf, PseudocodigoArtifact } from "../../artifacts";
import { type AgentRequest, contextArtifact } from "../request";
import { count, joinList } from "../text/lists";
import { camelCase, lowerFirst, sentenceCase } from "../text/normalize";
import { entityOfStory, pascalCase, referenceColumn, scheduledDelivery, snakeCase } from "./design";
import {
  type Changes,
  type ServiceFact,
  type StoryFact,
  envelope,
  operationOf,
  serviceFacts,
  servicesFor,
  storyEntity,
  storyFacts,
  storyObject,
} from "./shared";

/** The fields a caller supplies: not keys, not bookkeeping, not references that an external service fills in. */
function fieldsOf(entity: Entity | undefined): string[] {
  return (entity?.attributes ?? [])
    .map((attribute) => (typeof attribute === "string" ? { name: attribute, key: undefined } : attribute))
    .filter((attribute) => !attribute.key && !/^(id|created_at|updated_at|status)$/.test(attribute.name) && !attribute.name.endsWith("_reference"))
    .map((attribute) => attribute.name);
}

/** "reconcile settlements with the bank every night" -> reconcileSettlements; "pay by card" keeps its words -> payByCard. */
function functionName(action: string): string {
  const words = action.split(/\s+/);
  const stop = words.findIndex((word, index) => index > 0 && /^(for|to|from|with|by|in|on|at|via|through|using|before|after|when|while|so|every|each|within|into)$/i.test(word));
  return camelCase(stop > 1 ? words.slice(0, stop).join(" ") : action);
}

function pseudocode(story: StoryFact, entity: Entity | undefined, services: readonly ServiceFact[]): string {
  const name = entity?.name ?? pascalCase(storyEntity(story));
  // The entity's variable must not shadow the caller's input ("accept ride requests" works on a Request).
  const variable = camelCase(name) === "input" ? "record" : camelCase(name);
  const actor = camelCase(story.role);
  const person = story.kind === "person";
  const owner = `${snakeCase(story.role)}_id`;
  const operation = operationOf(story.action);
  const fields = fieldsOf(entity).filter((field) => field !== owner);
  const references = (entity?.attributes ?? []).map((attribute) => (typeof attribute === "string" ? attribute : attribute.name)).filter((field) => field.endsWith("_reference"));
  const lines: string[] = [];
  // "get paid weekly" is done for the actor by a scheduled run: named after what is done, and no sign-in to check.
  const delivery = scheduledDelivery(story);
  const functionId = !delivery ? functionName(story.action) : delivery.passive ? camelCase(`${delivery.verb} ${story.role}`) : camelCase(`${delivery.verb} ${storyObject(story)}`);
  // What the call and the audit entry say is done: the actor's words, or what the product does for them.
  const deed = delivery ? delivery.deed : lowerFirst(story.action);
  lines.push(person ? `FUNCTION ${functionId}(${actor}, input)` : `FUNCTION ${functionId}(input)`);
  lines.push(`  // ${story.id}: ${story.title}${delivery ? ` (runs on a schedule for each ${story.role.toLowerCase()})` : ""}`);
  for (const criterion of story.criteria) lines.push(`  // Acceptance: ${criterion}`);
  if (person && !delivery) lines.push(`  REQUIRE ${actor} is signed in with role ${story.role}`, '    ELSE RETURN error 403 "not allowed"');
  if (operation === "read") {
    lines.push(`  ${variable}List <- SELECT ${name} WHERE ${person ? `${owner} = ${actor}.id AND ` : ""}matches input.filters`);
    lines.push(`  RETURN ${variable}List ordered by created_at, newest first`);
    lines.push("END FUNCTION");
    return lines.join("\n");
  }
  if (operation === "create" || operation === "update") {
    lines.push(`  VALIDATE input has ${fields.length > 0 ? joinList(fields) : `the details of the ${name.toLowerCase()}`}`);
    lines.push("  IF validation fails THEN", "    RETURN error 422 listing each invalid field", "  END IF");
  }
  if (operation !== "create") {
    lines.push(`  ${variable} <- SELECT ${name} WHERE id = input.${snakeCase(name)}_id`);
    lines.push(`  IF ${variable} is missing${person ? ` OR ${variable}.${owner} <> ${actor}.id` : ""} THEN`, "    RETURN error 404", "  END IF");
  }
  const assignments: string[] = [];
  for (const service of services) {
    const call = camelCase(`${service.name.replace(/\(.*\)/, "")} result`);
    lines.push(`  ${call} <- CALL ${service.name} FOR "${deed}" WITH idempotency key = input.id, timeout 10 s, up to 3 retries`);
    lines.push(`  IF ${call} failed THEN`, `    RETURN error 502 "${service.name} is unavailable; nothing was saved"`, "  END IF");
    const reference = references.find((field) => field === referenceColumn(service.name));
    if (reference) assignments.push(`${reference} = ${call}.id`);
  }
  lines.push("  BEGIN TRANSACTION");
  if (operation === "create") {
    const values = [...(person ? [`${owner} = ${actor}.id`] : []), 'status = "created"', ...fields.map((field) => `${field} = input.${field}`), ...assignments];
    lines.push(`    ${variable} <- INSERT ${name} (${values.join(", ")})`);
  } else if (operation === "update") {
    const values = [...(fields.length > 0 ? fields.map((field) => `${field} = input.${field}`) : ["the changed fields from input"]), ...assignments, "updated_at = now()"];
    lines.push(`    UPDATE ${variable} SET ${values.join(", ")}`);
  } else {
    lines.push(`    DELETE ${variable}`);
  }
  lines.push(`    RECORD audit entry (${person ? `${actor}.id` : "system"}, "${deed}", ${variable}.id)`);
  lines.push("  COMMIT");
  if (delivery?.passive) lines.push(`  NOTIFY ${actor}: "${name} made"`);
  else if (person) lines.push(`  NOTIFY ${actor}: "${sentenceCase(story.action)}" succeeded`);
  lines.push(`  RETURN ${operation === "delete" ? "success" : variable}`);
  lines.push("END FUNCTION");
  return lines.join("\n");
}

export function draftPseudocodigo(request: AgentRequest): EnvelopeOf<"pseudocodigo"> {
  const requirements = contextArtifact(request, "requirements", "pseudocodigo");
  const agile = contextArtifact(request, "agile", "pseudocodigo");
  const diagramacion = contextArtifact(request, "diagramacion", "pseudocodigo");
  const model = diagramacion.entity_relationship_model;
  const entities = typeof model === "object" && !Array.isArray(model) && Array.isArray(model.entities) ? (model.entities as Entity[]) : [];
  const services = serviceFacts(requirements);
  const stories = storyFacts(agile);
  const byStory: Record<string, string> = {};
  for (const story of stories) byStory[story.id] = pseudocode(story, entityOfStory(story, entities), servicesFor(story.text, services));
  const artifact: PseudocodigoArtifact = { user_story_pseudocode: byStory };
  const changes: Changes = { added: stories.map((story) => `user_story_pseudocode: ${story.id} "${story.title}"`), removed: [], modified: [] };
  const justification =
    `One function per user story (${count(stories.length, "function")}); each follows what its story does (read, create, update or delete), works on the entity the diagrams gave it ` +
    `(${count(entities.length, "entity", "entities")} available), checks the role, validates input, calls the external services the story depends on with idempotency keys and retries, ` +
    "writes in one transaction with an audit entry, and carries its acceptance criteria as comments.";
  return envelope(artifact, changes, justification);
}
