/**
 * The engine benchmark: `npm run bench` (add `-- --help` for the options).
 *
 * It runs the real server (HTTP, engine, dispatcher) on a throw-away database of the configured kind
 * (a scratch database beside DATABASE_URL when it is set, dropped afterwards; otherwise embedded PGlite in a
 * temporary directory, deleted afterwards), with a worker that answers over real HTTP at once from a process of its
 * own (./workerProcess), and measures:
 * - a splitter fan-out (Worker producing the array -> Splitter -> Worker per path -> Collector) at each size;
 * - a chain of Worker nodes: node completions per second, and the latency from sending the callback of node N
 *   to receiving the dispatch of node N+1;
 * - many short runs at once (3-node chains, a fixed number in flight): runs per second across runs, and each run's
 *   time from its start request to its last callback answered.
 * Every figure is the median of the repeats. It exits non-zero only on errors (a run that fails, stalls or ends
 * with the wrong output), never because of a timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { type Database, openDatabase } from "../db/client";
import { type RunningServer, startServer } from "../server/app";
import { type Config, loadConfig } from "../server/config";
import { randomBytes } from "node:crypto";
import type { StitchGraph, StitchRun } from "../server/engine/schemas";
import { testBootstrapToken } from "../server/testing/credentials";
import { createScratchDatabase } from "../server/testing/scratchDatabases";
import { type ServerProcess, startServerProcess } from "../server/testing/serverProcess";
import { freePort } from "../server/testing/harness";
import { type CpuMeter, type CpuSpent, cpuMeter, isLocalDatabase, procAvailable, spentSince } from "./cpu";
import { UsageError, optionsRefused, readFlags } from "./flags";
import { fixed, grouped, median, percentile, table } from "./report";
import { type KeptAliveClient, keptAliveClient } from "./http";
import { findPgbench, measurePgbench } from "./pgbench";
import { type BenchWorker, forkBenchWorker } from "./workerProcess";

// ---- Options ----------------------------------------------------------------------------------------

const sizeList = z.string().transform((text, ctx) => {
  const parts = text.split(",").map((part) => part.trim()).filter((part) => part.length > 0);
  const bad = parts.filter((part) => !/^[1-9]\d*$/.test(part));
  if (parts.length === 0 || bad.length > 0) {
    ctx.addIssue({ code: "custom", message: `must be a comma-separated list of positive whole numbers such as 100,1000 (got "${text}")` });
    return z.NEVER;
  }
  return parts.map(Number);
});

const wholeNumber = z.coerce.number({ error: "must be a whole number" }).int("must be a whole number");

const Options = z.object({
  sizes: sizeList.default([100, 1000, 10_000]),
  repeats: wholeNumber.min(1, "must be at least 1").default(3),
  chain: wholeNumber.min(2, "a chain needs at least 2 nodes").default(1000),
  stallMs: wholeNumber.min(1, "must be at least 1 (milliseconds)").default(120_000),
  runs: wholeNumber.min(0, "must be 0 (skip) or more").default(1000),
  inFlight: wholeNumber.min(1, "must be at least 1").default(50),
  answer: z.enum(["callback", "response"], { error: 'must be "callback" or "response"' }).default("callback"),
  processes: sizeList.default([1]),
  pgbenchSeconds: wholeNumber.min(0, "must be 0 (skip) or more (seconds)").default(20),
});
type Options = z.infer<typeof Options>;

const usage = `usage: npm run bench -- [--sizes=100,1000,10000] [--repeats=3] [--chain=1000] [--stall-ms=120000] [--runs=1000] [--in-flight=50] [--answer=callback] [--processes=1|1,2,4] [--pgbench-seconds=20]
  or set BENCH_SIZES, BENCH_REPEATS, BENCH_CHAIN, BENCH_STALL_MS, BENCH_RUNS, BENCH_IN_FLIGHT, BENCH_ANSWER, BENCH_PROCESSES,
  BENCH_PGBENCH_SECONDS (flags win).
  --runs: short runs (3-node chains) started with --in-flight of them running at once; 0 skips them.
  --answer: how the worker reports a node's result: "callback" (the seed's protocol: it answers the dispatch, then calls
    back) or "response" (the nodes have data.answer "response" and the worker puts the result in its answer).
  --processes: server processes sharing the database (PostgreSQL only, callbacks only), each "node server/main.ts" of
    its own; runs are started on them in turn, and each callback goes to the process that sent its dispatch. A list
    (--processes=1,2,4) runs the whole benchmark once per count, each on a fresh database, and ends with the curve.
  --pgbench-seconds: on PostgreSQL, after the short runs, how long "pgbench -N -c 8 -j 2" runs on a scratch database of
    the same server (when pgbench is installed), to give the short runs' node completions/s as a share of its tps; 0 skips it.
  The database is DATABASE_URL's server (a scratch database is created and dropped) or, without it, a temporary PGlite.
  DISPATCH_CONCURRENCY, DATABASE_POOL_SIZE and DISPATCH_POLL_MS are read as the server reads them.`;

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  const raw: Record<string, string | undefined> = {
    sizes: env.BENCH_SIZES, repeats: env.BENCH_REPEATS, chain: env.BENCH_CHAIN, stallMs: env.BENCH_STALL_MS,
    runs: env.BENCH_RUNS, inFlight: env.BENCH_IN_FLIGHT, answer: env.BENCH_ANSWER, processes: env.BENCH_PROCESSES,
    pgbenchSeconds: env.BENCH_PGBENCH_SECONDS,
  };
  const flags = readFlags(argv, {
    sizes: "sizes", repeats: "repeats", chain: "chain", "stall-ms": "stallMs", runs: "runs", "in-flight": "inFlight", answer: "answer", processes: "processes",
    "pgbench-seconds": "pgbenchSeconds",
  } satisfies Record<string, keyof Options>, usage);
  Object.assign(raw, flags);
  const parsed = Options.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== "")));
  if (!parsed.success) throw optionsRefused(parsed.error);
  // Checked before any pass runs, so a list such as 1,2,4 does not fail only after its first pass.
  if (parsed.data.processes.some((count) => count > 1)) {
    if (!env.DATABASE_URL) throw new UsageError("--processes above 1 needs DATABASE_URL: PGlite serves one process");
    if (parsed.data.answer === "response") {
      throw new UsageError("--processes above 1 takes --answer=callback: with answers in responses the benchmark learns of commits from the engine in its own process");
    }
  }
  return parsed.data;
}

// ---- The server under test ------------------------------------------------------------------------

interface Harness {
  worker: BenchWorker;
  /** Where the servers listen: runs are started on them in turn (`next`); flows are made and runs read on the first. */
  urls: string[];
  next(): string;
  /** The operator's token the servers know. */
  token: string;
  /** The driver's requests, over kept-alive sockets (see ./http). */
  driver: KeptAliveClient;
  config: Config;
  describeDatabase: string;
  /** The CPU spent by the server, the worker and a local PostgreSQL (./cpu). */
  cpu: CpuMeter;
  /** What the meter's "server" covers, and whether PostgreSQL is measured. */
  describeCpu: string;
  /** Stops the worker and the servers, then deletes the database, even when a server does not stop in time. */
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 15_000;

