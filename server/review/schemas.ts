/**
 * Inline review: what a person reviewing an output (a pipeline artifact, a YAML approval's output, a Stitch review
 * gate's input) reads and writes besides the decision itself. Defined once here; the store parses rows with these
 * schemas and the routes answer them.
 *
 * An **anchor** addresses one part of an output (anchors.ts has the grammar): `problem_statement_refined`,
 * `core_capabilities[CAP-001]`, `core_capabilities[CAP-001].description`, `epics[EP-1].user_stories[US-003]`,
 * `assumptions[#2]` (an item without an id, by position), `user_story_pseudocode[US-003]:L4` (a line of a text part),
 * `mermaid_sequence_diagram:L2`, and for an output that is text, `P3` (a paragraph) or `L7` (a line).
 */
import { z } from "zod";
import { SchemaField } from "../lib/schemaFields";
import { ReviewedPartComment } from "../engine/schemas";

/** The address of a part of an output (anchors.ts). An empty anchor is the whole output. */
export const Anchor = z.string().max(500);
export type Anchor = z.infer<typeof Anchor>;

/** A part a comment can point at: its anchor, how the app names it, and its text now (what a comment quotes). */
export const AnchorInfo = z.object({
  anchor: Anchor,
  label: z.string(),
  quote: z.string(),
});
export type AnchorInfo = z.infer<typeof AnchorInfo>;

/** Who wrote a version: the agent (or the step) that produced it, or the person who edited it. */
export const VersionAuthor = z.object({
  kind: z.enum(["agent", "person", "system"]),
  name: z.string(),
  account_id: z.string().uuid().nullable(),
});
export type VersionAuthor = z.infer<typeof VersionAuthor>;

/** One version of a reviewed output. */
export const OutputVersion = z.object({
  version: z.number().int().positive(),
  /** The version it revises (an agent's revision or a person's edit); null for the first. */
  revises: z.number().int().positive().nullable(),
  author: VersionAuthor,
  created_at: z.string(),
});
export type OutputVersion = z.infer<typeof OutputVersion>;

/**
 * `GET /api/decisions/{id}/output`: the output under review and every part a comment can point at. For a pipeline
 * artifact `output` is the artifact itself (the envelope's `artifact`) and `claim` the agent's `changes_made` and
 * `justification`; for a text output, the text.
 */
export const ReviewOutput = z.object({
  decision_id: z.string().uuid(),
  /** "artifact" (a pipeline artifact, edited field by field), "json" or "text" (edited as text). */
  format: z.enum(["artifact", "json", "text"]),
  artifact_type: z.string().nullable(),
  output: z.unknown(),
  version: z.number().int().positive(),
  author: VersionAuthor,
  versions: z.array(OutputVersion),
  claim: z.object({ changes_made: z.unknown(), justification: z.string() }).nullable(),
  anchors: z.array(AnchorInfo),
  /** Whether the caller may edit it now (the decision is open and theirs to take). */
  editable: z.boolean(),
  /** The fields the output's schema names (a pipeline artifact's type), offered by the editor even where a value lacks them; none without a schema. */
  fields: z.array(SchemaField),
});
export type ReviewOutput = z.infer<typeof ReviewOutput>;

/** `POST /api/decisions/{id}/comments`. */
export const CommentBody = z
  .object({
    anchor: Anchor,
    /** The text the comment is about (a selection inside the part); the part's own text when omitted. */
    quote: z.string().max(5_000).optional(),
    text: z.string().trim().min(1, "text: write the comment").max(20_000),
    /** The comment this one answers (a thread); its anchor is the thread's. */
    reply_to: z.string().uuid().optional(),
  })
  .strict();
export type CommentBody = z.infer<typeof CommentBody>;

