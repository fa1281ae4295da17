/**
 * The diagram agent: an entity-relationship model (one entity per role and per thing the stories work on,
 * related by what the role does to it) and a Mermaid sequence diagram with one block per user story, from the
 * actor through the web client and API to the database and the external services the story touches. Its revision
 * after a reviewer's feedback is in ../revisions/diagramacion.ts.
 */
import type { DiagramacionArtifact, EnvelopeOf } from "../../artifacts";
import { type AgentRequest, contextArtifact } from "../request";
import { isPersonWord } from "../text/actors";
import { count, joinList } from "../text/lists";
import { sentenceCase } from "../text/normalize";
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
