/**
 * The pipeline definition is data: order, slugs, artifact types, webhooks and context rules come from a JSON file
 * (PIPELINE_DEFINITION, default pipeline.default.json beside this file), with webhook URLs resolved from the
 * environment. It becomes an engine flow: per agent a Worker (`agent_<slug>`) and a review gate (`review_<slug>`).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { DecisionRules, type StitchGraph } from "../engine/schemas";
import { describeZodError } from "../lib/zodIssues";
import { AgentSlug, type PipelineAgent } from "./schemas";

export const DefinitionFile = z.object({
  agents: z
    .array(
      z.object({
        slug: AgentSlug,
        name: z.string().min(1),
        artifact_type: z.string().min(1),
        webhook_path: z.string().startsWith("/").optional(),
        webhook_url: z.string().url().optional(),
        context: z.array(z.string().min(1)).min(1),
        // Who reviews this agent's outputs, and by when: the decision rules every front door shares.
        ...DecisionRules.shape,
      }),
    )
    .min(1),
});
export type DefinitionFile = z.infer<typeof DefinitionFile>;

export class DefinitionError extends Error {
  override name = "DefinitionError";
}

export const defaultDefinitionPath = fileURLToPath(new URL("./pipeline.default.json", import.meta.url));

export function readDefinitionFile(path: string): DefinitionFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DefinitionError(`pipeline definition ${path} could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = DefinitionFile.safeParse(raw);
  if (!parsed.success) {
    throw new DefinitionError(`pipeline definition ${path}: ${describeZodError(parsed.error, { root: "(root)" })}`);
  }
  return parsed.data;
}

export const envNameFor = (slug: string) => `AGENT_WEBHOOK_${slug.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;

/**
 * Resolves each agent's webhook: AGENT_WEBHOOK_<SLUG> first, then the definition's webhook_url, then
 * N8N_BASE_URL + webhook_path, and otherwise the built-in agent this product serves itself.
 */
export function resolveAgents(file: DefinitionFile, env: Record<string, string | undefined>, builtinAgentUrl: (slug: string) => string): PipelineAgent[] {
  const seenSlugs = new Set<string>();
  const earlierTypes = new Set<string>();
  const n8n = env.N8N_BASE_URL?.replace(/\/+$/, "");
  return file.agents.map((agent, index) => {
    if (seenSlugs.has(agent.slug)) throw new DefinitionError(`pipeline definition: agent slug "${agent.slug}" appears twice`);
    seenSlugs.add(agent.slug);
    for (const key of agent.context) {
      if (key !== "domain" && key !== "brief" && !earlierTypes.has(key)) {
        throw new DefinitionError(`pipeline definition: agent "${agent.slug}" takes "${key}" as context, which is neither domain, brief nor an earlier agent's artifact type`);
      }
    }
    earlierTypes.add(agent.artifact_type);
    const fromEnv = env[envNameFor(agent.slug)];
    if (fromEnv) z.string().url(`${envNameFor(agent.slug)} must be a URL`).parse(fromEnv);
    const external = fromEnv ?? agent.webhook_url ?? (n8n && agent.webhook_path ? `${n8n}${agent.webhook_path}` : undefined);
    return {
      slug: agent.slug,
      name: agent.name,
      order: index + 1,
      artifact_type: agent.artifact_type,
      webhook_url: external ?? builtinAgentUrl(agent.slug),
      ...(agent.webhook_path ? { webhook_path: agent.webhook_path } : {}),
      context: agent.context,
      builtin: external === undefined,
      ...rulesOf(agent),
    };
  });
}

export const workerKey = (slug: string) => `agent_${slug}`;

const DECISION_RULE_KEYS = Object.keys(DecisionRules.shape) as (keyof DecisionRules)[];
export const gateKey = (slug: string) => `review_${slug}`;

/**
 * The engine flow that runs the pipeline: agent_<slug> -> review_<slug> -> agent_<next> -> ...
 * `timeoutMs`: how long an agent may take to call back before the run fails with that reason.
 */
/** The agent's decision rules, as its review gate's data carries them. */
const rulesOf = (agent: DecisionRules): DecisionRules => Object.fromEntries(DECISION_RULE_KEYS.filter((key) => agent[key] !== undefined).map((key) => [key, agent[key]]));

/**
 * A built-in agent drafts in the process that claimed its call, under the dispatch's lease, renewed while it drafts:
 * for as long as the agent may take (`timeoutMs`), not a webhook call's time.
 */
const builtinLease = (agent: PipelineAgent, timeoutMs: number) => (agent.builtin ? { leaseMs: timeoutMs } : {});

export function pipelineGraph(agents: readonly PipelineAgent[], timeoutMs: number): StitchGraph {
  const nodes: StitchGraph["nodes"] = [];
  const edges: StitchGraph["edges"] = [];
  agents.forEach((agent, i) => {
    nodes.push({ id: workerKey(agent.slug), type: "Worker", position: { x: i * 260, y: 0 }, data: { label: agent.name, protocol: "agent", agent: agent.slug, webhookUrl: agent.webhook_url, timeoutMs, ...builtinLease(agent, timeoutMs) } });
    nodes.push({ id: gateKey(agent.slug), type: "UX", position: { x: i * 260, y: 140 }, data: { label: `Review ${agent.name}`, gate: "review", agent: agent.slug, ...rulesOf(agent) } });
    edges.push({ id: `e_${agent.slug}_review`, source: workerKey(agent.slug), target: gateKey(agent.slug) });
    const next = agents[i + 1];
    if (next) edges.push({ id: `e_${agent.slug}_${next.slug}`, source: gateKey(agent.slug), target: workerKey(next.slug) });
  });
  return { nodes, edges };
}

/** A stable flow id per definition: every process starting with the same definition uses the same flow. */
export function flowIdFor(graph: StitchGraph): string {
  const hex = createHash("sha256").update(JSON.stringify(graph)).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
