/** The instance's policy as anyone signed in reads it (the app says why someone is refused, and who can decide). */
import type { Database } from "../../db/client";
import type { InstancePolicy } from "./schemas";
import * as store from "./store";

export class PolicyQueries {
  constructor(private readonly database: Database) {}

  get(): Promise<InstancePolicy> {
    return this.database.run((db) => store.readPolicy(db));
  }
}