async function startHarness(options: Options, processCount: number): Promise<Harness> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The environment's settings apply as `npm start` would read them; only where the server listens is ours.
  const config = loadConfig({ ...process.env, NEXT_PUBLIC_BASE_URL: baseUrl, PORT: String(port), HOST: "127.0.0.1", STITCH_BOOTSTRAP_TOKEN: benchToken });

  let database: Database | undefined;
  let scratchUrl: string | undefined;
  let discard: () => Promise<void>;
  let describeDatabase: string;
  if (config.DATABASE_URL) {
    const scratch = await createScratchDatabase(config.DATABASE_URL);
    discard = scratch.drop;
    scratchUrl = scratch.url;
    const where = new URL(scratch.url);
    describeDatabase = `PostgreSQL, scratch database ${where.pathname.slice(1)} on ${where.host} (dropped afterwards)`;
    if (processCount === 1) {
      database = await openDatabase({ databaseUrl: scratch.url, poolSize: config.DATABASE_POOL_SIZE }).catch(async (error) => {
        await scratch.drop();
        throw error;
      });
    }
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "stitch-bench-"));
    discard = async () => rmSync(dataDir, { recursive: true, force: true });
    describeDatabase = `embedded PGlite in ${dataDir} (deleted afterwards)`;
    database = await openDatabase({ dataDir });
  }

  let server: RunningServer | undefined;
  let processes: ServerProcess[] = [];
  let worker: BenchWorker | undefined;
  const driver = keptAliveClient();
  const stop = async () => {
    driver.close();
    await worker?.close();
    if (server) await server.close();
    else await database?.close();
    await Promise.all(processes.map((p) => p.stop()));
  };
  const close = async () => {
    // The timer is kept referenced on purpose: a shutdown that waits on nothing would otherwise let Node exit
    // silently, before the database is deleted and before the outcome is reported.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), SHUTDOWN_GRACE_MS)));
    const outcome = await Promise.race([stop().then(() => "stopped" as const), late]).catch((error: unknown) => {
      console.error("bench: stopping the server failed:", error);
      return "failed" as const;
    });
    clearTimeout(timer);
    if (outcome === "late") console.error(`bench: the server did not stop within ${SHUTDOWN_GRACE_MS / 1000} s; deleting the database anyway`);
    await discard();
  };
  let urls: string[];
  let token = benchToken;
  try {
    worker = await forkBenchWorker(options.answer);
    if (processCount === 1) {
      server = await startServer(config, database);
      urls = [baseUrl];
      const traced = worker;
      // Answers in responses are applied by the dispatcher: the engine says when each one's transaction has committed,
      // as a callback's answer does in the other mode.
      if (options.answer === "response") server.engine.afterCommit((applied) => applied.nodeId !== null && traced.committed(applied.runId, applied.nodeId, performance.now()));
    } else {
      // Real server processes, as `npm start` runs them, started together on the scratch database (they migrate it in turn).
      processes = await Promise.all(Array.from({ length: processCount }, () => startServerProcess({ DATABASE_URL: scratchUrl! }, 120_000)));
      urls = processes.map((p) => p.url);
      token = testBootstrapToken;
    }
  } catch (error) {
    await close();
    throw error;
  }
  let turn = 0;
  const localPostgres = config.DATABASE_URL !== undefined && isLocalDatabase(config.DATABASE_URL) && procAvailable;
  const servers = processCount === 1 ? ("this process" as const) : processes.map((p) => p.pid);
  const cpu = cpuMeter(servers, worker.cpuMs, localPostgres);
  const describeCpu = describeCpuSides(processCount, config.DATABASE_URL !== undefined, localPostgres);
  return { worker, urls, next: () => urls[turn++ % urls.length]!, token, driver, config, describeDatabase, cpu, describeCpu, close };
}

