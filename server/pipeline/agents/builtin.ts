/**
 * The product's own agents: model-written when an LLM is configured, drafted deterministically from the
 * brief and context otherwise. The metadata says which, so a reviewer knows what produced each artifact.
 */
import type { LlmConfig } from "../../llm/chat";
import type { ArtifactType, EnvelopeOf } from "../artifacts";
import { draft } from "./drafts";
import { composeWithLlm } from "./llm";
import type { AgentRequest } from "./request";

export interface ArtifactMetadata {
  generator: "llm" | "deterministic";
  model?: string;
  note?: string;
  [extra: string]: unknown;
}

export interface ProducedArtifact<T extends ArtifactType = ArtifactType> {
  content: EnvelopeOf<T>;
  metadata: ArtifactMetadata;
}

export const DETERMINISTIC_NOTE = "drafted offline by rules from the brief: a stand-in for a language model, not a model's writing; configure LLM_BASE_URL for model-written drafts";

/**
 * Never falls back from a failed LLM call to the deterministic draft: the error propagates, so the pipeline
 * shows the agent as failed rather than passing off a rule-based draft as the model's work.
 */
export async function produceArtifact<T extends ArtifactType>(slug: T, request: AgentRequest, options: { llm?: LlmConfig | undefined } = {}): Promise<ProducedArtifact<T>> {
  if (options.llm) {
    const content = await composeWithLlm(options.llm, slug, request);
    return { content, metadata: { generator: "llm", model: options.llm.model } };
  }
  return { content: draft(slug, request), metadata: { generator: "deterministic", note: DETERMINISTIC_NOTE } };
}
