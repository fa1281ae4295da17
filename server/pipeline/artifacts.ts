/**
 * What the six agents return inside their `{ artifact, changes_made, justification }` envelope, defined once as zod
 * schemas; every artifact type of the pipeline is inferred from here.
 *
 * Two audiences must both pass:
 * - real n8n agents, whose output varies: unknown keys are kept (loose objects), list items may be plain
 *   strings or objects, and `changes_made` / `justification` may be missing;
 * - the built-in agents, whose output is checked against the same schemas before it is stored, so every
 *   field the seed names is required with its kind (text, list, record).
 */
import { z } from "zod";
import { describeZodError } from "../lib/zodIssues";
import { isPlainObject } from "../lib/json";

export const ARTIFACT_TYPES = ["requirements", "inception", "agile", "diagramacion", "pseudocodigo", "qa"] as const;
export const ArtifactType = z.enum(ARTIFACT_TYPES);
export type ArtifactType = z.infer<typeof ArtifactType>;

export function isArtifactType(value: unknown): value is ArtifactType {
  return ArtifactType.safeParse(value).success;
}

/** A list entry as agents write it: a sentence, or an object with a name/title/description of its own choosing. */
export const ListItem = z.union([z.string(), z.number(), z.looseObject({})]);
export type ListItem = z.infer<typeof ListItem>;

const ItemList = z.array(ListItem);

/** Ids are strings; some agents number them, which is accepted and read as text. */
const Id = z.union([z.string().min(1, "id must not be empty"), z.number()]).transform(String);

// ---- requirements -----------------------------------------------------------------------------------

export const Capability = z.looseObject({
  id: Id.optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  actor: z.string().optional(),
});
export type Capability = z.infer<typeof Capability>;

export const RequirementsArtifact = z.looseObject({
  problem_statement_refined: z.string().min(1, "problem_statement_refined must not be empty"),
  identified_domains: ItemList,
  core_capabilities: z.array(z.union([z.string(), Capability, z.looseObject({})])).min(1, "core_capabilities must list at least one capability"),
  external_dependencies: ItemList,
  assumptions: ItemList,
});
export type RequirementsArtifact = z.infer<typeof RequirementsArtifact>;

// ---- inception --------------------------------------------------------------------------------------

/** Functional and non-functional requirements: the seed fixes `{id, title, description}`. */
export const RequirementItem = z.looseObject({
  id: Id,
  title: z.string().min(1, "a requirement needs a title"),
  description: z.string(),
});
export type RequirementItem = z.infer<typeof RequirementItem>;

export const Risk = z.looseObject({
  id: Id.optional(),
  risk: z.string().min(1),
  probability: z.string().optional(),
  impact: z.string().optional(),
  mitigation: z.string().optional(),
});
export type Risk = z.infer<typeof Risk>;

export const InceptionArtifact = z.looseObject({
  product_vision: z.string().min(1, "product_vision must not be empty"),
  scope_in: ItemList,
  scope_out: ItemList,
  stakeholders: ItemList,
  /** Prose, a list of components, or a structured description: agents differ. */
  high_level_architecture: z.union([z.string(), z.array(ListItem), z.looseObject({})]),
  risk_matrix: z.array(z.union([Risk, ListItem])),
  functional_requirements: z.array(RequirementItem),
  non_functional_requirements: z.array(RequirementItem),
});
export type InceptionArtifact = z.infer<typeof InceptionArtifact>;

// ---- agile ------------------------------------------------------------------------------------------

export const UserStory = z.looseObject({
  /** Required: pseudocode and test cases refer to stories by id. */
  id: Id,
  title: z.string().optional(),
  story: z.string().optional(),
  as_a: z.string().optional(),
  i_want: z.string().optional(),
  so_that: z.string().optional(),
  acceptance_criteria: ItemList.optional(),
  priority: z.string().optional(),
  story_points: z.number().optional(),
});
export type UserStory = z.infer<typeof UserStory>;

/** Agents call an epic's stories `user_stories` or `stories`; both are read as `user_stories`. */
export const Epic = z.preprocess(
  (value) => {
    if (isPlainObject(value) && !("user_stories" in value) && "stories" in value) {
      const { stories, ...rest } = value;
      return { ...rest, user_stories: stories };
    }
    return value;
  },
  z.looseObject({
    id: Id.optional(),
    title: z.string().min(1, "an epic needs a title"),
    description: z.string().optional(),
    user_stories: z.array(UserStory),
  }),
);
export type Epic = z.infer<typeof Epic>;

export const AgileArtifact = z.looseObject({
  epics: z.array(Epic).min(1, "epics must list at least one epic"),
});
export type AgileArtifact = z.infer<typeof AgileArtifact>;

// ---- diagramacion -----------------------------------------------------------------------------------

export const EntityAttribute = z.union([
  z.string(),
  z.looseObject({ name: z.string().min(1), type: z.string().optional(), key: z.string().optional() }),
]);
export type EntityAttribute = z.infer<typeof EntityAttribute>;

export const Entity = z.looseObject({
  name: z.string().min(1, "an entity needs a name"),
  attributes: z.array(EntityAttribute).optional(),
});
export type Entity = z.infer<typeof Entity>;

export const Relationship = z.looseObject({
  from: z.string().min(1),
  to: z.string().min(1),
  cardinality: z.string().optional(),
  label: z.string().optional(),
});
export type Relationship = z.infer<typeof Relationship>;

/** Structured (`entities` + `relationships`) when it can be; agents that answer in prose or other shapes are kept as they are. */
export const EntityRelationshipModel = z.union([
  z.looseObject({ entities: z.array(Entity), relationships: z.array(z.union([Relationship, ListItem])) }),
  z.string().min(1),
  z.array(ListItem),
  z.looseObject({}),
]);
export type EntityRelationshipModel = z.infer<typeof EntityRelationshipModel>;