/** What each side of the CPU report covers. */
function describeCpuSides(processCount: number, onPostgres: boolean, localPostgres: boolean): string {
  let server: string;
  if (processCount > 1) server = procAvailable ? `the ${processCount} server processes` : "not measured (no /proc)";
  else server = `the benchmark's process (the server, its dispatcher and the driver's start requests${onPostgres ? "" : ", and PGlite, which runs in it"})`;
  const sides = [`server: ${server}`, "worker: its own process"];
  if (onPostgres) sides.push(localPostgres ? "PostgreSQL: all of its processes on this machine" : "PostgreSQL: not measured (not on this machine, or no /proc)");
  return sides.join("; ");
}

/** The benchmark drives its own server as an operator, with a token made for this run. */
const benchToken = randomBytes(24).toString("hex");

async function api<T>(h: Pick<Harness, "token" | "driver">, baseUrl: string, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const answer = await h.driver.send(method, `${baseUrl}/api/stitch${path}`, { authorization: `Bearer ${h.token}` }, body === undefined ? undefined : JSON.stringify(body));
  if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return JSON.parse(answer.text) as T;
}

// ---- The flows ------------------------------------------------------------------------------------

const at = (i: number) => ({ x: i * 200, y: 0 });

/** A Worker node's data: the benchmark worker's URL, the role it plays, and how it answers. */
const workerData = (worker: BenchWorker, role: string) => ({ webhookUrl: worker.url, role, ...(worker.answer === "response" ? { answer: "response" } : {}) });

function fanOutGraph(worker: BenchWorker): StitchGraph {
  return {
    nodes: [
      { id: "produce", type: "Worker", position: at(0), data: workerData(worker, "produce") },
      { id: "split", type: "Splitter", position: at(1), data: { arrayPath: "items" } },
      { id: "work", type: "Worker", position: at(2), data: workerData(worker, "double") },
      { id: "collect", type: "Collector", position: at(3), data: {} },
    ],
    edges: [
      { id: "e1", source: "produce", target: "split" },
      { id: "e2", source: "split", target: "work" },
      { id: "e3", source: "work", target: "collect" },
    ],
  };
}

const chainNodeId = (i: number) => `s${String(i).padStart(5, "0")}`;

