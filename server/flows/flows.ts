/**
 * The plain flows' front door, installed: its projection registered with the engine, its commands and its queries for
 * runs, the designer's (versions, drafts, the check, diffs), and forks of runs with their comparison.
 */
import type { RecordDecisions } from "../decisions/record";
import type { Engine } from "../engine/engine";
import type { ConversationMarkers } from "../engine/runChanges";
import { FlowCommands, type OwnerDoor } from "./commands";
import { ForkCommands } from "./forkCommands";
import { ForkQueries } from "./forkQueries";
import { flowProjection } from "./projection";
import { FlowQueries } from "./queries";
import { FlowVersionCommands } from "./versionCommands";
import { FlowVersionQueries } from "./versionQueries";

export interface Flows {
  commands: FlowCommands;
  queries: FlowQueries;
  versions: { commands: FlowVersionCommands; queries: FlowVersionQueries };
  /** Forks of runs (who may, the fork, the failed runs of a flow at once), their lineage and the comparison of two runs. */
  forks: { commands: ForkCommands; queries: ForkQueries };
}

export function installFlows(engine: Engine, ownerDoor: OwnerDoor, recordDecisions: RecordDecisions, conversationMarkers: ConversationMarkers): Flows {
  engine.observe(flowProjection(recordDecisions));
  return {
    commands: new FlowCommands(engine, ownerDoor), queries: new FlowQueries(engine, conversationMarkers),
    versions: { commands: new FlowVersionCommands(engine), queries: new FlowVersionQueries(engine) },
    forks: { commands: new ForkCommands(engine, ownerDoor), queries: new ForkQueries(engine) },
  };
}
