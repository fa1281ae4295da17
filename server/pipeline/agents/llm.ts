/**
 * Model-written artifacts through any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI,
 * Ollama, vLLM, LM Studio, ...): one request per agent call, a JSON object back, checked against the same
 * schemas as every other agent's output. Configured by LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS.
 */
import { type LlmConfig, LlmError, chatCompletion, excerpt } from "../../llm/chat";
import { type ArtifactType, type EnvelopeOf, artifactSchemas, parseEnvelope } from "../artifacts";
import { generalFeedback } from "../../review/feedback";
import { CommentOutcome, commentsOf } from "./comments";
import { type AgentRequest, briefOf, domainOf } from "./request";

/** The builtin agents' tests catch it from here; the class lives with the client in server/llm/chat. */
export { LlmError };

// ---- prompts ----------------------------------------------------------------------------------------

const ENVELOPE_RULES = [
  "Answer with one JSON object and nothing else, shaped exactly:",
  '{ "artifact": { ... }, "changes_made": { "added": [string], "removed": [string], "modified": [string] }, "justification": string }',
  "changes_made lists, one short line each, what this version adds, removes and modifies compared with the previous version (on a first draft, everything is added).",
  "justification explains in a few sentences how the artifact follows from the input.",
].join("\n");

const ARTIFACT_GUIDES: Record<ArtifactType, { role: string; input: string; fields: string }> = {
  requirements: {
    role: "You are a requirements analyst. You turn a product brief into structured requirements.",
    input: "The user message holds the product domain and the brief.",
    fields: [
      '"problem_statement_refined": string, the problem restated precisely;',
      '"identified_domains": [string], the business domains involved;',
      '"core_capabilities": [{ "id": "CAP-001", "name": string, "description": string, "actor": string }], what each role must be able to do;',
      '"external_dependencies": [{ "name": string, "purpose": string }], outside systems the product needs;',
      '"assumptions": [string], what the brief leaves open and you assume.',
    ].join("\n"),
  },
  inception: {
    role: "You are a product inception lead. You frame the product from its requirements.",
    input: "The user message holds the domain, the brief and context.requirements (the requirements agent's envelope; its artifact is what counts).",
    fields: [
      '"product_vision": string;',
      '"scope_in": [string]; "scope_out": [string];',
      '"stakeholders": [{ "name": string, "interest": string }];',
      '"high_level_architecture": { "style": string, "components": [{ "name": string, "responsibility": string }] };',
      '"risk_matrix": [{ "id": "R-01", "risk": string, "probability": "Low"|"Medium"|"High", "impact": "Low"|"Medium"|"High", "mitigation": string }];',
      '"functional_requirements": [{ "id": "FR-001", "title": string, "description": string }];',
      '"non_functional_requirements": [{ "id": "NFR-001", "title": string, "description": string }].',
    ].join("\n"),
  },
  agile: {
    role: "You are an agile product owner. You write the backlog.",
    input: "The user message holds context.requirements and context.inception (earlier agents' envelopes).",
    fields: [
      '"epics": [{ "id": "EP-01", "title": string, "description": string, "user_stories": [',
      '  { "id": "US-001", "title": string, "as_a": string, "i_want": string, "so_that": string, "story": "As a ..., I want ..., so that ...",',
      '    "acceptance_criteria": ["Given ..., when ..., then ..."], "priority": "Must"|"Should"|"Could", "story_points": number } ] }].',
      "Cover every functional requirement with at least one story; number stories US-001, US-002, ... across all epics.",
    ].join("\n"),
  },
  diagramacion: {
    role: "You are a software architect. You draw the data model and the main interactions.",
    input: "The user message holds context.requirements, context.inception and context.agile (earlier agents' envelopes).",
    fields: [
      '"entity_relationship_model": { "entities": [{ "name": string, "attributes": [{ "name": string, "type": string, "key": "PK"|"FK" (optional) }] }],',
      '  "relationships": [{ "from": string, "to": string, "cardinality": "1:1"|"1:N"|"N:M", "label": string }] };',
      '"mermaid_sequence_diagram": string, valid Mermaid source that starts with "sequenceDiagram", covering the user stories; no Markdown fences.',
    ].join("\n"),
  },
  pseudocodigo: {
    role: "You are a senior developer. You write language-neutral pseudocode.",
    input: "The user message holds context.requirements, context.agile and context.diagramacion (earlier agents' envelopes).",
    fields: '"user_story_pseudocode": { "<user story id, e.g. US-001>": string (the pseudocode, lines separated by \\n) }, one entry per user story.',
  },
  qa: {
    role: "You are a QA engineer. You write the test plan.",
    input: "The user message holds context.requirements, context.inception, context.agile, context.diagramacion and context.pseudocodigo (earlier agents' envelopes).",
    fields: [
      '"test_suites": [{ "id": "TS-01", "name": string, "user_story_ids": [string], "test_cases": [',
      '  { "id": "TC-001", "title": string, "user_story_id": string, "type": "functional"|"negative"|"integration"|"security"|"non-functional",',
      '    "priority": "High"|"Medium"|"Low", "preconditions": [string], "steps": [string], "expected_result": string } ] }].',
      "Every user story needs at least one test case; number cases TC-001, TC-002, ... across all suites.",
    ].join("\n"),
  },
};

