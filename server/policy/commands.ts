/**
 * What operators change of the instance's policy. Each change is one transaction, recorded in the audit trail with
 * what it was and what it became; then whatever follows the policy is told (the open decisions whose definition set
 * no `self_approval` follow it, and whether anyone can take each is computed again).
 */
import type { Database } from "../../db/client";
import { noteAudit } from "../audit/scope";
import type { Identity } from "../people/schemas";
import type { InstancePolicy, PolicyChange } from "./schemas";
import * as store from "./store";

export class PolicyCommands {
  private readonly followers: (() => Promise<void>)[] = [];

  constructor(private readonly database: Database) {}

  /** Called after each change has committed (server/app.ts: the decisions' reassessment). */
  onChange(follower: () => Promise<void>): void {
    this.followers.push(follower);
  }

  async change(by: Identity, change: PolicyChange): Promise<InstancePolicy> {
    await this.database.transaction(async (tx) => {
      const before = await store.writePolicy(tx, { selfApproval: change.self_approval, by: by.name });
      noteAudit("self_approval", `${before.self_approval} to ${change.self_approval}`);
    });
    for (const follower of this.followers) await follower();
    return this.database.run((db) => store.readPolicy(db));
  }
}
