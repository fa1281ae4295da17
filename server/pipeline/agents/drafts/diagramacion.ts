/**
 * The diagram agent: an entity-relationship model (one entity per role and per thing the stories work on,
 * related by what the role does to it) and a Mermaid sequence diagram with one block per user story, from the
 * actor through the web client and API to the database and the external services the story touches.
 */
import type { DiagramacionArtifact, Entity, EnvelopeOf, Relationship } from "../../artifacts";
import { type Edit, type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { type Directive, itemMatches, mentions, replaceWording } from "../feedback";
import { type AgentRequest, contextArtifact, previousArtifact } from "../request";
import { copyOf, recordNote } from "../revisions/shared";
import { isPersonWord } from "../text/actors";
import { overlap, significantWords } from "../text/keywords";
import { count, joinList } from "../text/lists";
import { lowerFirst, sentenceCase, titleCase } from "../text/normalize";
import { singular } from "../text/nouns";
import { objectPhrase } from "../text/objects";
import { serviceReference } from "../text/services";
import { relationLabel } from "../text/verbs";
import { entityOfStory, pascalCase, referenceColumn, scheduledDelivery, snakeCase } from "./design";
import {
  type Changes,
  type Operation,
  type ServiceFact,
  type StoryFact,
  envelope,
  operationOf,
  plural,
  serviceFacts,
  servicesFor,
  storyEntity,
  storyFacts,
  storyObject,
} from "./shared";

type Attribute = { name: string; type: string; key?: "PK" | "FK" };
type EntityDraft = { name: string; attributes: Attribute[]; source_stories: string[] };
type RelationshipDraft = { from: string; to: string; cardinality: string; label: string; source_stories: string[] };

/** Mermaid message text ends at a newline and must not hold `;` (statement separator) or `#` (entity codes). */
export function mermaidText(text: string): string {
  return text.replace(/[;#:%{}<>"`]/g, " ").replace(/\s+/g, " ").trim() || "step";
}

const HTTP_BY_OPERATION: Record<Operation, string> = { read: "GET", create: "POST", update: "PUT", delete: "DELETE" };

const SQL_BY_OPERATION: Record<Operation, string> = { read: "select", create: "insert", update: "update", delete: "delete" };

function buildModel(stories: readonly StoryFact[], services: readonly ServiceFact[]) {
  const entities = new Map<string, EntityDraft>();
  const relationships = new Map<string, RelationshipDraft>();
  const entity = (name: string, attributes: () => Attribute[]) => {
    let existing = entities.get(name);
    if (!existing) {
      existing = { name, attributes: attributes(), source_stories: [] };
      entities.set(name, existing);
    }
    return existing;
  };
  const relate = (from: string, to: string, cardinality: string, label: string, storyId: string) => {
    const key = `${from}|${to}|${label}`;
    const existing = relationships.get(key);
    if (existing) existing.source_stories.push(storyId);
    else relationships.set(key, { from, to, cardinality, label, source_stories: [storyId] });
  };
  const roleEntity = (): Attribute[] => [
    { name: "id", type: "uuid", key: "PK" },
    { name: "name", type: "text" },
    { name: "email", type: "text" },
    { name: "created_at", type: "timestamptz" },
  ];
  const roleNames = new Set(stories.filter((story) => story.kind === "person").map((story) => pascalCase(story.role)));
  for (const story of stories) {
    const person = story.kind === "person";
    const role = pascalCase(story.role);
    if (person) entity(role, roleEntity).source_stories.push(story.id);
    const thing = pascalCase(storyEntity(story));
    if (person && thing === role) continue;
    // "Drivers rate customers": the thing acted on is itself a role, related many-to-many.
    if (roleNames.has(thing) || isPersonWord(thing.toLowerCase())) {
      entity(thing, roleEntity).source_stories.push(story.id);
      if (person) relate(role, thing, "N:M", relationLabel(story.action), story.id);
      continue;
    }
    const target = entity(thing, () => [
      { name: "id", type: "uuid", key: "PK" },
      ...(person ? [{ name: `${snakeCase(role)}_id`, type: "uuid", key: "FK" as const }] : []),
      { name: "status", type: "text" },
      { name: "created_at", type: "timestamptz" },
      { name: "updated_at", type: "timestamptz" },
    ]);
    target.source_stories.push(story.id);
    if (person && !target.attributes.some((attribute) => attribute.name === `${snakeCase(role)}_id`)) {
      target.attributes.splice(1, 0, { name: `${snakeCase(role)}_id`, type: "uuid", key: "FK" });
    }
    for (const service of servicesFor(story.text, services)) {
      const column = referenceColumn(service.name);
      if (!target.attributes.some((attribute) => attribute.name === column)) target.attributes.push({ name: column, type: "text" });
    }
    if (person) relate(role, thing, "1:N", relationLabel(story.action), story.id);
  }
  // "accept ride requests": a Request belongs to a Ride when Ride is an entity of its own.
  for (const story of stories) {
    const phrase = objectPhrase(story.action);
    const owner = phrase.length >= 2 ? pascalCase(singular(phrase[phrase.length - 2] ?? "")) : "";
    const thing = entities.get(pascalCase(storyEntity(story)));
    if (!owner || !thing || owner === thing.name || !entities.has(owner)) continue;
    const column = `${snakeCase(owner)}_id`;
    if (!thing.attributes.some((attribute) => attribute.name === column)) thing.attributes.splice(1, 0, { name: column, type: "uuid", key: "FK" });
    relate(owner, thing.name, "1:N", "has", story.id);
  }
  return { entities: [...entities.values()], relationships: [...relationships.values()] };
}

function sequenceDiagram(stories: readonly StoryFact[], services: readonly ServiceFact[], entityOf: (story: StoryFact) => string): string {
  const roles = [...new Set(stories.map((story) => story.role))];
  const roleId = new Map(roles.map((role, index) => [role, `A${index + 1}`]));
  const usedServices = services.filter((service) => stories.some((story) => servicesFor(story.text, [service]).length > 0));
  const serviceId = new Map(usedServices.map((service, index) => [service.name, `X${index + 1}`]));
  const lines = ["sequenceDiagram", "  autonumber"];
  for (const role of roles) lines.push(`  actor ${roleId.get(role)} as ${mermaidText(role)}`);
  lines.push("  participant APP as Web client", "  participant API as API backend", "  participant DB as Database");
  for (const service of usedServices) lines.push(`  participant ${serviceId.get(service.name)} as ${mermaidText(service.name)}`);
  for (const story of stories) {
    const actor = roleId.get(story.role) ?? "A1";
    const operation = operationOf(story.action);
    const entity = entityOf(story);
    const path = `/${plural(snakeCase(entity)).replace(/_/g, "-")}`;
    const touched = servicesFor(story.text, usedServices);
    lines.push(`  Note over ${story.kind === "person" ? `${actor},API` : "API"}: ${mermaidText(`${story.id} ${story.title}`)}`);
    // "get paid weekly" is done for the actor: a scheduled run starts it and the actor is told the outcome.
    const delivery = scheduledDelivery(story);
    if (delivery) {
      lines.push(`  API->>API: ${mermaidText(`scheduled run - ${story.action}`)}`);
      for (const service of touched) {
        const id = serviceId.get(service.name);
        lines.push(`  API->>${id}: ${mermaidText(`request to ${delivery.deed}`)}`);
        lines.push(`  ${id}-->>API: ${mermaidText(`result from ${serviceReference(service.name)}`)}`);
      }
      const delivered = delivery.passive ? `${entity} notification` : sentenceCase(storyObject(story));
      lines.push(`  API->>DB: insert ${entity}`, `  DB-->>API: ${entity} saved`, `  API-->>${actor}: ${mermaidText(delivered)}`);
      continue;
    }
    if (story.kind === "person") {
      lines.push(`  ${actor}->>APP: ${mermaidText(story.action)}`);
      lines.push(`  APP->>API: ${HTTP_BY_OPERATION[operation]} ${path}`);
    } else {
      lines.push(`  API->>API: ${mermaidText(story.action)}`);
    }
    for (const service of touched) {
      const id = serviceId.get(service.name);
      lines.push(`  API->>${id}: ${mermaidText(`request to ${story.action}`)}`);
      lines.push(`  ${id}-->>API: ${mermaidText(`result from ${serviceReference(service.name)}`)}`);
    }
    lines.push(`  API->>DB: ${SQL_BY_OPERATION[operation]} ${entity}`);
    lines.push(`  DB-->>API: ${operation === "read" ? `${entity} rows` : `${entity} ${operation === "delete" ? "deleted" : "saved"}`}`);
    if (story.kind === "person") {
      lines.push(`  API-->>APP: ${operation === "create" ? "201 Created" : "200 OK"}`);
      lines.push(`  APP-->>${actor}: ${mermaidText(operation === "read" ? `${plural(entity)} shown` : "confirmation shown")}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function draftDiagramacion(request: AgentRequest): EnvelopeOf<"diagramacion"> {
  const requirements = contextArtifact(request, "requirements", "diagramacion");
  contextArtifact(request, "inception", "diagramacion");
  const agile = contextArtifact(request, "agile", "diagramacion");
  const stories = storyFacts(agile);
  const services = serviceFacts(requirements);
  const model = buildModel(stories, services);
  const entityOf = (story: StoryFact) => entityOfStory(story, model.entities)?.name ?? pascalCase(storyEntity(story));
  const artifact: DiagramacionArtifact = {
    entity_relationship_model: model,
    mermaid_sequence_diagram: sequenceDiagram(stories, services, entityOf),
  };
  const changes: Changes = {
    added: [
      ...model.entities.map((entity) => `entity_relationship_model: entity ${entity.name}`),
      ...model.relationships.map((relationship) => `entity_relationship_model: ${relationship.from} ${relationship.label} ${relationship.to} (${relationship.cardinality})`),
      `mermaid_sequence_diagram: ${count(stories.length, "story block")} (${joinList(stories.map((story) => story.id))})`,
    ],
    removed: [],
    modified: [],
  };
  const justification =
    `Entities come from the ${count(new Set(stories.filter((story) => story.kind === "person").map((story) => story.role)).size, "role")} and the things the ${count(stories.length, "user story", "user stories")} act on; ` +
    `each relationship is what a role does to a thing (verb and cardinality). The sequence diagram has one block per story, ` +
    `from the actor through the web client and API to the database${services.length > 0 ? ` and to ${joinList(services.map((service) => serviceReference(service.name)))} where a story depends on it` : ""}.`;
  return envelope(artifact, changes, justification);
}

const ER_HINT = /\b(entit(?:y|ies)|tables?|data model|attributes?|fields?|columns?|relationships?|er model|erd)\b/i;
const ATTRIBUTE = /\b(?:attribute|field|column|property)s?\s+["']?([A-Za-z_][\w ]*?)["']?\s+(?:to|on|in|for)\s+(?:the\s+)?["']?([A-Za-z]\w*)/i;

/** Replaces wording only in labels (message and note text, display names), never in participant ids, so the source stays valid. */
function relabelMermaid(source: string, subject: string, replacement: string): string {
  return source
    .split("\n")
    .map((line) => {
      const label = /^(\s*(?:participant|actor)\s+\w+\s+as\s+|[^:]*:\s*)(.*)$/.exec(line);
      if (!label || /^\s*sequenceDiagram/.test(line)) return line;
      const next = replaceWording(label[2] ?? "", subject, replacement);
      return next === undefined ? line : `${label[1]}${next}`;
    })
    .join("\n");
}

function participantsOf(source: string): string[] {
  return [...source.matchAll(/^\s*(?:participant|actor)\s+([A-Za-z0-9_]+)/gm)].map((match) => match[1] ?? "").filter(Boolean);
}

/** A new entity's name from the reviewer's words: "Notification entity related to Customer" -> "Notification". */
function entityNameFrom(subject: string): string {
  const beforeKind = /^(.+?)\s+(?:entity|entities|table|tables|model)\b/i.exec(subject)?.[1];
  const head = beforeKind ?? subject.split(/\s+(?:related|linked|connected|with|for|to|that|which|of|in|on|belonging)\b/i)[0] ?? subject;
  const words = head
    .replace(/[^A-Za-z\s]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 1 && significantWords(word).length > 0);
  return pascalCase(titleCase(words.slice(-2).map((word) => singular(word)).join(" "))) || "ReviewItem";
}

/** "Show the refund flow" -> "refund flow": the words that name the step, without the drawing verb. */
function stepFrom(subject: string): string {
  return subject.replace(/^(?:show|draw|depict|illustrate|model|diagram|display)\s+(?:the\s+|a\s+|an\s+)?/i, "");
}

/** The step a comment on a message or note line asks for, drawn after it between the same participants. */
function stepAfter(line: string, directive: Directive): Edit<string> {
  const text = mermaidText(stepFrom(directive.subject));
  const message = /^(\s*)([A-Za-z0-9_]+)\s*-?->>\s*([A-Za-z0-9_]+)\s*:/.exec(line);
  if (message) return { value: `${message[1] ?? ""}${message[2]}->>${message[3]}: ${text}`, did: `the step "${text}"` };
  const note = /^(\s*)Note over ([^:]+):/.exec(line);
  if (note) return { value: `${note[1] ?? ""}Note over ${note[2]}: ${text}`, did: `the note "${text}"` };
  return { refused: "a step can follow a message or a note, not a declaration" };
}

/** An entity gains the attribute asked for ("add a serial number attribute"). */
const DIAGRAM_RULES: PartRules<DiagramacionArtifact> = {
  lineAfter: stepAfter,
  addToItem: (item, directive) => {
    if (!Array.isArray(item.attributes)) return { refused: "only an entity takes attributes" };
    const name = snakeCase(directive.subject.replace(/\b(?:attributes?|fields?|columns?|property)\b/gi, " "));
    if (name === "") return { refused: "the comment names no attribute" };
    return { value: { ...item, attributes: [...item.attributes, { name, type: "text" }] }, did: `added the attribute ${name}` };
  },
};

export function reviseDiagramacion(request: AgentRequest): EnvelopeOf<"diagramacion"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "diagramacion")), request, DIAGRAM_RULES);
  const { artifact, changes, outcomes } = revision;
  const model = artifact.entity_relationship_model;
  const structured = typeof model === "object" && !Array.isArray(model) && Array.isArray(model.entities) ? (model as { entities: Entity[]; relationships: (Relationship | unknown)[] }) : undefined;

  const appendSequenceStep = (directive: Directive) => {
    const declared = participantsOf(artifact.mermaid_sequence_diagram);
    const from = declared[0] ?? "User";
    const to = declared.includes("API") ? "API" : (declared[1] ?? "System");
    const step = mermaidText(stepFrom(directive.subject));
    const block = [`  Note over ${from},${to}: ${mermaidText(`Review - ${directive.subject}`)}`, `  ${from}->>${to}: ${step}`, `  ${to}-->>${from}: ${mermaidText(`${lowerFirst(step)} done`)}`];
    artifact.mermaid_sequence_diagram = `${artifact.mermaid_sequence_diagram.replace(/\s*(```\s*)?$/, "")}\n${block.join("\n")}\n`;
    changes.modified.push(`mermaid_sequence_diagram: added the step "${step}"`);
    outcomes.push(`Added the step "${step}" to the sequence diagram.`);
  };

  for (const directive of generalDirectives(request)) {
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, DIAGRAM_RULES, /^entity_relationship_model\.entities\[[^\]]+\]$/, "entity");
    } else if (directive.kind === "add") {
      if (!mentions(directive, ER_HINT)) {
        appendSequenceStep(directive);
        continue;
      }
      const attribute = ATTRIBUTE.exec(directive.sentence);
      const owner = attribute && structured?.entities.find((entity) => entity.name.toLowerCase() === (attribute[2] ?? "").toLowerCase());
      if (attribute?.[1] && owner) {
        const name = snakeCase(attribute[1]);
        owner.attributes = [...(owner.attributes ?? []), { name, type: "text" }];
        changes.modified.push(`entity_relationship_model: ${owner.name} gained attribute ${name}`);
        outcomes.push(`Added the attribute ${name} to ${owner.name}.`);
      } else if (structured) {
        const name = entityNameFrom(directive.subject);
        const related = structured.entities.find((entity) => new RegExp(`\\b${entity.name}\\b`, "i").test(directive.sentence) && entity.name !== name);
        structured.entities.push({
          name,
          attributes: [{ name: "id", type: "uuid", key: "PK" }, ...(related ? [{ name: `${snakeCase(related.name)}_id`, type: "uuid", key: "FK" }] : []), { name: "created_at", type: "timestamptz" }],
          source: "reviewer feedback",
        });
        changes.added.push(`entity_relationship_model: entity ${name}`);
        if (related) {
          structured.relationships.push({ from: related.name, to: name, cardinality: "1:N", label: "has" });
          changes.added.push(`entity_relationship_model: ${related.name} has ${name} (1:N)`);
        }
        outcomes.push(`Added the entity ${name}${related ? ` related to ${related.name}` : ""}.`);
      } else {
        const note = `${sentenceCase(directive.subject)}.`;
        artifact.entity_relationship_model = typeof model === "string" ? `${model}\n${note}` : Array.isArray(model) ? [...model, note] : { ...model, review_additions: [note] };
        changes.modified.push(`entity_relationship_model: added "${note}"`);
        outcomes.push(`Added "${note}" to the entity-relationship model.`);
      }
    } else if (directive.kind === "remove") {
      const removed: string[] = [];
      if (structured && (mentions(directive, ER_HINT) || structured.entities.some((entity) => itemMatches({ name: entity.name }, directive)))) {
        const gone = structured.entities.filter((entity) => itemMatches({ name: entity.name }, directive));
        structured.entities = structured.entities.filter((entity) => !gone.includes(entity));
        const names = new Set(gone.map((entity) => entity.name));
        structured.relationships = structured.relationships.filter((relationship) => {
          const record = relationship as Record<string, unknown>;
          return !names.has(String(record.from)) && !names.has(String(record.to));
        });
        (artifact.entity_relationship_model as Record<string, unknown>).entities = structured.entities;
        (artifact.entity_relationship_model as Record<string, unknown>).relationships = structured.relationships;
        removed.push(...gone.map((entity) => `entity_relationship_model: entity ${entity.name}`));
      }
      const lines = artifact.mermaid_sequence_diagram.split("\n");
      const kept = lines.filter((line) => !(/->>|-->>|^\s*Note over/.test(line) && overlap(directive.subject, line) >= 0.6));
      if (kept.length !== lines.length) {
        removed.push(`mermaid_sequence_diagram: ${lines.length - kept.length} lines about "${directive.subject}"`);
        artifact.mermaid_sequence_diagram = kept.join("\n");
      }
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join(", ")}.`);
      } else {
        outcomes.push(`Nothing in the diagrams matched "${directive.subject}", so nothing was removed.`);
      }
    } else {
      const replacement = directive.replacement ?? "";
      const modified: string[] = [];
      if (structured) {
        for (const entity of structured.entities) {
          if (entity.name.toLowerCase() !== directive.subject.toLowerCase() && !itemMatches({ name: entity.name }, directive)) continue;
          const renamed = pascalCase(replacement) || entity.name;
          for (const relationship of structured.relationships) {
            const record = relationship as Record<string, unknown>;
            if (record.from === entity.name) record.from = renamed;
            if (record.to === entity.name) record.to = renamed;
          }
          modified.push(`entity_relationship_model: ${entity.name} -> ${renamed}`);
          entity.name = renamed;
        }
      }
      const relabelled = relabelMermaid(artifact.mermaid_sequence_diagram, directive.subject, mermaidText(replacement));
      if (relabelled !== artifact.mermaid_sequence_diagram) {
        artifact.mermaid_sequence_diagram = relabelled;
        modified.push(`mermaid_sequence_diagram: "${directive.subject}" -> "${replacement}"`);
      }
      if (modified.length > 0) {
        changes.modified.push(...modified);
        outcomes.push(`Changed ${modified.join(", ")}.`);
      } else {
        appendSequenceStep({ ...directive, kind: "add", subject: replacement || directive.subject });
        outcomes.push(`Nothing matched "${directive.subject}", so a step for "${replacement}" was added instead.`);
      }
    }
  }
  return revisionEnvelope("diagrams", request, revision);
}
