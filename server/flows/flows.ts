/**
 * The plain flows' front door, installed: its projection registered with the engine, its commands and its queries for
 * runs, and the designer's (versions, drafts, the check, diffs).
 */
import type { RecordDecisions } from "../decisions/record";
import type { Engine } from "../engine/engine";
import type { ConversationMarkers } from "../lib/runChanges";
import { FlowCommands, type OwnerDoor } from "./commands";
import { flowProjection } from "./projection";
import { FlowQueries } from "./queries";
import { FlowVersionCommands } from "./versionCommands";
import { FlowVersionQueries } from "./versionQueries";

export interface Flows {
  commands: FlowCommands;
  queries: FlowQueries;
  versions: { commands: FlowVersionCommands; queries: FlowVersionQueries };
}

export function installFlows(engine: Engine, ownerDoor: OwnerDoor, recordDecisions: RecordDecisions, conversationMarkers: ConversationMarkers): Flows {
  engine.observe(flowProjection(recordDecisions));
  return {
    commands: new FlowCommands(engine, ownerDoor), queries: new FlowQueries(engine, conversationMarkers),
    versions: { commands: new FlowVersionCommands(engine), queries: new FlowVersionQueries(engine) },
  };
}
