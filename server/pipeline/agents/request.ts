/**
 * What the pipeline sends an agent (`{ run_id, context, is_feedback, feedback }`, plus the run's domain and
 * brief, and on a request for changes the reviewer's comments on parts of the output), and how an agent reads
 * the earlier artifacts out of `context`, which holds the latest content
 * envelope of each earlier agent the agent's context rule names, keyed by artifact type.
 */
import { z } from "zod";
import { SentComment } from "../../review/schemas";
import { type ArtifactOf, type ArtifactType, artifactSchemas, describeIssues } from "../artifacts";

export const AgentRequest = z.object({
  run_id: z.string().optional(),
  domain: z.string().optional(),
  brief: z.string().optional(),
  context: z.record(z.string(), z.unknown()),
  is_feedback: z.boolean(),
  feedback: z.string(),
  /** On a request for changes: the comments on parts of the output; `feedback` lists them too (composeFeedback). */
  comments: z.array(SentComment).optional(),
});
export type AgentRequest = z.infer<typeof AgentRequest>;

/** The request cannot be drafted from: a missing or malformed context entry, or feedback without text. */
export class AgentInputError extends Error {
  override name = "AgentInputError";
}

function stringField(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function briefOf(request: AgentRequest): string {
  return stringField(request.brief) ?? stringField(request.context.brief) ?? "";
}

export function domainOf(request: AgentRequest): string {
  return stringField(request.domain) ?? stringField(request.context.domain) ?? "";
}

/** A context value is the earlier agent's whole content envelope; a bare artifact (or its JSON text) is read too. */
function unwrapArtifact(value: unknown): unknown {
  let current = value;
  if (typeof current === "string") {
    try {
      current = JSON.parse(current);
    } catch {
      return current;
    }
  }
  if (current && typeof current === "object" && !Array.isArray(current) && "artifact" in current) {
    return current.artifact;
  }
  return current;
}

function readArtifact<T extends ArtifactType>(type: T, value: unknown, where: string, forAgent: string): ArtifactOf<T> {
  const parsed = artifactSchemas[type].safeParse(unwrapArtifact(value));
  if (!parsed.success) {
    throw new AgentInputError(`${forAgent}: ${where} is not a ${type} artifact (${describeIssues(parsed.error, where)})`);
  }
  return parsed.data as ArtifactOf<T>;
}

/** The latest artifact of an earlier agent, which the pipeline puts into this agent's context under its artifact type. */
export function contextArtifact<T extends ArtifactType>(request: AgentRequest, type: T, forAgent: ArtifactType): ArtifactOf<T> {
  const value = request.context[type];
  if (value === undefined || value === null) {
    throw new AgentInputError(`${forAgent}: context.${type} is missing; the ${forAgent} agent needs the latest ${type} artifact in its context`);
  }
  return readArtifact(type, value, `context.${type}`, forAgent);
}

/** On a feedback call (a reviewer rejected the agent's output) the context is this agent's own last content envelope. */
export function previousArtifact<T extends ArtifactType>(request: AgentRequest, type: T): ArtifactOf<T> {
  if (!("artifact" in request.context) && Object.keys(request.context).length === 0) {
    throw new AgentInputError(`${type}: a feedback request must carry the agent's last artifact as its context`);
  }
  return readArtifact(type, request.context, "context", type);
}
