/**
 * The benchmark's worker: a real HTTP server that answers every dispatch with 200 at once and then calls back
 * over kept-alive connections, so what the benchmark measures is the engine, not connection set-up. It runs in a
 * process of its own (./workerMain, started by ./workerProcess), as a real worker and the peers' worker do, so
 * what it spends on HTTP is not taken from the server's process. With
 * `answer: "response"` it puts the result in its answer instead (the nodes have `data.answer: "response"`) and
 * sends no callback; the benchmark then learns from the engine when each answer's transaction committed.
 *
 * What a node does is named by its `data.role` (the engine passes `data` to the worker as `config`):
 * - `produce`: outputs `{ items: [0, 1, ..., input.count - 1] }`, the array a Splitter fans out;
 * - `double`: outputs `{ value: input * 2 }` for one path's item;
 * - `step`: outputs `{ step: input.step + 1 }`, so the last node of a chain of n outputs `{ step: n }`.
 *
 * Every dispatch received and every callback sent and answered is timed with `performance.now()` per run,
 * which is what the benchmark's figures are computed from.
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { WorkerPayload } from "../server/engine/schemas";
import { type Answer, keptAliveClient, readBody } from "./http";

/** The timeline of one run as the worker saw it; times are `performance.now()` milliseconds. */
export class RunTrace {
  readonly dispatchReceivedAt = new Map<string, number>();
  readonly callbackSentAt = new Map<string, number>();
  readonly callbackAnsweredAt = new Map<string, number>();
  readonly errors: string[] = [];
  lastProgressAt = performance.now();
  private waiter: { count: number; resolve: () => void; reject: (error: Error) => void } | undefined;

  constructor(readonly runId: string) {}

  get answered(): number {
    return this.callbackAnsweredAt.size;
  }

  noteAnswered(nodeId: string, at: number): void {
    this.callbackAnsweredAt.set(nodeId, at);
    this.lastProgressAt = at;
    if (this.waiter && this.answered >= this.waiter.count) this.waiter.resolve();
  }

  fail(message: string): void {
    this.errors.push(message);
    this.waiter?.reject(new Error(`run ${this.runId}: ${message}`));
  }

  /**
   * Resolves once `count` callbacks have been answered with 200. The engine applies a callback and everything
   * it causes (the Collector's fan-in included) in one transaction before it answers, so the answer to the
   * last callback means the run has finished. Fails when the run makes no progress for `stallMs`.
   */
  waitForAnswered(count: number, stallMs: number): Promise<void> {
    if (this.errors.length > 0) return Promise.reject(new Error(`run ${this.runId}: ${this.errors[0]}`));
    if (this.answered >= count) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const watchdog = setInterval(() => {
        if (performance.now() - this.lastProgressAt > stallMs) {
          reject(new Error(`run ${this.runId} made no progress for ${stallMs} ms: ${this.answered} of ${count} callbacks answered, ${this.dispatchReceivedAt.size} dispatches received`));
        }
      }, 1000);
      const settle = () => {
        clearInterval(watchdog);
        this.waiter = undefined;
      };
      this.waiter = {
        count,
        resolve: () => (settle(), resolve()),
        reject: (error) => (settle(), reject(error)),
      };
    });
  }
}

/** A run's timeline as plain maps (node id -> `performance.now()` milliseconds of the process that took them). */
export interface RunTimes {
  dispatchReceivedAt: Map<string, number>;
  callbackSentAt: Map<string, number>;
  callbackAnsweredAt: Map<string, number>;
}

export interface BenchWorkerServer {
  url: string;
  answer: AnswerMode;
  /** The trace of a run; created when its first dispatch arrives, which may be before `startRun` has answered. */
  trace(runId: string): RunTrace;
  /** Forgets a run's trace once its figures have been taken. */
  forget(runId: string): void;
  /** Callbacks that were sent again after the connection was reset. */
  resets(): number;
  close(): Promise<void>;
}

function outputFor(payload: WorkerPayload): unknown {
  const role = payload.config.role;
  const input = payload.input as Record<string, unknown> | number | null;
  switch (role) {
    case "produce": {
      const count = (input as { count?: unknown } | null)?.count;
      if (typeof count !== "number" || !Number.isInteger(count) || count < 0) throw new Error(`produce: input.count must be a non-negative integer, got ${JSON.stringify(count)}`);
      return { items: Array.from({ length: count }, (_, i) => i) };
    }
    case "double":
      if (typeof input !== "number") throw new Error(`double: input must be a number, got ${JSON.stringify(input)}`);
      return { value: input * 2 };
    case "step": {
      const step = (input as { step?: unknown } | null)?.step;
      if (typeof step !== "number") throw new Error(`step: input.step must be a number, got ${JSON.stringify(step)}`);
      return { step: step + 1 };
    }
    default:
      throw new Error(`node ${payload.nodeId} has no known data.role (got ${JSON.stringify(role)})`);
  }
}

/** How the worker reports a node's result: by callback (the seed's protocol) or in its answer to the dispatch. */
export type AnswerMode = "callback" | "response";

export async function startBenchWorker(answer: AnswerMode = "callback"): Promise<BenchWorkerServer> {
  const traces = new Map<string, RunTrace>();
  const traceOf = (runId: string) => {
    let trace = traces.get(runId);
    if (!trace) traces.set(runId, (trace = new RunTrace(runId)));
    return trace;
  };
  // Callbacks go out on a pool of kept-alive sockets; without it every callback would pay a TCP handshake.
  // When a blocked event loop makes the pool's idle timer late, a reset is retried (see postCallback).
  const client = keptAliveClient();
  let resets = 0;

  /**
   * Sends a callback. A connection reset is retried a few times: a kept-alive socket the server closed while it
   * was idle fails its next request, and a real worker retries a callback that failed on the network. That is
   * safe because the engine answers a repeated callback as a no-op.
   */
  const postCallback = async (url: string, body: string): Promise<Answer> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.send("POST", url, {}, body);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt >= 10 || (code !== "ECONNRESET" && code !== "EPIPE")) throw error;
        resets++;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    const parsed = WorkerPayload.safeParse(JSON.parse(await readBody(req)));
    if (!parsed.success) {
      res.writeHead(400).end(JSON.stringify({ error: "not a worker payload" }));
      console.error("bench worker: received something that is not a worker payload", parsed.error.issues);
      return;
    }
    const payload = parsed.data;
    const trace = traceOf(payload.runId);
    trace.dispatchReceivedAt.set(payload.nodeId, receivedAt);
    let output: unknown;
    try {
      output = outputFor(payload);
    } catch (error) {
      res.writeHead(400).end(JSON.stringify({ error: String(error) }));
      trace.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    const body = JSON.stringify({ status: "completed", output, attempt: payload.attempt });
    if (answer === "response") {
      trace.callbackSentAt.set(payload.nodeId, performance.now());
      res.writeHead(200, { "content-type": "application/json" }).end(body);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
    trace.callbackSentAt.set(payload.nodeId, performance.now());
    try {
      const answer = await postCallback(payload.callbackUrl, body);
      if (answer.status !== 200) trace.fail(`callback for ${payload.nodeId} was answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      else trace.noteAnswered(payload.nodeId, performance.now());
    } catch (error) {
      trace.fail(`callback for ${payload.nodeId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error("bench worker: handling a dispatch failed", error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answer,
    trace: traceOf,
    forget: (runId) => void traces.delete(runId),
    resets: () => resets,
    close: () =>
      new Promise<void>((resolve) => {
        client.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
