/**
 * The pseudocode agent: one function per user story (keyed by story id), shaped by what the story does
 * (read, create, update, delete), the entity the diagram agent gave it, the external services it calls, and
 * its acceptance criteria.
 */
import type { Entity, EnvelopeOf, PseudocodigoArtifact } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { type Directive, replaceWording } from "../feedback";
import { type AgentRequest, contextArtifact, previousArtifact } from "../request";
import { copyOf, recordNote } from "../revisions/shared";
import { itemText } from "../text/items";
import { overlap } from "../text/keywords";
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

/** The pseudocode map as a record, whichever of the accepted shapes the agent used. */
type PseudocodeEntries = Extract<PseudocodigoArtifact["user_story_pseudocode"], Record<string, unknown>>;

function asRecord(value: PseudocodigoArtifact["user_story_pseudocode"]): PseudocodeEntries {
  if (!Array.isArray(value)) return value;
  const record: PseudocodeEntries = {};
  value.forEach((entry, index) => {
    const id = entry.user_story_id ?? entry.story_id ?? entry.id ?? `US-${String(index + 1).padStart(3, "0")}`;
    const code = entry.pseudocode ?? entry.code;
    record[String(id)] = typeof code === "string" ? code : entry;
  });
  return record;
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(itemText).join("\n");
  if (value && typeof value === "object" && typeof (value as Record<string, unknown>).pseudocode === "string") return (value as { pseudocode: string }).pseudocode;
  return itemText(value);
}

/** Puts a step before the function's closing line, or at the end when there is none. */
function insertStep(code: string, step: string[]): string {
  const lines = code.replace(/\s+$/, "").split("\n");
  const end = lines.findLastIndex((line) => /^\s*END\b/i.test(line));
  if (end >= 0) lines.splice(end, 0, ...step);
  else lines.push(...step);
  return lines.join("\n");
}

/** The ENSURE step a request asks for: "Validate the card expiry" -> "ENSURE validate the card expiry". */
const ensureStep = (directive: Directive) =>
  `ENSURE ${lowerFirst(directive.subject.replace(/\b(?:US|FR)-\d+\b:?\s*/gi, "")).trim() || lowerFirst(directive.sentence)}`;

/** A comment on a function adds its step before the END; on a line, right after that line, indented like it. */
const PSEUDOCODE_RULES: PartRules<PseudocodigoArtifact> = {
  addToText: (code, directive) => ({ value: insertStep(code, [`  ${ensureStep(directive)}`]), did: `gained the step "${ensureStep(directive)}"` }),
  lineAfter: (line, directive) => ({ value: `${/^\s*/.exec(line)?.[0] ?? ""}${ensureStep(directive)}`, did: `the step "${ensureStep(directive)}"` }),
};

export function revisePseudocodigo(request: AgentRequest): EnvelopeOf<"pseudocodigo"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "pseudocodigo")), request, PSEUDOCODE_RULES);
  const { artifact, changes, outcomes } = revision;
  const entries = asRecord(artifact.user_story_pseudocode);
  const ids = Object.keys(entries);

  for (const directive of generalDirectives(request)) {
    const named = directive.ids.filter((id) => ids.includes(id));
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, PSEUDOCODE_RULES, /^user_story_pseudocode\[[^\]]+\]$/, "function");
    } else if (directive.kind === "add") {
      const unknown = directive.ids.filter((id) => /^US-/.test(id) && !ids.includes(id));
      for (const id of unknown) {
        entries[id] = [`FUNCTION ${camelCase(directive.subject)}(actor, input)`, `  // ${id}: ${sentenceCase(directive.subject)} (added at review)`, `  PERFORM ${lowerFirst(directive.subject)}`, "  RETURN result", "END FUNCTION"].join("\n");
        ids.push(id);
        changes.added.push(`user_story_pseudocode: ${id}`);
        outcomes.push(`Added pseudocode for ${id}.`);
      }
      if (unknown.length > 0) continue;
      const relevant = ids.filter((id) => overlap(directive.subject, textOf(entries[id])) >= 0.5);
      // Named stories first; else those the words fit; else it is a rule for every function ("validate all input").
      const targets = named.length > 0 ? named : relevant.length > 0 ? relevant : ids;
      const step = [`  // Review: ${sentenceCase(directive.sentence)}`, `  ENSURE ${lowerFirst(directive.subject.replace(/\b(?:US|FR)-\d+\b:?\s*/gi, "")).trim() || lowerFirst(directive.sentence)}`];
      for (const id of targets) {
        entries[id] = insertStep(textOf(entries[id]), step);
        changes.modified.push(`user_story_pseudocode: ${id} gained the step "${step[1]?.trim()}"`);
      }
      outcomes.push(`Added the step "${step[1]?.trim()}" to ${joinList(targets)}.`);
    } else if (directive.kind === "remove") {
      const removed: string[] = [];
      if (named.length > 0 && /\b(pseudocode|function|entry|entries|stor(?:y|ies))\b/i.test(directive.sentence)) {
        for (const id of named) {
          delete entries[id];
          removed.push(`user_story_pseudocode: ${id}`);
        }
      } else {
        for (const id of named.length > 0 ? named : ids) {
          const lines = textOf(entries[id]).split("\n");
          const kept = lines.filter((line) => /^\s*(FUNCTION|END)\b/i.test(line) || overlap(directive.subject.replace(/\b(?:US|FR)-\d+\b/gi, ""), line) < 0.6);
          if (kept.length !== lines.length) {
            entries[id] = kept.join("\n");
            removed.push(`user_story_pseudocode: ${id}, ${lines.length - kept.length} lines about "${directive.subject}"`);
          }
        }
      }
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join("; ")}.`);
      } else {
        outcomes.push(`No pseudocode matched "${directive.subject}", so nothing was removed.`);
      }
    } else {
      const modified: string[] = [];
      for (const id of named.length > 0 ? named : ids) {
        const text = textOf(entries[id]);
        const next = text
          .split("\n")
          .map((line) => replaceWording(line, directive.subject, directive.replacement ?? "") ?? line)
          .join("\n");
        if (next !== text) {
          entries[id] = next;
          modified.push(`user_story_pseudocode: ${id} "${directive.subject}" -> "${directive.replacement}"`);
        }
      }
      if (modified.length > 0) {
        changes.modified.push(...modified);
        outcomes.push(`Changed ${modified.join("; ")}.`);
      } else {
        const step = [`  // Review: ${sentenceCase(directive.sentence)}`, `  ENSURE ${lowerFirst(directive.replacement ?? directive.subject)}`];
        for (const id of named.length > 0 ? named : ids) {
          entries[id] = insertStep(textOf(entries[id]), step);
          changes.modified.push(`user_story_pseudocode: ${id} gained the step "${step[1]?.trim()}"`);
        }
        outcomes.push(`No pseudocode contained "${directive.subject}", so the step "${step[1]?.trim()}" was added instead.`);
      }
    }
  }
  if (Object.keys(entries).length === 0) {
    outcomes.push("Every entry was removed at the reviewer's request.");
  }
  artifact.user_story_pseudocode = entries;
  return revisionEnvelope("pseudocode", request, revision);
}
