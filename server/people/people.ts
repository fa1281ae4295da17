/** The people front door assembled: who may use the product, signed in how, with which role. */
import type { Database } from "../../db/client";
import { PeopleCommands, type PeopleOptions, defaultPeopleOptions } from "./commands";
import { PeopleQueries } from "./queries";

export interface People {
  commands: PeopleCommands;
  queries: PeopleQueries;
}

export function installPeople(database: Database, options: { bootstrapToken?: string } & Partial<PeopleOptions> = {}): People {
  return {
    commands: new PeopleCommands(database, { ...defaultPeopleOptions, ...options }),
    queries: new PeopleQueries(database, options.bootstrapToken),
  };
}
