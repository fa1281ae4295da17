/** The plain flows' front door, installed: its projection registered with the engine, its commands and its queries. */
import type { RecordDecisions } from "../decisions/record";
import type { Engine } from "../engine/engine";
import type { ConversationMarkers } from "../engine/runChanges";
import { FlowCommands, type OwnerDoor } from "./commands";
import { flowProjection } from "./projection";
import { FlowQueries } from "./queries";

export interface Flows {
  commands: FlowCommands;
  queries: FlowQueries;
}

export function installFlows(engine: Engine, ownerDoor: OwnerDoor, recordDecisions: RecordDecisions, conversationMarkers: ConversationMarkers): Flows {
  engine.observe(flowProjection(recordDecisions));
  return { commands: new FlowCommands(engine, ownerDoor), queries: new FlowQueries(engine, conversationMarkers) };
}