function chainGraph(worker: BenchWorker, length: number): StitchGraph {
  const nodes = Array.from({ length }, (_, i) => ({
    id: chainNodeId(i), type: "Worker" as const, position: at(i), data: workerData(worker, "step"),
  }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: nodes[i]!.id, target: node.id }));
  return { nodes, edges };
}

// ---- Measurements ---------------------------------------------------------------------------------

interface FanOutSample {
  wallMs: number;
  cpu: CpuSpent;
  /** The producer's callback: the transaction that completes the Splitter and writes a row and a dispatch per path. */
  splitMs: number;
  callbackP50Ms: number;
  callbackP99Ms: number;
}

interface ChainSample {
  wallMs: number;
  cpu: CpuSpent;
  handoffP50Ms: number;
  handoffP99Ms: number;
  /** The two halves of a hand-off: the callback (or answer) applied and committed, then the next node's dispatch received. */
  appliedP50Ms: number;
  sentP50Ms: number;
}

async function measureFanOut(h: Harness, flowId: string, paths: number, stallMs: number): Promise<FanOutSample> {
  const cpuBefore = await h.cpu.read();
  const startedAt = performance.now();
  const run = await api<StitchRun>(h, h.next(), "POST", `/flows/${flowId}/runs`, { input: { count: paths } });
  const trace = await h.worker.awaitRun(run.id, paths + 1, stallMs);
  const cpu = spentSince(cpuBefore, await h.cpu.read());
  const finishedAt = Math.max(...trace.callbackAnsweredAt.values());

  const callbackMs: number[] = [];
  for (let k = 0; k < paths; k++) {
    const key = `work_${k}`;
    callbackMs.push(trace.callbackAnsweredAt.get(key)! - trace.callbackSentAt.get(key)!);
  }
  const sample: FanOutSample = {
    wallMs: finishedAt - startedAt,
    cpu,
    splitMs: trace.callbackAnsweredAt.get("produce")! - trace.callbackSentAt.get("produce")!,
    callbackP50Ms: percentile(callbackMs, 50),
    callbackP99Ms: percentile(callbackMs, 99),
  };

  // The run must have done the work, not merely answered: every path doubled its item and the Collector gathered them in order.
  const finished = await api<StitchRun>(h, h.urls[0]!, "GET", `/runs/${run.id}`);
  if (finished.status !== "completed") throw new Error(`fan-out run ${run.id} of ${paths} paths ended ${finished.status}, not completed`);
  const gathered = finished.node_states.collect?.output;
  if (!Array.isArray(gathered) || gathered.length !== paths) {
    throw new Error(`fan-out run ${run.id}: the Collector's output has ${Array.isArray(gathered) ? gathered.length : "no"} entries, expected ${paths}`);
  }
  gathered.forEach((entry, k) => {
    if ((entry as { value?: unknown } | null)?.value !== k * 2) throw new Error(`fan-out run ${run.id}: path ${k} gathered ${JSON.stringify(entry)}, expected {"value":${k * 2}}`);
  });
  return sample;
}

async function measureChain(h: Harness, flowId: string, length: number, stallMs: number): Promise<ChainSample> {
  const cpuBefore = await h.cpu.read();
  const startedAt = performance.now();
  const run = await api<StitchRun>(h, h.next(), "POST", `/flows/${flowId}/runs`, { input: { step: 0 } });
  const trace = await h.worker.awaitRun(run.id, length, stallMs);
  const cpu = spentSince(cpuBefore, await h.cpu.read());
  const finishedAt = trace.callbackAnsweredAt.get(chainNodeId(length - 1))!;

  const handoffMs: number[] = [];
  const appliedMs: number[] = [];
  const sentMs: number[] = [];
  for (let i = 1; i < length; i++) {
    const sent = trace.callbackSentAt.get(chainNodeId(i - 1))!;
    const answered = trace.callbackAnsweredAt.get(chainNodeId(i - 1))!;
    handoffMs.push(trace.dispatchReceivedAt.get(chainNodeId(i))! - sent);
    appliedMs.push(answered - sent);
    sentMs.push(trace.dispatchReceivedAt.get(chainNodeId(i))! - answered);
  }

  const finished = await api<StitchRun>(h, h.urls[0]!, "GET", `/runs/${run.id}`);
  if (finished.status !== "completed") throw new Error(`chain run ${run.id} ended ${finished.status}, not completed`);
  const last = finished.node_states[chainNodeId(length - 1)]?.output as { step?: unknown } | undefined;
  if (last?.step !== length) throw new Error(`chain run ${run.id}: the last node output ${JSON.stringify(last)}, expected {"step":${length}}`);
  return {
    wallMs: finishedAt - startedAt, cpu, handoffP50Ms: percentile(handoffMs, 50), handoffP99Ms: percentile(handoffMs, 99),
    appliedP50Ms: percentile(appliedMs, 50), sentP50Ms: percentile(sentMs, 50),
  };
}

