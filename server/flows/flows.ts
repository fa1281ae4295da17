/** The plain flows' front door, installed: its projection registered with the engine, its commands and its queries. */
import type { Engine } from "../engine/engine";
import { FlowCommands, type OwnerDoor } from "./commands";
import { flowProjection } from "./projection";
import { FlowQueries } from "./queries";

export interface Flows {
  commands: FlowCommands;
  queries: FlowQueries;
}

export function installFlows(engine: Engine, ownerDoor: OwnerDoor): Flows {
  engine.observe(flowProjection());
  return { commands: new FlowCommands(engine, ownerDoor), queries: new FlowQueries(engine) };
}
