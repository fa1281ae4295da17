/**
 * What the tools are given, built from the environment: the chat endpoint (LLM_BASE_URL...), the outbound policy
 * (OUTBOUND_ALLOW), and the graph: Neo4j when NEO4J_URL is set, else the embedded graph under `<dataDir>/graph`.
 * Build the shared part once (`toolServicesFromEnv`); each run of a tool adds its signal and label.
 */
import { join } from "node:path";
import { llmConfigFromEnv } from "../../../llm/chat";
import { outboundPolicyFromEnv } from "../../../lib/outboundPolicy";
import { embeddedGraphStore } from "./graph/embedded";
import { neo4jGraphStoreFromEnv } from "./graph/neo4j";
import type { GraphStore } from "./graph/store";
import type { ToolContext, ToolEnv } from "./tool";

export type ToolServices = Omit<ToolContext, "signal" | "label">;

const neo4jStores = new Map<string, GraphStore>();

/** Neo4j when NEO4J_URL is set (one driver per URL in this process), else the embedded graph in `<dataDir>/graph`. */
export function graphStoreFromEnv(env: ToolEnv, dataDir: string): GraphStore {
  const url = env.NEO4J_URL?.trim();
  if (!url) return embeddedGraphStore(join(dataDir, "graph"));
  let store = neo4jStores.get(url);
  if (!store) {
    store = neo4jGraphStoreFromEnv(env) as GraphStore;
    neo4jStores.set(url, store);
  }
  return store;
}

/** The tools' services from `env` (throws ConfigError on a bad LLM_* or OUTBOUND_ALLOW value); the graph opens on first use. */
export function toolServicesFromEnv(env: ToolEnv, dataDir: string): ToolServices {
  return { llm: llmConfigFromEnv(env), env, outbound: outboundPolicyFromEnv(env), graph: graphStoreFromEnv(env, dataDir) };
}
