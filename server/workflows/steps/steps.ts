/**
 * The step workflows' front door, assembled: the projection is registered with the engine, and the executor is
 * handed to the dispatcher (by app.ts) for dispatches of `data.executor: "steps"` (STEPS_EXECUTOR). The tools get the
 * services built from the environment (the LLM endpoint, OUTBOUND_ALLOW, the graph under DATA_DIR or in Neo4j).
 */
import type { OutboundPolicy } from "../../lib/outboundPolicy";
import type { Database } from "../../../db/client";
import type { NodeExecutor } from "../../engine/dispatcher";
import type { Engine } from "../../engine/engine";
import { StepWorkflowCommands } from "./commands";
import { StepForkCommands } from "./forkCommands";
import { stepExecutor } from "./executor";
import { stepProjection } from "./projection";
import { StepWorkflowQueries } from "./queries";
import { type ToolServices, toolServicesFromEnv } from "./tools/context";
import { type ToolRegistry, toolRegistry } from "./tools/registry";
import type { ToolEnv } from "./tools/tool";

export { STEPS_EXECUTOR } from "./lower";

export interface StepWorkflowsOptions {
  /** The environment the tools read (LLM_*, SERPAPI_*, OUTBOUND_ALLOW, NEO4J_*). */
  env: ToolEnv;
  /** DATA_DIR: the embedded graph lives in `<dataDir>/graph`. */
  dataDir: string;
  /** The outbound-address policy of `utils.http` (the server's, which knows its own address); default: OUTBOUND_ALLOW alone. */
  outbound?: OutboundPolicy;
  /** Tests: another registry or services. */
  tools?: ToolRegistry;
  services?: ToolServices;
}

export interface StepWorkflows {
  readonly commands: StepWorkflowCommands;
  readonly queries: StepWorkflowQueries;
  /** Forks of step runs (the plain flows' fork commands hand them here: `ForkCommands.forkOwnedBy`). */
  readonly forks: StepForkCommands;
  /** Performs steps; the dispatcher runs it for dispatches of `data.executor: "steps"`. */
  readonly executor: NodeExecutor;
  /** Closes what the tools hold open (the graph database). */
  close(): Promise<void>;
}

/** Throws ConfigError on a bad LLM_* or OUTBOUND_ALLOW value, so that start-up stops naming it. */
export function installStepWorkflows(database: Database, engine: Engine, options: StepWorkflowsOptions): StepWorkflows {
  const tools = options.tools ?? toolRegistry;
  const fromEnv = () => toolServicesFromEnv(options.env, options.dataDir);
  const services = options.services ?? (options.outbound ? { ...fromEnv(), outbound: options.outbound } : fromEnv());
  engine.observe(stepProjection());
  const queries = new StepWorkflowQueries(database, tools, engine);
  return {
    commands: new StepWorkflowCommands(engine, queries, tools),
    queries,
    forks: new StepForkCommands(engine),
    executor: stepExecutor({ engine, database, tools, services }),
    close: () => services.graph.close(),
  };
}
