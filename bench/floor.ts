/**
 * The protocol's floor: `npm run bench:floor` (add `-- --help` for the options).
 *
 * What a node completion costs at the least on this machine under the seed's protocol, to set the engine's figures
 * against. A bare `node:http` server, with none of the product (no engine, no outbox, no guards, no drizzle), does
 * per node only what the protocol asks of a server: it takes the worker's callback, answers it, and sends the next
 * node's dispatch. The worker is `npm run bench`'s own, in a process of its own; the short runs are the same (chains
 * of 3 nodes, 50 in flight, started from this process). Two variants:
 * - `http`: nothing stored, so the figure is the HTTP alone;
 * - `postgres` (with DATABASE_URL): each callback is stored before it is answered, the callbacks that arrive together
 *   in one transaction of one INSERT (BEGIN, INSERT, COMMIT), one transaction at a time, as the engine batches them.
 *   The table lives in a scratch database beside DATABASE_URL's, dropped afterwards.
 * The engine stores far more per node (the node's row, the outbox's rows, the run's counters and its event log), so
 * the `postgres` variant is a floor, not a target; it shows what of the engine's cost is the protocol's and the
 * database's, and what is the engine's own. Figures are medians of the repeats, each after an unreported warm-up.
 */
import { performance } from "node:perf_hooks";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { connectPostgres } from "../db/client";
import { createScratchDatabase } from "../server/testing/scratchDatabases";
import { ownCpuMs } from "./cpu";
import { UsageError, optionsRefused, readFlags } from "./flags";
import { keptAliveClient, readBody } from "./http";
import { fixed, grouped, median, table } from "./report";
import { forkBenchWorker } from "./workerProcess";

const RUN_LENGTH = 3;
const WARM_UP_RUNS = 500;
/** A measurement in which no run moves for this long has stalled (a worker that stopped calling back, say). */
const STALL_MS = 30_000;

const Options = z.object({
  runs: z.coerce.number({ error: "must be a whole number" }).int().min(1, "must be at least 1").default(6000),
  inFlight: z.coerce.number({ error: "must be a whole number" }).int().min(1, "must be at least 1").default(50),
  repeats: z.coerce.number({ error: "must be a whole number" }).int().min(1, "must be at least 1").default(3),
});
type Options = z.infer<typeof Options>;

const usage = `usage: npm run bench:floor -- [--runs=6000] [--in-flight=50] [--repeats=3]
  Short runs (chains of ${RUN_LENGTH} nodes) through a bare node:http server and the benchmark's worker: the HTTP alone, and with
  DATABASE_URL also each group of callbacks stored in one transaction (on a scratch database, dropped afterwards).`;

function parseOptions(argv: readonly string[]): Options {
  const parsed = Options.safeParse(readFlags(argv, { runs: "runs", "in-flight": "inFlight", repeats: "repeats" } satisfies Record<string, keyof Options>, usage));
  if (!parsed.success) throw optionsRefused(parsed.error);
  return parsed.data;
}

/** Stores a group of callbacks in one transaction; the groups go one at a time, those that came meanwhile together. */
type Store = (callbacks: readonly { runId: string; nodeId: string; output: unknown }[]) => Promise<void>;

interface Sample {
  wallMs: number;
  serverCpuMs: number;
  workerCpuMs: number;
}

