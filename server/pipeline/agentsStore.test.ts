/**
 * The agents' rows stored at start-up (store.storeAgents): a definition stored again changes nothing, a changed one
 * updates its rows in place, and only agents the definition no longer has are deleted. Processes starting together
 * store it at the same time without a duplicate key (the fault suite starts real processes together, server/faults).
 */
import { afterEach, describe, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import type { Database } from "../../db/client";
import { pipelineAgents } from "../../db/schema";
import { testDatabases } from "../testing/databases";
import type { PipelineAgent } from "./schemas";
import { storeAgents } from "./store";

const agent = (slug: string, order: number, name = slug): PipelineAgent => ({
  slug, name, order, artifact_type: `${slug}_doc`, webhook_url: `http://127.0.0.1:9/${slug}`, context: [], builtin: false,
});

describe.each(testDatabases)("storing the agents on $name", (testDatabase) => {
  let opened: Awaited<ReturnType<typeof testDatabase.open>> | undefined;
  afterEach(async () => {
    await opened?.drop();
    opened = undefined;
  });

  const stored = (database: Database) =>
    database.run((db) => db.select({ slug: pipelineAgents.slug, name: pipelineAgents.name, order: pipelineAgents.order, updatedAt: pipelineAgents.updatedAt }).from(pipelineAgents).orderBy(asc(pipelineAgents.order)));

  it("keeps unchanged rows as they are, updates changed ones in place and deletes only removed agents", async () => {
    opened = await testDatabase.open();
    const { database } = opened;
    await database.transaction((tx) => storeAgents(tx, [agent("a", 1), agent("b", 2), agent("c", 3)]));
    const first = await stored(database);
    await database.transaction((tx) => storeAgents(tx, [agent("a", 1), agent("b", 2), agent("c", 3)]));
    expect(await stored(database)).toEqual(first);

    await database.transaction((tx) => storeAgents(tx, [agent("a", 1), agent("c", 2, "C renamed"), agent("d", 3)]));
    const after = await stored(database);
    expect(after.map(({ slug, name, order }) => ({ slug, name, order }))).toEqual([
      { slug: "a", name: "a", order: 1 }, { slug: "c", name: "C renamed", order: 2 }, { slug: "d", name: "d", order: 3 },
    ]);
    expect(after[0]!.updatedAt).toBe(first[0]!.updatedAt);
  });

  it("stores the same definition from several transactions at once without a duplicate key", async () => {
    opened = await testDatabase.open();
    const { database } = opened;
    const agents = [agent("a", 1), agent("b", 2)];
    await Promise.all(Array.from({ length: 4 }, () => database.transaction((tx) => storeAgents(tx, agents))));
    expect((await stored(database)).map((a) => a.slug)).toEqual(["a", "b"]);
  });
});
