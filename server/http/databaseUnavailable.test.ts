/**
 * A database that cannot be reached answers 503 `database_unavailable` with Retry-After, on REST and on tRPC, never a
 * 500; `/health` says `degraded` and `/health/ready` 503. The outage is made by closing the server's embedded
 * database under it (PGlite answers "PGlite is closed"); PostgreSQL restarts are the fault suite's
 * (server/faults/databaseRestart.test.ts). Which driver errors count is checked on their real shapes.
 */
import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../lib/databaseErrors";
import { pglite } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import { testBootstrapToken } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("counts a connection that went away or was refused, a server shutting down or starting, a closed PGlite", () => {
    for (const code of ["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "08006", "08001"]) {
      expect(isDatabaseUnavailable(coded(code)), code).toBe(true);
      expect(isDatabaseUnavailable(new DrizzleQueryError("SELECT 1", [], coded(code))), `${code} in a query error`).toBe(true);
    }
    expect(isDatabaseUnavailable(new DrizzleQueryError("SELECT 1", [], new Error("PGlite is closed")))).toBe(true);
  });

  it("does not count a constraint, a bug, or a worker's network error", () => {
    expect(isDatabaseUnavailable(coded("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(new DrizzleQueryError("INSERT", [], coded("23505")))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: coded("ECONNREFUSED") }))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

describe("while the database cannot be reached", () => {
  let env: ServerOnTestDatabase;
  const auth = { authorization: `Bearer ${testBootstrapToken}` };

  beforeAll(async () => {
    env = await serverOn(pglite);
    expect((await env.api.get("/health")).body).toEqual({ status: "ok", database: "up" });
    expect((await env.api.get("/health/ready")).status).toBe(200);
    await env.database.close();
  });
  afterAll(() => env?.close());

  const expectUnavailable = (answer: Response, body: Record<string, unknown>) => {
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("2");
    expect(body).toMatchObject({ error: "database_unavailable", message: expect.stringMatching(/database cannot be reached/) });
    expect(body.detail).toBe(body.message);
  };

  it("REST reads and changes answer 503 database_unavailable with Retry-After", async () => {
    const read = await fetch(`${env.server.url}/api/stitch/flows`, { headers: auth });
    expectUnavailable(read, (await read.json()) as Record<string, unknown>);
    const graph = graphOf([workerNode("A", "http://127.0.0.1:9/a")], chain("A"));
    const change = await fetch(`${env.server.url}/api/stitch/flows`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ name: "f", graph }) });
    expectUnavailable(change, (await change.json()) as Record<string, unknown>);
  });

  it("tRPC answers 503 SERVICE_UNAVAILABLE with Retry-After", async () => {
    const answer = await fetch(`${env.server.url}/trpc/engine.flows.list`, { headers: auth });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("2");
    const body = (await answer.json()) as { error: { message: string; data: { code: string; httpStatus: number; refusalCode: string } } };
    expect(body.error.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503, refusalCode: "database_unavailable" });
    expect(body.error.message).toMatch(/database cannot be reached/);
  });

  it("/health says degraded and /health/ready answers 503", async () => {
    expect((await env.api.get("/health")).body).toEqual({ status: "degraded", database: "unreachable" });
    const ready = await fetch(`${env.server.url}/health/ready`);
    expectUnavailable(ready, (await ready.json()) as Record<string, unknown>);
  });
});
