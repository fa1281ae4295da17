/**
 * Inline review, installed: its queries and commands over the decisions, and the doors through which it reads each
 * front door's outputs. A front door that keeps its own versions (the pipeline's artifacts) registers its door
 * (`useSource`); YAML approvals and Stitch review gates are read from the outputs kept with their decisions.
 */
import type { Database } from "../../db/client";
import type { DecisionQueries } from "../decisions/queries";
import type { Decision } from "../decisions/schemas";
import type { Engine } from "../engine/engine";
import { ReviewCommands } from "./commands";
import { type ReviewSource, decisionSnapshotsSource } from "./sources";
import { ReviewQueries } from "./queries";

export interface Review {
  commands: ReviewCommands;
  queries: ReviewQueries;
  useSource(frontDoor: Decision["front_door"], source: ReviewSource): void;
}

export function installReview(database: Database, engine: Engine, decisions: DecisionQueries): Review {
  const doors = new Map<Decision["front_door"], ReviewSource>();
  const snapshots = decisionSnapshotsSource(engine);
  const queries = new ReviewQueries(database, decisions, (decision) => doors.get(decision.front_door) ?? snapshots);
  return { commands: new ReviewCommands(engine, queries), queries, useSource: (frontDoor, source) => doors.set(frontDoor, source) };
}