export const DiagramacionArtifact = z.looseObject({
  entity_relationship_model: EntityRelationshipModel,
  mermaid_sequence_diagram: z
    .string()
    .refine((source) => /^\s*(```\s*mermaid\s*)?(%%[^\n]*\n\s*)*sequenceDiagram\b/.test(source), {
      message: "mermaid_sequence_diagram must be Mermaid source starting with `sequenceDiagram`",
    }),
});
export type DiagramacionArtifact = z.infer<typeof DiagramacionArtifact>;

// ---- pseudocodigo -----------------------------------------------------------------------------------

/** Seed: story id to pseudocode text. Some agents answer with a list of `{ story_id, pseudocode }` instead; both are accepted. */
export const UserStoryPseudocode = z.union([
  z.record(z.string(), z.union([z.string(), z.array(z.string()), z.looseObject({})])),
  z.array(z.looseObject({})),
]);
export type UserStoryPseudocode = z.infer<typeof UserStoryPseudocode>;

export const PseudocodigoArtifact = z.looseObject({
  user_story_pseudocode: UserStoryPseudocode,
});
export type PseudocodigoArtifact = z.infer<typeof PseudocodigoArtifact>;

// ---- qa ---------------------------------------------------------------------------------------------

export const TestCase = z.looseObject({
  id: Id,
  title: z.string().min(1, "a test case needs a title"),
  user_story_id: z.string().optional(),
  type: z.string().optional(),
  priority: z.string().optional(),
  preconditions: ItemList.optional(),
  steps: ItemList.optional(),
  expected_result: z.string().optional(),
});
export type TestCase = z.infer<typeof TestCase>;

export const TestSuite = z.looseObject({
  id: Id.optional(),
  name: z.string().min(1, "a test suite needs a name"),
  description: z.string().optional(),
  user_story_ids: z.array(z.string()).optional(),
  test_cases: z.array(z.union([TestCase, ListItem])),
});
export type TestSuite = z.infer<typeof TestSuite>;

export const QaArtifact = z.looseObject({
  test_suites: z.array(TestSuite).min(1, "test_suites must list at least one suite"),
});
export type QaArtifact = z.infer<typeof QaArtifact>;

// ---- the envelope -----------------------------------------------------------------------------------

const ChangeList = z.array(z.unknown()).nullish().transform((items) => items ?? []);

export const ChangesMade = z
  .looseObject({ added: ChangeList, removed: ChangeList, modified: ChangeList })
  .nullish()
  .transform((changes) => changes ?? { added: [], removed: [], modified: [] });
export type ChangesMade = z.infer<typeof ChangesMade>;

export const artifactSchemas = {
  requirements: RequirementsArtifact,
  inception: InceptionArtifact,
  agile: AgileArtifact,
  diagramacion: DiagramacionArtifact,
  pseudocodigo: PseudocodigoArtifact,
  qa: QaArtifact,
} as const;

export type ArtifactOf<T extends ArtifactType> = z.infer<(typeof artifactSchemas)[T]>;

/** Every agent answers `{ artifact, changes_made, justification }`. */
export interface Envelope<A = unknown> {
  artifact: A;
  changes_made: ChangesMade;
  justification: string;
  [extra: string]: unknown;
}
export type EnvelopeOf<T extends ArtifactType> = Envelope<ArtifactOf<T>>;
export type AnyEnvelope = { [T in ArtifactType]: EnvelopeOf<T> }[ArtifactType];

function envelopeSchemaFor<A extends z.ZodType>(artifact: A) {
  return z.looseObject({
    artifact,
    changes_made: ChangesMade,
    justification: z
      .union([z.string(), z.array(z.string())])
      .nullish()
      .transform((text) => (Array.isArray(text) ? text.join("\n") : (text ?? ""))),
  });
}

export const envelopeSchemas = {
  requirements: envelopeSchemaFor(RequirementsArtifact),
  inception: envelopeSchemaFor(InceptionArtifact),
  agile: envelopeSchemaFor(AgileArtifact),
  diagramacion: envelopeSchemaFor(DiagramacionArtifact),
  pseudocodigo: envelopeSchemaFor(PseudocodigoArtifact),
  qa: envelopeSchemaFor(QaArtifact),
} as const;

export type ParsedEnvelope<T extends ArtifactType> = { success: true; data: EnvelopeOf<T> } | { success: false; error: string };

/** One line per problem, each naming the field, so an agent's author can see what to fix. */
export const describeIssues = (error: z.ZodError, prefix = ""): string => describeZodError(error, { root: "(root)", prefix });

/** Checks an agent's `content` against its type's envelope; a failure names every field that is wrong. */
export function parseEnvelope<T extends ArtifactType>(type: T, content: unknown): ParsedEnvelope<T> {
  const parsed = (envelopeSchemas[type] as z.ZodType).safeParse(content);
  if (parsed.success) return { success: true, data: parsed.data as EnvelopeOf<T> };
  return { success: false, error: `not a valid ${type} envelope: ${describeIssues(parsed.error)}` };
}

export class ArtifactValidationError extends Error {
  override name = "ArtifactValidationError";
}

/** parseEnvelope that throws ArtifactValidationError. */
export function assertEnvelope<T extends ArtifactType>(type: T, content: unknown): EnvelopeOf<T> {
  const parsed = parseEnvelope(type, content);
  if (!parsed.success) throw new ArtifactValidationError(parsed.error);
  return parsed.data;
}

