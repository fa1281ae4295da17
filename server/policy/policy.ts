/** The instance's policy assembled: its commands (operators change it) and queries (anyone signed in reads it). */
import type { Database } from "../../db/client";
import { PolicyCommands } from "./commands";
import { PolicyQueries } from "./queries";
import * as store from "./store";

export interface Policy {
  commands: PolicyCommands;
  queries: PolicyQueries;
  /** The policy read inside a caller's transaction (a decision opening reads it with its run locked). */
  read: typeof store.readPolicy;
}

export function installPolicy(database: Database): Policy {
  return { commands: new PolicyCommands(database), queries: new PolicyQueries(database), read: store.readPolicy };
}