const COMMENT_RULES = [
  "The reviewer also commented on parts of the previous artifact: comments lists each with its anchor (the part's address: a field such as",
  "problem_statement_refined, a list item by its id such as core_capabilities[CAP-001] or epics[EP-01].user_stories[US-003], a line of a text",
  "such as mermaid_sequence_diagram:L4), its label, the text it quotes and the reviewer's request.",
  "Apply each comment to exactly the part its anchor names, as it asks, and nothing else; every part that neither a comment nor the feedback",
  "touches stays exactly as it was (same text, same order). feedback holds only the general feedback; do not apply a comment twice.",
  'Add "comment_outcomes": [{ "anchor": string, "done": boolean, "message": string }] to the envelope, one per comment in order:',
  "done true with what you changed, or done false with why not (for instance when the anchor is not in the artifact).",
].join("\n");

export function systemPrompt(slug: ArtifactType, isFeedback: boolean, hasComments = false): string {
  const guide = ARTIFACT_GUIDES[slug];
  const task = isFeedback
    ? "This is a revision: context holds your previous envelope (context.artifact is your previous artifact) and feedback holds the reviewer's request. Apply the feedback to the previous artifact, keep everything the feedback does not touch, list exactly what you added, removed and modified in changes_made, and quote the feedback in the justification."
    : "This is a first draft: derive every item from the input; do not invent facts the input does not support, and state such gaps as assumptions.";
  const comments = isFeedback && hasComments ? [COMMENT_RULES] : [];
  return [guide.role, guide.input, task, ...comments, ENVELOPE_RULES, `The "artifact" object has these fields:\n${guide.fields}`].join("\n\n");
}

export function userMessage(request: AgentRequest): string {
  const comments = commentsOf(request);
  const input = {
    ...(domainOf(request) ? { domain: domainOf(request) } : {}),
    ...(briefOf(request) ? { brief: briefOf(request) } : {}),
    context: request.context,
    is_feedback: request.is_feedback,
    // With comments, the feedback string's listing of them is left out: they come as data below.
    feedback: comments.length > 0 ? generalFeedback(request.feedback) : request.feedback,
    ...(comments.length > 0 ? { comments: comments.map(({ anchor, label, quote, text }) => ({ anchor, label, quote, request: text })) } : {}),
  };
  return JSON.stringify(input, null, 2);
}

// ---- the call ---------------------------------------------------------------------------------------

/** The JSON object in a model's answer; some models wrap it in a Markdown fence despite the response format. */
function parseAnswer(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return JSON.parse(fenced?.[1] ?? content);
}

/** Asks the model for the agent's envelope and checks it; throws LlmError with what went wrong and where. */
export async function composeWithLlm<T extends ArtifactType>(config: LlmConfig, slug: T, request: AgentRequest): Promise<EnvelopeOf<T>> {
  const { content } = await chatCompletion(
    config,
    {
      messages: [
        { role: "system", content: systemPrompt(slug, request.is_feedback, commentsOf(request).length > 0) },
        { role: "user", content: userMessage(request) },
      ],
      responseFormat: { type: "json_object" },
      temperature: 0.2,
    },
    { label: slug },
  );
  let answer: unknown;
  try {
    answer = parseAnswer(content);
  } catch {
    throw new LlmError(`${slug}: the model's answer is not a JSON object: ${excerpt(content)}`);
  }
  // A model that returns the artifact's fields without the envelope is still answering the question asked.
  if (answer && typeof answer === "object" && !Array.isArray(answer) && !("artifact" in answer) && artifactSchemas[slug].safeParse(answer).success) {
    answer = { artifact: answer, changes_made: { added: [], removed: [], modified: [] }, justification: "" };
  }
  const envelope = parseEnvelope(slug, answer);
  if (!envelope.success) throw new LlmError(`${slug}: the model's answer is ${envelope.error}`);
  const outcomes = envelope.data.comment_outcomes;
  if (outcomes !== undefined && !CommentOutcome.array().safeParse(outcomes).success) {
    throw new LlmError(`${slug}: the model's comment_outcomes is not a list of { anchor, done, message }: ${excerpt(JSON.stringify(outcomes))}`);
  }
  return envelope.data;
}
