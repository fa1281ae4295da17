/** The plain flows' front door, installed: its projection registered with the engine, and its commands. */
import type { RecordDecisions } from "../decisions/record";
import type { Engine } from "../engine/engine";
import { FlowCommands, type OwnerDoor } from "./commands";
import { flowProjection } from "./projection";

export function installFlows(engine: Engine, ownerDoor: OwnerDoor, recordDecisions: RecordDecisions): FlowCommands {
  engine.observe(flowProjection(recordDecisions));
  return new FlowCommands(engine, ownerDoor);
}
