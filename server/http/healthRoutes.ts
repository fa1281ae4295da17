/**
 * `GET /health` (liveness: the process serves, and says whether its database answers) and `GET /health/ready` (for
 * load balancers: 200 once the database answers, 503 `database_unavailable` with Retry-After while it does not). The
 * server listens only after its migrations are applied (openDatabase), so a process that answers at all has them.
 */
import { Hono } from "hono";
import { z } from "zod";
import { DatabaseUnavailable, describeDatabaseError } from "../lib/databaseErrors";
import { pipelinePaths as paths } from "./paths";

export const HealthBody = z.object({
  status: z.enum(["ok", "degraded"]).describe("`degraded` while the database cannot be reached: requests that need it answer 503."),
  database: z.enum(["up", "unreachable"]).describe("Whether the database answered a query just now (within 2 s)."),
});
export type HealthBody = z.infer<typeof HealthBody>;

/** How long a probe waits for the database: a partitioned network must not hold a load balancer's check. */
const PROBE_MS = 2000;

/** Runs a trivial query on the database (app.ts: `SELECT 1`); it throws when the database does not answer. */
export type DatabaseProbe = () => Promise<unknown>;

/** Undefined when the database answers the probe within PROBE_MS; otherwise why it did not. */
async function databaseProblem(query: DatabaseProbe): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${PROBE_MS} ms`), PROBE_MS)));
  const probe = query().then(() => undefined, describeDatabaseError);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(probe: DatabaseProbe): Hono {
  const app = new Hono();
  app.get(paths.health.pattern, async (c) => {
    const up = (await databaseProblem(probe)) === undefined;
    return c.json({ status: up ? "ok" : "degraded", database: up ? "up" : "unreachable" } satisfies HealthBody);
  });
  app.get(paths.ready.pattern, async (c) => {
    const problem = await databaseProblem(probe);
    if (problem !== undefined) throw new DatabaseUnavailable(problem);
    return c.json({ status: "ok", database: "up" } satisfies HealthBody);
  });
  return app;
}
