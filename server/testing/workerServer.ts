/**
 * A real HTTP worker for tests and the benchmark: it receives the engine's dispatches over HTTP and
 * answers them the way the test says (call back now, later, twice, fail, or not at all).
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { WorkerPayload } from "../engine/schemas";
import { asTestOperator } from "./credentials";

export interface ReceivedDispatch {
  payload: WorkerPayload;
  headers: IncomingMessage["headers"];
  method?: string;
  path?: string;
  /** The request body as sent (signatures are computed over these bytes). */
  rawBody?: string;
  /** performance.now() when the request had arrived in full. */
  receivedAt?: number;
}

export type WorkerBehaviour = (dispatch: ReceivedDispatch, res: ServerResponse) => void | Promise<void>;

export interface WorkerServer {
  url: string;
  received: ReceivedDispatch[];
  setBehaviour(behaviour: WorkerBehaviour): void;
  /** Resolves once `count` dispatches have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDispatch[]>;
  close(): Promise<void>;
}

/** Posts JSON as the test operator (test servers' bootstrap token); a worker's callback door ignores it. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = asTestOperator): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Answers 200 at once, then calls back with `output(payload)` as soon as the answer has gone. */
export const echoWorker =
  (output: (payload: WorkerPayload) => unknown = (p) => ({ echoed: p.input })): WorkerBehaviour =>
  (dispatch, res) => {
    res.writeHead(200).end("{}");
    void postJson(dispatch.payload.callbackUrl, { status: "completed", output: output(dispatch.payload) }).catch(() => undefined);
  };

export interface WorkerServerOptions {
  /** Listen on this port (a test that first points a node at a closed port, then opens it); default: any free port. */
  port?: number;
}

export async function getJson(url: string, headers: Record<string, string> = asTestOperator): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function startWorkerServer(
  behaviour: WorkerBehaviour = (_d, res) => void res.writeHead(200).end("{}"),
  options: WorkerServerOptions = {},
): Promise<WorkerServer> {
  let current = behaviour;
  const received: ReceivedDispatch[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const dispatch: ReceivedDispatch = {
        payload: JSON.parse(rawBody) as WorkerPayload,
        rawBody,
        headers: req.headers,
        method: req.method,
        path: req.url,
        receivedAt: performance.now(),
      };
      received.push(dispatch);
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      void Promise.resolve(current(dispatch, res)).catch(() => res.writeHead(500).end());
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setBehaviour: (b) => {
      current = b;
    },
    waitFor(count, timeoutMs = 30_000) {
      if (received.length >= count) return Promise.resolve(received.slice(0, count));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker got ${received.length} of ${count} dispatches within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received.slice(0, count))) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
