/**
 * What the doors cost: `npm run bench:doors`. The real server on a throw-away database (a scratch database beside
 * DATABASE_URL when it is set, otherwise embedded PGlite in memory) answers the same read, `GET /api/stitch/runs/:id`,
 * to the same client, identified three ways: the bootstrap token (compared in memory), a personal API token (one
 * indexed lookup) and a session cookie (one indexed lookup); and one state change, a worker's callback, which writes
 * its audit entry in the change's own transaction. Each figure is the median of 5 rounds of sequential requests, and
 * the token's and cookie's are given as ratios to the bootstrap token's. It never fails on a timing.
 */
import { performance } from "node:perf_hooks";
import { type Database, openDatabase } from "../db/client";
import { startServer } from "../server/app";
import { loadConfig } from "../server/config";
import { createScratchDatabase } from "../server/testing/scratchDatabases";
import { freePort } from "../server/testing/harness";
import { createPerson } from "../server/testing/people";
import { startWorkerServer } from "../server/testing/workerServer";
import { fixed, median, table } from "./report";

const ROUNDS = 5;
const REQUESTS = Number(process.env.DOORS_REQUESTS ?? 400);
const bootstrap = "bench-doors-bootstrap-token-0123456789abcdef";

// A worker that takes each dispatch (200) and never calls back: the benchmark sends the callbacks itself.
const worker = await startWorkerServer();
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : null;
const database: Database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: "memory://" });
const server = await startServer(
  loadConfig({ NEXT_PUBLIC_BASE_URL: baseUrl, PORT: String(port), HOST: "127.0.0.1", STITCH_BOOTSTRAP_TOKEN: bootstrap, OUTBOUND_ALLOW: "127.0.0.0/8" }),
  database,
);
try {
  const person = await createPerson(server.people, "Bench", "operator");
  const signIn = await fetch(`${baseUrl}/api/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: person.email, password: person.password }) });
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const asBootstrap = { authorization: `Bearer ${bootstrap}` };
  const flow = await (await fetch(`${baseUrl}/api/stitch/flows`, {
    method: "POST",
    headers: { "content-type": "application/json", ...asBootstrap },
    body: JSON.stringify({ name: "doors", graph: { nodes: [{ id: "W", type: "Worker", position: { x: 0, y: 0 }, data: { webhookUrl: `${worker.url}/hold` } }], edges: [] } }),
  })).json() as { id: string };

  const timeRound = async (send: () => Promise<Response>) => {
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      const answer = await send();
      if (!answer.ok) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
    }
    return ((performance.now() - started) * 1000) / REQUESTS; // µs per request
  };
  if (!flow.id) throw new Error(`the flow was not created: ${JSON.stringify(flow)}`);
  const run = await (await fetch(`${baseUrl}/api/stitch/flows/${flow.id}/runs`, { method: "POST", headers: { "content-type": "application/json", ...asBootstrap }, body: "{}" })).json() as { id: string };
  if (!run.id) throw new Error(`the run was not started: ${JSON.stringify(run)}`);
  const read = (headers: Record<string, string>) => () => fetch(`${baseUrl}/api/stitch/runs/${run.id}`, { headers });
  const ways: [string, () => Promise<Response>][] = [
    ["bootstrap token", read(asBootstrap)],
    ["personal API token", read({ authorization: `Bearer ${person.token}` })],
    ["session cookie", read({ cookie })],
  ];
  const medians: Record<string, number> = {};
  for (const [, send] of ways) await timeRound(send); // warm-up
  for (const [name, send] of ways) {
    const rounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await timeRound(send));
    medians[name] = median(rounds);
  }
  // A state change with its audit entry: a worker's callback on a fresh run each time (its node is running).
  const callbacks: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const runs: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      runs.push(((await (await fetch(`${baseUrl}/api/stitch/flows/${flow.id}/runs`, { method: "POST", headers: { "content-type": "application/json", ...asBootstrap }, body: "{}" })).json()) as { id: string }).id);
    }
    let next = 0;
    callbacks.push(
      await timeRound(() =>
        fetch(`${baseUrl}/api/stitch/callback/${runs[next++]}/W`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "completed", output: 1 }) })
      ),
    );
  }
  const base = medians["bootstrap token"]!;
  console.log(`doors on ${scratch ? "PostgreSQL" : "PGlite"}, ${REQUESTS} sequential requests per round, median of ${ROUNDS} rounds`);
  console.log(
    table(
      ["caller", "µs per read", "vs bootstrap"],
      [...Object.entries(medians).map(([name, us]) => [name, fixed(us, 0), `${fixed(us / base, 2)}x`]), ["worker callback (write + audit entry)", fixed(median(callbacks), 0), "-"]],
    ),
  );
} finally {
  await server.close();
  await scratch?.drop();
  await worker.close();
}
