/**
 * The decisions, installed: the recorder the front doors' projections keep their decisions with, the commands and
 * queries the doors call, and the engine timer that fires decisions' reminders and deadlines. Each front door then
 * says how its decisions are taken (`commands.useHandler`).
 */
import type { Database } from "../../db/client";
import type { Dispatcher } from "../engine/dispatcher";
import type { Engine } from "../engine/engine";
import { DecisionCommands, type FindAccount } from "./commands";
import { DecisionQueries } from "./queries";
import { DECISION_TIMER, type DecisionSettings, type Notify, type ReadPolicy, type RecordDecisions, decisionRecorder } from "./record";

export interface Decisions {
  record: RecordDecisions;
  commands: DecisionCommands;
  queries: DecisionQueries;
}

export function installDecisions(
  database: Database, engine: Engine, dispatcher: Dispatcher, options: { settings: DecisionSettings; notify: Notify; findAccount: FindAccount; readPolicy: ReadPolicy },
): Decisions {
  const commands = new DecisionCommands(engine, options.findAccount, options.notify, options.readPolicy);
  dispatcher.useTimer(DECISION_TIMER, ({ payload }) => commands.fire(payload));
  return { record: decisionRecorder(options.settings, options.notify, options.readPolicy), commands, queries: new DecisionQueries(database) };
}
