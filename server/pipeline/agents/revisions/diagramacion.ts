/**
 * How the diagram agent revises its diagrams after a reviewer's feedback: comments add a step after a line of
 * the sequence diagram or an attribute to an entity; general feedback adds entities, attributes or sequence
 * steps, removes entities and the lines about something, and renames entities (with their relationships) and the
 * words of the diagram's labels, never its participant ids. The first draft is in ../drafts/diagramacion.ts.
 */
import type { DiagramacionArtifact, Entity, EnvelopeOf, Relationship } from "../../artifacts";
import { type Edit, type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { pascalCase, snakeCase } from "../drafts/design";
import { mermaidText } from "../drafts/diagramacion";
import { type Directive, itemMatches, mentions, replaceWording } from "../feedback";
import { type AgentRequest, previousArtifact } from "../request";
import { overlap, significantWords } from "../text/keywords";
import { lowerFirst, sentenceCase, titleCase } from "../text/normalize";
import { singular } from "../text/nouns";
import { copyOf, recordNote } from "./shared";
import { isPlainObject } from "../../../lib/json";

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
          const record = isPlainObject(relationship) ? relationship : {};
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
            const record = isPlainObject(relationship) ? relationship : {};
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