/** A comment on a part of an output, as everyone who can read the run sees it. */
export const ReviewComment = z.object({
  id: z.string().uuid(),
  decision_id: z.string().uuid(),
  /** The version it was written on. */
  version: z.number().int().positive(),
  anchor: Anchor,
  label: z.string(),
  quote: z.string(),
  text: z.string(),
  reply_to: z.string().uuid().nullable(),
  author: z.object({ id: z.string().uuid().nullable(), name: z.string() }),
  created_at: z.string(),
  resolved: z.boolean(),
  resolved_by: z.string().nullable(),
  /** Its part is gone from the version under review (re-found by its text when it moved). */
  outdated: z.boolean(),
  /** Its part differs between the version it was written on and the version under review. */
  changed: z.boolean(),
  /** Where its part is in the version under review (differs from `anchor` when it moved); null when outdated. */
  current_anchor: Anchor.nullable(),
  /** Sent to the agent with a request for changes (at which version), null while not sent. */
  sent_with_version: z.number().int().positive().nullable(),
});
export type ReviewComment = z.infer<typeof ReviewComment>;

export const CommentList = z.object({ items: z.array(ReviewComment) });

/** `PUT /api/decisions/{id}/draft`: the caller's unsent feedback on this decision, kept as typed. */
export const DraftBody = z.object({ text: z.string().max(20_000) }).strict();
export const Draft = z.object({ decision_id: z.string().uuid(), text: z.string(), updated_at: z.string().nullable() });
export type Draft = z.infer<typeof Draft>;

/** `POST /api/decisions/{id}/edit`: the person's edited version of the output (validated like an agent's). */
export const EditBody = z.object({ output: z.unknown(), note: z.string().max(2_000).optional() }).strict();
export type EditBody = z.infer<typeof EditBody>;

/** What keeps an edit from being saved, by the door's rules: `path` is the field (`core_capabilities.0.description`), "" for the whole output. */
export const EditProblem = z.object({ path: z.string(), message: z.string() });
export type EditProblem = z.infer<typeof EditProblem>;

/** The check of an edit before it is saved (as she types): every problem, none when it can be saved. */
export const EditCheck = z.object({ problems: z.array(EditProblem) });
export type EditCheck = z.infer<typeof EditCheck>;

/** A problem per line, each naming its field: what a refused edit's 400 says. */
export const describeEditProblems = (problems: readonly EditProblem[]): string => problems.map((p) => `${p.path || "(root)"}: ${p.message}`).join("; ");

/** `GET /api/decisions/{id}/diff?against=N`. */
export const DiffQuery = z.object({ against: z.coerce.number().int().positive().optional(), version: z.coerce.number().int().positive().optional() });

/** A word-level piece of a changed text: kept, inserted or deleted. */
export const TextPiece = z.object({ op: z.enum(["equal", "insert", "delete"]), text: z.string() });
export type TextPiece = z.infer<typeof TextPiece>;

/** One change between two versions, at a part of the output. */
export const DiffChange = z.object({
  /** The part's anchor (in the newer version; in the older for `removed`). */
  anchor: Anchor,
  label: z.string(),
  kind: z.enum(["added", "removed", "changed", "moved"]),
  /** For `changed` text: the word-level pieces; for others, empty. */
  pieces: z.array(TextPiece),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type DiffChange = z.infer<typeof DiffChange>;

/** Where the agent's own account of its changes (`changes_made`) and the computed diff disagree. */
export const ClaimMismatch = z.object({
  kind: z.enum(["claimed_not_found", "unclaimed_change"]),
  /** The claim's text, or the change's anchor. */
  subject: z.string(),
  message: z.string(),
});
export type ClaimMismatch = z.infer<typeof ClaimMismatch>;

export const ReviewDiff = z.object({
  decision_id: z.string().uuid(),
  from_version: z.number().int().positive(),
  to_version: z.number().int().positive(),
  changes: z.array(DiffChange),
  /** How many parts are the same in both (what "show unchanged" reveals). */
  unchanged: z.number().int(),
  claim: z.object({ changes_made: z.unknown(), justification: z.string() }).nullable(),
  mismatches: z.array(ClaimMismatch),
});
export type ReviewDiff = z.infer<typeof ReviewDiff>;

/** A comment as sent to an agent with a request for changes (the `comments` field of its call): the engine carries it. */
export const SentComment = ReviewedPartComment;
export type SentComment = ReviewedPartComment;
