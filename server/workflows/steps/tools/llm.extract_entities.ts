/**
 * `llm.extract_entities`: the named entities of a text (people, organizations, ...; only the `schema` type when one
 * is named), with a short summary. Through the configured chat endpoint, asked for JSON and the answer validated; with
 * none configured, the offline extractor (entities/offline.ts), which says so (`responder: "offline"`).
 *
 * `text` takes any JSON value, so a step can pass another step's whole output: a string is the text; an object with
 * a `text` field is read as that field (search.google's output is `{ results, text }`); anything else as its JSON.
 */
import { z } from "zod";
import { chatCompletion } from "../../../llm/chat";
import { OFFLINE_TYPES, type OfflineType, extractOffline, offlineTypeOf } from "./entities/offline";
import { Responder } from "./llm.generate";
import { ToolError, defineTool } from "./tool";

export const Entity = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  properties: z.record(z.string(), z.json()),
});
export type Entity = z.infer<typeof Entity>;

/** What the model must answer (properties and summary may be left out). */
const ModelAnswer = z.object({
  entities: z.array(z.object({ name: z.string().trim().min(1), type: z.string().optional(), properties: z.record(z.string(), z.json()).nullish() })),
  summary: z.string().optional(),
});

/** The text a `text` param stands for (see the top of this file). */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && "text" in value) return textOf(value.text);
  return JSON.stringify(value, null, 2);
}

/** `Found 2 Person entities: Tim Cook, Jane Doe` / `Found no entities` */
function found(entities: readonly Entity[], type?: string): string {
  const what = `${type ? `${type} ` : ""}entit${entities.length === 1 ? "y" : "ies"}`;
  return entities.length ? `Found ${entities.length} ${what}: ${entities.map((entity) => entity.name).join(", ")}` : `Found no ${what}`;
}

function instructions(schema: string | undefined): string {
  const which = schema
    ? `Extract only entities of type "${schema}", and give each the type "${schema}" exactly.`
    : 'Extract the named people, organizations, places and other named things; give each a type such as "Person", "Organization" or "Place".';
  return [
    "You extract named entities from a text.",
    which,
    "Each entity once, named as in the text. In `properties`, put facts the text states about it (a title, an employer, a location), as strings; {} when there are none.",
    'Answer with one JSON object and nothing else: {"entities": [{"name": "...", "type": "...", "properties": {}}], "summary": "one or two sentences on what the text says about these entities"}.',
  ].join("\n");
}

/** The model's answer as JSON, forgiving a code fence around it. */
function parseAnswer(content: string): unknown {
  const unfenced = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, "$1");
  return JSON.parse(unfenced) as unknown;
}

function uniqueByName(entities: Entity[]): Entity[] {
  const seen = new Set<string>();
  return entities.filter((entity) => {
    const key = `${entity.type.toLowerCase()}:${entity.name.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export default defineTool({
  name: "llm.extract_entities",
  description:
    "Finds the named entities in `text` (any value: an object is read as its `text` field) and answers { entities: [{ name, type, properties }], summary, count, responder }. " +
    "`schema` names the one type wanted (Person, Organization, Place, ...). Without an LLM configured, an offline extractor finds people, organizations and places.",
  params: z.object({
    text: z.json(),
    schema: z.string().trim().min(1, "schema must name an entity type, such as Person").optional(),
  }),
  result: z.object({ entities: z.array(Entity), summary: z.string(), count: z.number().int(), responder: Responder }),
  defaultTimeoutMs: 180_000,
  async run({ text: value, schema }, context) {
    const text = textOf(value);
    const label = `${context.label} (llm.extract_entities)`;
    if (!context.llm) {
      let types: OfflineType[] | undefined;
      if (schema) {
        const type = offlineTypeOf(schema);
        if (!type) throw new ToolError(`${label}: with no LLM configured (LLM_BASE_URL), entities are found offline, which knows only ${Object.keys(OFFLINE_TYPES).join(", ")}: not "${schema}"`);
        types = [type];
      }
      const entities = text.trim() ? extractOffline(text, types) : [];
      const summary = `${found(entities, types?.[0])} (offline extractor, no LLM configured).`;
      return { entities, summary, count: entities.length, responder: "offline" as const };
    }
    if (!text.trim()) return { entities: [], summary: "The text is empty.", count: 0, responder: "llm" as const };
    const answer = await chatCompletion(
      context.llm,
      { messages: [{ role: "system", content: instructions(schema) }, { role: "user", content: text }], responseFormat: { type: "json_object" }, temperature: 0 },
      { label, signal: context.signal },
    );
    let parsed: z.infer<typeof ModelAnswer>;
    try {
      parsed = ModelAnswer.parse(parseAnswer(answer.content));
    } catch (error) {
      // A model's next answer may well be well-formed: worth the step's retries.
      const problem = error instanceof z.ZodError ? z.prettifyError(error).replace(/\s+/g, " ") : "it is not JSON";
      throw new ToolError(`${label}: the model's answer is not the entities asked for (${problem}): ${answer.content.slice(0, 300)}`, { transient: true });
    }
    const entities = uniqueByName(parsed.entities.map((entity) => ({ name: entity.name, type: schema ?? (entity.type?.trim() || "Entity"), properties: entity.properties ?? {} })));
    const summary = parsed.summary?.trim() || `${found(entities, schema)}.`;
    return { entities, summary, count: entities.length, responder: "llm" as const };
  },
});