interface ConcurrentSample {
  wallMs: number;
  cpu: CpuSpent;
  runP50Ms: number;
  runP99Ms: number;
}

const SHORT_CHAIN = 3;

/** `runs` runs of a 3-node chain, `inFlight` at a time: throughput across runs, which do not share a lock. */
async function measureConcurrentRuns(h: Harness, flowId: string, runs: number, inFlight: number, stallMs: number): Promise<ConcurrentSample> {
  const runMs: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const cpuBefore = await h.cpu.read();
  const startedAt = performance.now();
  const lane = async () => {
    while (next < runs) {
      next++;
      const runStartedAt = performance.now();
      const run = await api<StitchRun>(h, h.next(), "POST", `/flows/${flowId}/runs`, { input: { step: 0 } });
      const trace = await h.worker.awaitRun(run.id, SHORT_CHAIN, stallMs);
      runMs.push(trace.callbackAnsweredAt.get(chainNodeId(SHORT_CHAIN - 1))! - runStartedAt);
      ids.push(run.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, runs) }, lane));
  const wallMs = performance.now() - startedAt;
  const cpu = spentSince(cpuBefore, await h.cpu.read());
  // Every run must have finished with the right output; checked after the clock stopped.
  for (const id of ids) {
    const finished = await api<StitchRun>(h, h.urls[0]!, "GET", `/runs/${id}`);
    const last = finished.node_states[chainNodeId(SHORT_CHAIN - 1)]?.output as { step?: unknown } | undefined;
    if (finished.status !== "completed" || last?.step !== SHORT_CHAIN) throw new Error(`short run ${id} ended ${finished.status} with ${JSON.stringify(last)}`);
  }
  return { wallMs, cpu, runP50Ms: percentile(runMs, 50), runP99Ms: percentile(runMs, 99) };
}

/**
 * The server, its worker and the database share the machine's cores with everything else on it, so the figures
 * say how busy it was. Before the benchmark starts, the load is other work; by the end it includes the benchmark's own.
 */
function describeLoad(when: "start" | "end"): string {
  const [oneMinute] = loadavg();
  const cores = availableParallelism();
  const busy = when === "start" && oneMinute! > cores * 0.75 ? " (the machine is busy with other work: expect slower, noisier figures)" : "";
  return `load average ${oneMinute!.toFixed(2)} on ${cores} cores at the ${when}${busy}`;
}

