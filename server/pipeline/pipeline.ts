/**
 * The agent pipeline's front door, assembled: its definition becomes an engine flow, its projection is registered
 * with the engine, and its commands, queries and agent protocol are handed to the routes. Routes call commands and
 * queries; commands call the engine; everything reads and writes through the pipeline's store.
 */
import type { RecordDecisions } from "../decisions/record";
import type { Database } from "../../db/client";
import type { DispatchAdapter } from "../engine/dispatcher";
import type { Engine } from "../engine/engine";
import type { ConversationMarkers } from "../engine/runChanges";
import { PipelineCommands } from "./commands";
import { flowIdFor, pipelineGraph } from "./definition";
import { PipelineForkCommands } from "./forkCommands";
import { pipelineProjection } from "./projection";
import { AgentCallbackBody, agentDispatchAdapter } from "./protocol";
import type { BuiltinAgents } from "./agents/builtinWebhook";
import type { AgentCall } from "./schemas";
import { PipelineQueries } from "./queries";
import type { PipelineAgent } from "./schemas";
import * as store from "./store";

export interface PipelineOptions {
  agents: readonly PipelineAgent[];
  /** Keeps the decisions its reviews wait for (the decisions module's recorder). */
  recordDecisions: RecordDecisions;
  /** How long an agent may take to call back before its run fails with that reason (AGENT_TIMEOUT_MS). */
  agentTimeoutMs: number;
  /** How long an agent may be in progress before an operator may retry it without waiting for the timeout (AGENT_STUCK_AFTER_MS). */
  agentStuckAfterMs: number;
  /** Where an agent posts its output (the callback route under NEXT_PUBLIC_BASE_URL). */
  agentCallbackUrl: (slug: string) => string;
  /** PIPELINE_CALLBACK_SECRET: agents' callback URLs carry a token, and callbacks must present it. */
  callbackSecret?: string;
  /** The built-in agents, whose calls this server performs itself as leased jobs (protocol.ts `performBuiltin`). */
  builtinAgents?: BuiltinAgents;
  /** What a conversation's change marker watches besides the pipeline's own rows (every front door's, app.ts). */
  conversationMarkers: ConversationMarkers;
}

export interface Pipeline {
  readonly agents: readonly PipelineAgent[];
  readonly flowId: string;
  readonly commands: PipelineCommands;
  /** Forks of its runs (the one fork door, server/flows/forkCommands.ts, hands them here). */
  readonly forks: PipelineForkCommands;
  readonly queries: PipelineQueries;
  /** How the dispatcher sends the pipeline's Worker dispatches (`data.protocol: "agent"`). */
  readonly dispatchAdapter: DispatchAdapter;
}

/** Stores the definition in force and its flow, and starts projecting engine events onto pipeline runs. */
export async function installPipeline(database: Database, engine: Engine, options: PipelineOptions): Promise<Pipeline> {
  const { agents } = options;
  const graph = pipelineGraph(agents, options.agentTimeoutMs);
  const flowId = flowIdFor(graph);
  await engine.ensureFlow(flowId, "agent pipeline", graph);
  await database.transaction((tx) => store.storeAgents(tx, agents));
  engine.observe(pipelineProjection(options.recordDecisions));
  const queries = new PipelineQueries(database, agents, options.conversationMarkers, { stuckAfterMs: options.agentStuckAfterMs });
  const commands = new PipelineCommands(engine, flowId, agents, queries, options.callbackSecret);
  const builtin = options.builtinAgents;
  const performBuiltin = builtin && (async (slug: string, body: AgentCall, call: number, signal: AbortSignal) => {
    const answer = AgentCallbackBody.parse(await builtin.draft(slug, body, signal));
    signal.throwIfAborted();
    await commands.receiveBuiltinAnswer(slug, answer, call);
  });
  return {
    agents,
    flowId,
    commands,
    forks: new PipelineForkCommands(engine, { flowId, agents }),
    queries,
    dispatchAdapter: agentDispatchAdapter(database, { agents, callbackUrl: options.agentCallbackUrl, callbackSecret: options.callbackSecret, ...(performBuiltin ? { performBuiltin } : {}) }),
  };
}