async function measure(options: Options, store: Store | undefined): Promise<Sample[]> {
  const worker = await forkBenchWorker("callback");
  const client = keptAliveClient();
  const finished = new Map<string, () => void>();
  let callbackBase = "";
  const dispatch = async (runId: string, step: number, input: unknown) => {
    const body = JSON.stringify({ runId, nodeId: `n${step}`, config: { role: "step" }, input, callbackUrl: `${callbackBase}/callback/${runId}/${step}`, attempt: 1 });
    const answer = await client.send("POST", worker.url, {}, body);
    if (answer.status !== 200) throw new Error(`the worker answered a dispatch ${answer.status}: ${answer.text.slice(0, 200)}`);
  };
  // The first failure (a dispatch refused, a group not stored, a callback not understood) or a stall ends the
  // measurement with its reason: every run waiting for its last callback would otherwise wait for ever.
  let failed!: (error: unknown) => void;
  const stopped = new Promise<never>((_, reject) => (failed = reject));
  stopped.catch(() => undefined);
  let lastProgressAt = performance.now();
  const watchdog = setInterval(() => {
    if (performance.now() - lastProgressAt > STALL_MS) failed(new Error(`no run moved for ${STALL_MS / 1000} s`));
  }, 1000);

  // Callbacks waiting for their group's transaction, and whether one is being written.
  let waiting: { runId: string; nodeId: string; output: unknown; answer: () => void }[] = [];
  let writing = false;
  const writeGroups = async () => {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      await store!(group);
      for (const callback of group) callback.answer();
    }
    writing = false;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const [, , runId, stepText] = (req.url ?? "").split("/");
    const step = Number(stepText);
    const { output } = JSON.parse(await readBody(req)) as { output: { step: number } };
    const answer = () => {
      lastProgressAt = performance.now();
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"accepted"}');
      if (step + 1 < RUN_LENGTH) dispatch(runId!, step + 1, output).catch(failed);
      else finished.get(runId!)?.();
    };
    if (!store) return answer();
    waiting.push({ runId: runId!, nodeId: `n${step}`, output, answer });
    if (!writing) writeGroups().catch(failed);
  };
  const server = createServer((req, res) => void handle(req, res).catch(failed));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  callbackBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const runMany = async (runs: number, tag: string) => {
    let next = 0;
    const lane = async () => {
      while (next < runs) {
        const runId = `${tag}-${next++}`;
        const done = new Promise<void>((resolve) => finished.set(runId, resolve));
        await Promise.race([dispatch(runId, 0, { step: 0 }), stopped]);
        await Promise.race([done, stopped]);
        finished.delete(runId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.inFlight, runs) }, lane));
  };

  const samples: Sample[] = [];
  try {
    await runMany(WARM_UP_RUNS, "warm");
    for (let repeat = 1; repeat <= options.repeats; repeat++) {
      const [serverBefore, workerBefore, startedAt] = [ownCpuMs(), await worker.cpuMs(), performance.now()];
      await runMany(options.runs, `r${repeat}`);
      const wallMs = performance.now() - startedAt;
      samples.push({ wallMs, serverCpuMs: ownCpuMs() - serverBefore, workerCpuMs: (await worker.cpuMs()) - workerBefore });
    }
  } finally {
    clearInterval(watchdog);
    client.close();
    server.closeAllConnections();
    server.close();
    await worker.close();
  }
  return samples;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const nodes = options.runs * RUN_LENGTH;
  const rows: string[][] = [];
  const report = (variant: string, samples: readonly Sample[]) => {
    const wall = median(samples.map((s) => s.wallMs));
    rows.push([
      variant, grouped((options.runs / wall) * 1000), grouped((nodes / wall) * 1000),
      fixed(median(samples.map((s) => s.serverCpuMs)) / nodes, 3), fixed(median(samples.map((s) => s.workerCpuMs)) / nodes, 3),
    ]);
  };

  console.log(`The protocol's floor: ${grouped(options.runs)} short runs of ${RUN_LENGTH} nodes, ${options.inFlight} in flight, ${options.repeats} repeat(s), medians; Node ${process.version}`);
  report("http: callbacks answered, nothing stored", await measure(options, undefined));

  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const scratch = await createScratchDatabase(databaseUrl);
    const sql = connectPostgres(scratch.url, { max: 10 });
    try {
      await sql`CREATE TABLE floor_callbacks (id bigserial PRIMARY KEY, run_id text NOT NULL, node_id text NOT NULL, output jsonb, at timestamptz NOT NULL DEFAULT now())`;
      report(
        "postgres: each group of callbacks in one transaction",
        await measure(options, async (callbacks) => {
          await sql.begin((tx) => tx`
            INSERT INTO floor_callbacks (run_id, node_id, output)
            SELECT x.run_id, x.node_id, x.output FROM jsonb_to_recordset(${tx.json(callbacks.map((c) => ({ run_id: c.runId, node_id: c.nodeId, output: c.output })) as never)}::jsonb)
              AS x(run_id text, node_id text, output jsonb)`);
        }),
      );
    } finally {
      await sql.end();
      await scratch.drop();
    }
  } else {
    console.log("DATABASE_URL is not set: only the HTTP variant runs.");
  }
  console.log(`\n${table(["variant", "runs/s", "node completions/s", "server CPU ms/node", "worker CPU ms/node"], rows)}`);
  console.log("  server: this process (the bare server and the driver that starts the runs); worker: the benchmark's worker process.");
  console.log("  Compare with `npm run bench`'s short runs and its CPU per node completion, on the same machine in the same hour.");
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? `bench:floor: ${error.message}\n${usage}` : error instanceof Error ? error.message : error);
  process.exit(1);
});
