/**
 * The built-in deterministic agents: `draft(slug, request)` answers a pipeline call (`{ run_id, context,
 * is_feedback, feedback }`) with the content envelope an n8n agent would send back, derived from the brief
 * and the earlier artifacts in `context` only, with no clock and no randomness, so the same request always
 * yields the same envelope. A feedback call (`is_feedback`) revises the agent's last artifact, which the
 * pipeline passes as the context. Each agent's first draft is in drafts/<agent>.ts, its revision after
 * feedback in revisions/<agent>.ts.
 */
import { type ArtifactType, type EnvelopeOf, assertEnvelope, describeIssues, isArtifactType } from "../../artifacts";
import { AgentInputError, AgentRequest } from "../request";
import { reviseAgile } from "../revisions/agile";
import { reviseDiagramacion } from "../revisions/diagramacion";
import { reviseInception } from "../revisions/inception";
import { revisePseudocodigo } from "../revisions/pseudocodigo";
import { reviseQa } from "../revisions/qa";
import { reviseRequirements } from "../revisions/requirements";
import { draftAgile } from "./agile";
import { draftDiagramacion } from "./diagramacion";
import { draftInception } from "./inception";
import { draftPseudocodigo } from "./pseudocodigo";
import { draftQa } from "./qa";
import { draftRequirements } from "./requirements";

type Drafter<T extends ArtifactType> = { draft: (request: AgentRequest) => EnvelopeOf<T>; revise: (request: AgentRequest) => EnvelopeOf<T> };

const drafters: { [T in ArtifactType]: Drafter<T> } = {
  requirements: { draft: draftRequirements, revise: reviseRequirements },
  inception: { draft: draftInception, revise: reviseInception },
  agile: { draft: draftAgile, revise: reviseAgile },
  diagramacion: { draft: draftDiagramacion, revise: reviseDiagramacion },
  pseudocodigo: { draft: draftPseudocodigo, revise: revisePseudocodigo },
  qa: { draft: draftQa, revise: reviseQa },
};

/** Throws AgentInputError for an unknown slug, a malformed request, missing context or empty feedback. */
export function draft<T extends ArtifactType>(slug: T, request: AgentRequest): EnvelopeOf<T> {
  if (!isArtifactType(slug)) throw new AgentInputError(`no built-in agent "${String(slug)}"; built-in agents: requirements, inception, agile, diagramacion, pseudocodigo, qa`);
  const parsed = AgentRequest.safeParse(request);
  if (!parsed.success) throw new AgentInputError(`${slug}: the request is malformed (${describeIssues(parsed.error)})`);
  const drafter = drafters[slug] as Drafter<T>;
  if (parsed.data.is_feedback) {
    if (parsed.data.feedback.trim() === "" && !parsed.data.comments?.length) {
      throw new AgentInputError(`${slug}: is_feedback is true but the feedback is empty and there are no comments; say what to change`);
    }
    return assertEnvelope(slug, drafter.revise(parsed.data));
  }
  return assertEnvelope(slug, drafter.draft(parsed.data));
}