/** Each pass's short runs, as node completions per second and a share of what pgbench does on the same server, when it is installed. */
async function reportPgbenchShare(serverUrl: string, seconds: number, passes: readonly PassSummary[]): Promise<void> {
  const pgbench = findPgbench();
  if (!pgbench) {
    console.log("\npgbench is not installed (not on the PATH nor in /usr/lib/postgresql/*/bin): no share of the database's limit to report.");
    return;
  }
  console.log(`\nThe database's limit: ${pgbench} -N for ${seconds} s on a scratch database of the same server...`);
  try {
    const { tps, command } = await measurePgbench(pgbench, serverUrl, seconds);
    console.log(`  ${command}: ${grouped(tps)} tps.`);
    for (const { processCount, shortRuns } of passes) {
      if (!shortRuns) continue;
      const by = passes.length > 1 ? ` with ${processCount} server process${processCount === 1 ? "" : "es"}` : "";
      console.log(`  The short runs' ${grouped(shortRuns.completionsPerSecond)} node completions/s${by} are ${fixed((shortRuns.completionsPerSecond / tps) * 100, 1)}% of that (the goal: a third).`);
    }
  } catch (error) {
    // The machine's yardstick failing is not the engine's failure: said, and the benchmark goes on.
    console.log(`  pgbench failed, so there is no share to report: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// ---- Main -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const passes: PassSummary[] = [];
  let serverUrl: string | undefined;
  // One pass per count of server processes, each with its own harness (servers, worker, scratch database).
  for (const [i, processCount] of options.processes.entries()) {
    if (i > 0) console.log(`\n${"=".repeat(100)}\n`);
    const h = await startHarness(options, processCount);
    serverUrl = h.config.DATABASE_URL;
    let closing: Promise<void> | undefined;
    const closeOnce = () => (closing ??= h.close());
    const interrupted = () => {
      console.error("\ninterrupted: removing the benchmark database");
      void closeOnce().finally(() => process.exit(130));
    };
    process.once("SIGINT", interrupted);
    process.once("SIGTERM", interrupted);
    try {
      passes.push(await runBenchmark(h, options, processCount));
    } catch (error) {
      // Reported before shutting down, so the cause is on screen even if the shutdown goes wrong.
      reportFailure(error);
      await closeOnce();
      process.exit(1);
    }
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await closeOnce();
  }
  if (passes.length > 1) reportCurve(passes, options.sizes);
  // After every pass, when the servers are gone: pgbench has the machine to itself, as the engine had.
  if (serverUrl && options.pgbenchSeconds > 0 && passes.some((p) => p.shortRuns)) await reportPgbenchShare(serverUrl, options.pgbenchSeconds, passes);
}

function reportFailure(error: unknown): void {
  if (error instanceof UsageError) console.error(`bench: ${error.message}\n${usage}`);
  else console.error("bench failed:", error instanceof Error ? (error.stack ?? error.message) : error);
}

/** What one pass of the benchmark (one count of server processes) measured, for the curve and pgbench's share. */
interface PassSummary {
  processCount: number;
  /** Paths per second, by fan-out size. */
  fanOut: Map<number, number>;
  chainStepsPerSecond: number;
  /** Short runs per second and node completions per second, when they were run. */
  shortRuns?: { runsPerSecond: number; completionsPerSecond: number };
}

async function runBenchmark(h: Harness, options: Options, processCount: number): Promise<PassSummary> {
  const { config } = h;
  console.log(`Stitch engine benchmark: Node ${process.version}, ${h.describeDatabase}`);
  console.log(processCount === 1 ? "one server, in the benchmark's process" : `${processCount} server processes (node server/main.ts) on that database, runs started on each in turn`);
  console.log(`DISPATCH_CONCURRENCY=${config.DISPATCH_CONCURRENCY} DATABASE_POOL_SIZE=${config.DATABASE_POOL_SIZE} DISPATCH_POLL_MS=${config.DISPATCH_POLL_MS}`);
  console.log(
    `the worker answers by ${options.answer === "response" ? "response (data.answer: response)" : "callback"}; fan-out sizes ${options.sizes.join(", ")}; chain of ${options.chain}; ` +
      `${options.runs > 0 ? `${options.runs} short runs, ${options.inFlight} in flight; ` : ""}${options.repeats} repeat(s), medians reported`,
  );
  console.log(`${describeLoad("start")}\n`);

  const fanOut = await api<{ id: string }>(h, h.urls[0]!, "POST", "/flows", { name: "bench: fan-out", graph: fanOutGraph(h.worker) });
  const chain = await api<{ id: string }>(h, h.urls[0]!, "POST", "/flows", { name: `bench: chain of ${options.chain}`, graph: chainGraph(h.worker, options.chain) });
  const warmChain = await api<{ id: string }>(h, h.urls[0]!, "POST", "/flows", { name: "bench: warm-up chain", graph: chainGraph(h.worker, 20) });
  const shortChain = await api<{ id: string }>(h, h.urls[0]!, "POST", "/flows", { name: "bench: short runs", graph: chainGraph(h.worker, SHORT_CHAIN) });

  // Warm-up (not reported): JIT, connection pools and the compiled-graph cache.
  await measureFanOut(h, fanOut.id, Math.min(...options.sizes), options.stallMs);
  await measureChain(h, warmChain.id, 20, options.stallMs);

  const fanOutSamples = new Map<number, FanOutSample[]>(options.sizes.map((size) => [size, []]));
  const chainSamples: ChainSample[] = [];
  const concurrentSamples: ConcurrentSample[] = [];
  // Sizes are interleaved within each repeat, so a drift of the machine touches every size alike.
  for (let r = 1; r <= options.repeats; r++) {
    for (const size of options.sizes) {
      const sample = await measureFanOut(h, fanOut.id, size, options.stallMs);
      fanOutSamples.get(size)!.push(sample);
      console.log(`  repeat ${r}: fan-out ${grouped(size)} paths in ${fixed(sample.wallMs, 0)} ms (${fixed(sample.wallMs / size, 3)} ms/path)`);
    }
    const sample = await measureChain(h, chain.id, options.chain, options.stallMs);
    chainSamples.push(sample);
    console.log(`  repeat ${r}: chain of ${grouped(options.chain)} in ${fixed(sample.wallMs, 0)} ms (hand-off p50 ${fixed(sample.handoffP50Ms, 2)} ms)`);
    if (options.runs > 0) {
      const many = await measureConcurrentRuns(h, shortChain.id, options.runs, options.inFlight, options.stallMs);
      concurrentSamples.push(many);
      console.log(`  repeat ${r}: ${grouped(options.runs)} short runs in ${fixed(many.wallMs, 0)} ms (${grouped((options.runs / many.wallMs) * 1000)} runs/s)`);
    }
  }

  const perPath = new Map<number, number>();
  const fanOutRows = options.sizes.map((size) => {
    const samples = fanOutSamples.get(size)!;
    const wall = median(samples.map((s) => s.wallMs));
    perPath.set(size, wall / size);
    return [
      grouped(size), String(samples.length), fixed(wall, 0), grouped((size / wall) * 1000), fixed(wall / size, 3),
      fixed(median(samples.map((s) => s.splitMs)), 1), fixed(median(samples.map((s) => s.callbackP50Ms)), 2), fixed(median(samples.map((s) => s.callbackP99Ms)), 2),
    ];
  });
  console.log("\nSplitter fan-out (Worker -> Splitter -> Worker per path -> Collector), medians:");
  console.log(table(["paths", "runs", "wall ms", "paths/s", "ms/path", "split ms", "callback p50 ms", "callback p99 ms"], fanOutRows));
  console.log("  wall: start request to the answer of the last callback (the Collector completes in that transaction);");
  console.log("  split ms: the producer's callback, which completes the Splitter and writes every path's row and dispatch;");
  console.log("  callback: a path's callback request until its answer, queueing on the run's lock included.");

  const chainWall = median(chainSamples.map((s) => s.wallMs));
  console.log(`\nChain of ${grouped(options.chain)} Worker nodes, medians:`);
  console.log(
    table(
      ["nodes", "runs", "wall ms", "completions/s", "hand-off p50 ms", "hand-off p99 ms"],
      [[grouped(options.chain), String(chainSamples.length), fixed(chainWall, 0), grouped((options.chain / chainWall) * 1000),
        fixed(median(chainSamples.map((s) => s.handoffP50Ms)), 2), fixed(median(chainSamples.map((s) => s.handoffP99Ms)), 2)]],
    ),
  );
  console.log("  hand-off: from sending the callback (or the answer) of node N to receiving the dispatch of node N+1;");
  console.log(
    `  of which applied p50 ${fixed(median(chainSamples.map((s) => s.appliedP50Ms)), 2)} ms (until the callback's answer arrives; by response, until its transaction committed), ` +
      `then sent p50 ${fixed(median(chainSamples.map((s) => s.sentP50Ms)), 2)} ms (from there to the dispatch).`,
  );

  const shortWall = concurrentSamples.length > 0 ? median(concurrentSamples.map((s) => s.wallMs)) : undefined;
  if (shortWall !== undefined) {
    console.log(`\nShort runs (chains of ${SHORT_CHAIN} Worker nodes), ${options.inFlight} in flight, medians:`);
    console.log(
      table(
        ["runs", "repeats", "wall ms", "runs/s", "node completions/s", "run p50 ms", "run p99 ms"],
        [[grouped(options.runs), String(concurrentSamples.length), fixed(shortWall, 0), grouped((options.runs / shortWall) * 1000),
          grouped(((options.runs * SHORT_CHAIN) / shortWall) * 1000), fixed(median(concurrentSamples.map((s) => s.runP50Ms)), 1),
          fixed(median(concurrentSamples.map((s) => s.runP99Ms)), 1)]],
      ),
    );
    console.log("  run: from its start request to the answer of its last callback.");
  }

  reportCpu(h, [
    ...options.sizes.map((size) => ({ what: `fan-out of ${grouped(size)}, per path`, per: size, samples: fanOutSamples.get(size)! })),
    { what: `chain of ${grouped(options.chain)}, per step`, per: options.chain, samples: chainSamples },
    ...(concurrentSamples.length > 0 ? [{ what: `short runs, per node completion`, per: options.runs * SHORT_CHAIN, samples: concurrentSamples }] : []),
  ]);

  console.log(`\n${describeLoad("end")}`);
  const resets = await h.worker.resets();
  if (resets > 0) console.log(`the worker sent ${resets} callback(s) again after a connection reset (repeated callbacks are no-ops)`);

  const smallest = Math.min(...options.sizes);
  const largest = Math.max(...options.sizes);
  if (smallest !== largest) {
    const ratio = perPath.get(largest)! / perPath.get(smallest)!;
    const verdict = ratio <= 1.5 ? "within the 1.5x requirement" : "NOT within the 1.5x requirement";
    console.log(`\nPer-path time at ${grouped(largest)} / at ${grouped(smallest)} paths: ${fixed(ratio, 2)}x (${verdict})`);
  } else {
    console.log("\nOnly one fan-out size was run, so there is no per-path ratio to report.");
  }

  return {
    processCount,
    fanOut: new Map([...perPath].map(([size, msPerPath]) => [size, 1000 / msPerPath])),
    chainStepsPerSecond: (options.chain / chainWall) * 1000,
    ...(shortWall !== undefined ? { shortRuns: { runsPerSecond: (options.runs / shortWall) * 1000, completionsPerSecond: ((options.runs * SHORT_CHAIN) / shortWall) * 1000 } } : {}),
  };
}

/**
 * CPU per node completion on each side, medians of the repeats: what a workload costs the server, the worker and
 * PostgreSQL, which wall time on a shared machine does not say.
 */
function reportCpu(h: Harness, rows: readonly { what: string; per: number; samples: readonly { cpu: CpuSpent }[] }[]): void {
  const measured = rows.filter((row) => row.samples.length > 0);
  if (measured.length === 0) return;
  const withPostgres = measured.every((row) => row.samples.every((s) => s.cpu.postgres !== undefined));
  const perNode = (row: (typeof rows)[number], side: (cpu: CpuSpent) => number) => fixed(median(row.samples.map((s) => side(s.cpu))) / row.per, 3);
  const sides: [string, (cpu: CpuSpent) => number][] = [
    ["server", (cpu) => cpu.server],
    ["worker", (cpu) => cpu.worker],
    ...(withPostgres ? ([["PostgreSQL", (cpu) => cpu.postgres!], ["all three", (cpu) => cpu.server + cpu.worker + cpu.postgres!]] as [string, (cpu: CpuSpent) => number][]) : []),
  ];
  // Whether the workload was held by CPU: the machine's cores left idle, and the server's event loop kept busy.
  const shares: [string, (cpu: CpuSpent) => number | undefined, string][] = [
    ["cores idle", (cpu) => cpu.idle, "the share of all the machine's cores' time during the workload that no process used (/proc/stat)"],
    [
      "server's loop busy", (cpu) => cpu.loopBusy,
      "the share of that time the benchmark's process (the server and the driver) was running work on its event loop rather than waiting for some (Node's event loop utilization)",
    ],
  ];
  const shown = shares.filter(([, share]) => measured.every((row) => row.samples.every((s) => share(s.cpu) !== undefined)));
  const percent = (row: (typeof rows)[number], share: (cpu: CpuSpent) => number | undefined) => `${fixed(median(row.samples.map((s) => share(s.cpu)!)) * 100, 0)}%`;
  console.log("\nCPU per node completion (ms of CPU, medians):");
  console.log(
    table(
      ["workload", ...sides.map(([name]) => name), ...shown.map(([name]) => name)],
      measured.map((row) => [row.what, ...sides.map(([, side]) => perNode(row, side)), ...shown.map(([, share]) => percent(row, share))]),
    ),
  );
  console.log(`  ${h.describeCpu}.`);
  for (const [name, , meaning] of shown) console.log(`  ${name}: ${meaning}.`);
}

/** The passes side by side, one line per count of server processes: where adding processes stops paying. */
function reportCurve(passes: readonly PassSummary[], sizes: readonly number[]): void {
  console.log("\nThe curve over server processes (each pass on a fresh database; medians of its repeats):");
  const withRuns = passes.some((p) => p.shortRuns);
  console.log(
    table(
      ["processes", ...sizes.map((size) => `fan-out ${grouped(size)}, paths/s`), "chain, steps/s", ...(withRuns ? ["short runs, runs/s"] : [])],
      passes.map((p) => [
        String(p.processCount), ...sizes.map((size) => grouped(p.fanOut.get(size)!)), grouped(p.chainStepsPerSecond),
        ...(withRuns ? [p.shortRuns ? grouped(p.shortRuns.runsPerSecond) : "-"] : []),
      ]),
    ),
  );
}

main().catch((error) => {
  reportFailure(error);
  process.exit(1);
});
