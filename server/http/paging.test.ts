/**
 * The run lists, paged (server/lib/paging.ts): GET /runs and tRPC pipeline.listRuns, GET /api/stitch/runs and
 * GET /api/workflows/runs, on every test database. Walking the pages answers every run exactly once, in the order
 * `created_at DESC, id DESC`, also when runs share a creation time to the microsecond and when a run is created
 * between two pages; the list carries no brief; a cursor or limit that does not fit is a 400 that changes nothing.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { graphOf, uxNode } from "../testing/flows";
import { testDatabases } from "../testing/databases";
import { testBootstrapToken } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { encodeCursor } from "../lib/paging";

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

describe.each(testDatabases)("paged run lists on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const get = async (path: string): Promise<Answer> => {
    const response = await fetch(`${env.server.url}${path}`, { headers: { authorization: `Bearer ${testBootstrapToken}` } });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  const trpcListRuns = (input: Record<string, unknown>) => get(`/trpc/pipeline.listRuns?input=${encodeURIComponent(JSON.stringify(input))}`);

  /** The next page's path from the answer's `Link` header (null on the last page). */
  const nextOf = (answer: Answer) => {
    const link = answer.headers.get("link");
    return link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
  };

  /** Follows the `Link: <...>; rel="next"` headers from `path`, checking each page's size; every item of every page, in order. */
  async function walk(path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let next: string | null = path;
    let pages = 0;
    while (next) {
      const page = await get(next);
      expect(page.status, next).toBe(200);
      expect(Array.isArray(page.body), next).toBe(true);
      const cursor = page.headers.get("x-next-cursor");
      next = nextOf(page);
      expect(next === null, "Link and X-Next-Cursor come together").toBe(cursor === null);
      if (next) {
        expect(page.body).toHaveLength(limit);
        expect(new URL(next, env.server.url).searchParams.get("before")).toBe(cursor);
      }
      ids.push(...page.body.map((item: { run_id?: string; id?: string }) => item.run_id ?? item.id));
      pages++;
    }
    return { ids, pages };
  }

  /** The order the lists promise, read straight from the table. */
  const expectedOrder = async (table: "pipeline_runs" | "stitch_runs" | "workflow_runs") =>
    (await env.database.run((db) => rows<{ id: string }>(db, sql`SELECT id::text AS id FROM ${sql.identifier(table)} ORDER BY created_at DESC, id DESC`))).map((r) => r.id);

  beforeAll(async () => {
    env = await serverOn(testDatabase);
    // 55 pipeline runs in one millisecond of 2020: in threes sharing a microsecond, so only the id tells them apart.
    const agents = JSON.stringify([]);
    for (let i = 0; i < 55; i++) {
      const at = `2020-01-01T00:00:00.000${String(100 + Math.floor(i / 3)).padStart(3, "0")}Z`;
      const brief = i === 0 ? "x".repeat(200_000) : `seeded brief ${i}`;
      await env.database.run((db) => db.execute(sql`
        INSERT INTO pipeline_runs (id, domain, brief, status, phase, stitch_run_id, agents, created_at, updated_at)
        VALUES (${`RUN_SEED_${String(i).padStart(2, "0")}_${randomUUID().slice(0, 4)}`}, ${`domain ${i}`}, ${brief}, 'COMPLETED', 'completed',
                ${randomUUID()}, ${agents}::jsonb, ${at}::timestamptz, ${at}::timestamptz)`));
    }
  });
  afterAll(async () => {
    await env?.close();
  });

  describe("GET /runs", () => {
    it("answers the newest 50 without paging parameters, as a bare array without briefs, and says where the rest is", async () => {
      const first = await get("/runs");
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(50);
      expect(first.body.map((r: { run_id: string }) => r.run_id)).toEqual((await expectedOrder("pipeline_runs")).slice(0, 50));
      expect(first.body.every((r: object) => !("brief" in r))).toBe(true);
      expect(first.headers.get("x-next-cursor")).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(first.headers.get("link")).toMatch(/^<\/runs\?before=[A-Za-z0-9_-]+>; rel="next"$/);
    });

    it("walks every run exactly once in order, ties on the microsecond included, with a run created between two pages", async () => {
      const before = await expectedOrder("pipeline_runs");
      const page1 = await get("/runs?limit=7");
      expect(page1.body).toHaveLength(7);
      // Created after the first page was read: newer than every run, so it belongs before the cursor and is not answered again.
      const created = await env.api.post<{ run_id: string }>("/runs", { domain: "late", brief: "A run created while someone pages through the list of runs." });
      expect(created.status).toBe(200);
      const rest = await walk(nextOf(page1)!, 7);
      const ids = [...page1.body.map((r: { run_id: string }) => r.run_id), ...rest.ids];
      expect(ids).toEqual(before);
      expect(new Set(ids).size).toBe(ids.length);
      expect(rest.pages).toBe(Math.ceil((before.length - 7) / 7));
      // From the top again, the new run comes first and nothing else moved.
      expect((await walk("/runs?limit=200", 200)).ids).toEqual([created.body.run_id, ...before]);
    });

    it("answers the same pages through tRPC pipeline.listRuns, by `cursor` (tRPC's infinite queries) and by `before`", async () => {
      const all = await expectedOrder("pipeline_runs");
      for (const name of ["cursor", "before"]) {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const answer = await trpcListRuns({ limit: 9, ...(cursor ? { [name]: cursor } : {}) });
          expect(answer.status).toBe(200);
          const page = answer.body.result.data as { items: { run_id: string }[]; next_cursor: string | null };
          expect(page.items.every((r) => !("brief" in r))).toBe(true);
          ids.push(...page.items.map((r) => r.run_id));
          cursor = page.next_cursor;
        } while (cursor);
        expect(ids).toEqual(all);
      }
      const first = (await trpcListRuns({})).body.result.data;
      expect(first.items).toHaveLength(50);
      expect(first.next_cursor).toEqual(expect.any(String));
    });

    it("refuses a cursor that is not one, and a limit out of 1..200, with 400 naming the parameter", async () => {
      const garbage = [
        "not-a-cursor",
        "%00",
        Buffer.from("[1,2]").toString("base64url"),
        encodeCursor({ at: "2030-13-01T00:00:00.000000Z", id: "RUN_1" }),
        encodeCursor({ at: "2030-02-30T00:00:00.000000Z", id: "RUN_1" }),
        encodeCursor({ at: "2030-01-01 00:00:00", id: "RUN_1" }),
        encodeCursor({ at: "2030-01-01T00:00:00.000000Z", id: "RUN_\u0000" }),
        encodeCursor({ at: "2030-01-01T00:00:00.000000Z", id: "" }),
        "A".repeat(2000),
      ];
      for (const before of garbage) {
        const answer = await get(`/runs?before=${encodeURIComponent(before)}`);
        expect(answer.status, before).toBe(400);
        expect(answer.body.error, before).toMatch(/^invalid_(cursor|query)$/);
        expect(answer.body.message, before).toMatch(/^before: /);
      }
      // A NUL byte, raw in the query string.
      expect((await get("/runs?before=%00")).status).toBe(400);
      for (const limit of ["0", "201", "-1", "abc", "1.5", ""]) {
        const answer = await get(`/runs?limit=${limit}`);
        expect(answer.status, limit).toBe(400);
        expect(answer.body).toMatchObject({ error: "invalid_query", message: expect.stringMatching(/^limit: /) });
      }
      expect((await trpcListRuns({ cursor: "not-a-cursor" })).status).toBe(400);
      expect((await trpcListRuns({ limit: 500 })).status).toBe(400);
    });
  });

  describe("GET /api/stitch/runs", () => {
    it("pages the engine's runs, of one flow or of all, each once; a cursor naming no UUID is a 400", async () => {
      const graph = graphOf([uxNode("Ask")]);
      const flow = await env.api.createFlow(graph, "paged flow");
      const other = await env.api.createFlow(graph, "other flow");
      for (let i = 0; i < 5; i++) await env.api.startRun(flow.id);
      for (let i = 0; i < 3; i++) await env.api.startRun(other.id);
      const all = await expectedOrder("stitch_runs");
      expect(all.length).toBeGreaterThanOrEqual(8);
      const walked = await walk("/api/stitch/runs?limit=3", 3);
      expect(walked.ids).toEqual(all);
      const ofFlow = await walk(`/api/stitch/runs?flow_id=${flow.id}&limit=2`, 2);
      expect(ofFlow.ids).toHaveLength(5);
      expect(ofFlow.ids).toEqual(all.filter((id) => ofFlow.ids.includes(id)));
      expect(ofFlow.pages).toBe(3);

      const notUuid = encodeCursor({ at: "2030-01-01T00:00:00.000000Z", id: "RUN_1" });
      expect((await get(`/api/stitch/runs?before=${notUuid}`)).status).toBe(400);
      expect((await get("/api/stitch/runs?limit=1000")).status).toBe(400);
    });
  });

  describe("GET /api/workflows/runs", () => {
    it("pages both formats' runs as one list, newest first, each once", async () => {
      const yaml = "name: paged-gate\ndescription: waits for a person\nnodes:\n  - id: review\n    approval:\n      message: ok?\n";
      const registered = await env.api.post("/api/workflows", { yaml });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      const steps = { id: "paged-steps", steps: [{ id: "say", tool: "utils.echo", params: { said: "hi" } }] };
      expect(await env.api.post("/api/workflows", steps)).toMatchObject({ status: 201 });
      for (let i = 0; i < 4; i++) {
        expect((await env.api.post("/api/workflows/paged-gate/runs", { message: `yaml ${i}` })).status).toBe(201);
        expect((await env.api.post("/api/workflows/paged-steps/runs", { inputs: {} })).status).toBe(201);
      }
      const all = await expectedOrder("workflow_runs");
      expect(all).toHaveLength(8);
      const walked = await walk("/api/workflows/runs?limit=3", 3);
      expect(walked.ids).toEqual(all);
      expect(walked.pages).toBe(3);
      const ofSteps = await walk("/api/workflows/runs?workflow=paged-steps&limit=3", 3);
      expect(ofSteps.ids).toEqual(all.filter((id) => ofSteps.ids.includes(id)));
      expect(ofSteps.ids).toHaveLength(4);
      expect((await get("/api/workflows/runs?before=zzz")).status).toBe(400);
    });
  });
});
