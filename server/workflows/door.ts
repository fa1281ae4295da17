/**
 * The workflows' door, assembled over the two front doors it composes: what the REST routes and the tRPC `workflows`
 * router call for either format (commands.ts, queries.ts). The front doors themselves know nothing of each other.
 */
import type { Database } from "../../db/client";
import type { ConversationMarkers } from "../engine/runChanges";
import { WorkflowDoorCommands } from "./commands";
import { WorkflowDoorQueries } from "./queries";
import type { StepWorkflows } from "./steps/steps";
import type { YamlWorkflows } from "./yaml/workflows";

export interface WorkflowDoor {
  readonly commands: WorkflowDoorCommands;
  readonly queries: WorkflowDoorQueries;
}

export function workflowDoor(database: Database, yaml: YamlWorkflows, steps: StepWorkflows, conversationMarkers: ConversationMarkers): WorkflowDoor {
  const queries = new WorkflowDoorQueries(database, yaml, steps, conversationMarkers);
  return { commands: new WorkflowDoorCommands(queries, yaml, steps), queries };
}
