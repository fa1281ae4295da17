/**
 * The benchmark's handle on its worker, which runs in a process of its own (./workerMain): a real worker is another
 * program, and the peers' harness runs its worker in its own process too, so the server's process spends nothing on
 * the worker's side of the HTTP. The benchmark asks the worker for a run's times over the IPC channel, once per run.
 *
 * Times come back on this process's clock: both processes read the same monotonic clock from different origins, and
 * the difference is measured at the start (the exchange with the shortest round trip of several).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { type AnswerMode, RunTrace, type RunTimes } from "./worker";

export type ToWorker =
  | { id: number; type: "clock" }
  | { id: number; type: "await"; runId: string; count: number; stallMs: number }
  | { id: number; type: "resets" }
  | { id: number; type: "cpu" }
  | { id: number; type: "close" };

export type FromWorker =
  | { type: "ready"; url: string }
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; message: string };

/** A message to the worker before its id is given: each kind of `ToWorker` without `id`. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type Request = WithoutId<ToWorker>;

export interface BenchWorker {
  url: string;
  answer: AnswerMode;
  /**
   * Resolves with a run's times once `count` of its nodes have been answered: by callback, when the worker has had
   * the answers to that many callbacks; by response, when the engine has committed that many answers (`committed`).
   */
  awaitRun(runId: string, count: number, stallMs: number): Promise<RunTimes>;
  /** With answers in responses: the engine committed the answer of a run's node (this process's `performance.now()`). */
  committed(runId: string, nodeId: string, at: number): void;
  /** Callbacks that were sent again after the connection was reset. */
  resets(): Promise<number>;
  /** The CPU the worker's process has spent so far (user and system, ms). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

const CLOCK_SAMPLES = 9;

export async function forkBenchWorker(answer: AnswerMode): Promise<BenchWorker> {
  // Only tsx is carried over: the benchmark's own flags (a CPU profile, say) and the server's NODE_OPTIONS (its heap's
  // sizes, from .env) are for the server's process. The worker stands for a service outside, running with Node's defaults.
  const { NODE_OPTIONS: _serverOptions, ...env } = process.env;
  const child = fork(fileURLToPath(new URL("./workerMain.ts", import.meta.url)), [answer], { execArgv: ["--import", "tsx"], env, serialization: "advanced", stdio: "inherit" });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited: Error | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    child.on("message", (message: FromWorker) => {
      if (message.type === "ready") return resolve(message.url);
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(new Error(message.message));
    });
    child.on("exit", (code, signal) => {
      exited = new Error(`the benchmark's worker process exited (${signal ?? `code ${code}`})`);
      reject(exited);
      for (const waiter of pending.values()) waiter.reject(exited);
      pending.clear();
    });
  });
  const request = <T>(message: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...message, id } as ToWorker);
    });

  // The worker's clock minus ours, from the exchange with the shortest round trip.
  let best = { roundTrip: Infinity, offset: 0 };
  for (let i = 0; i < CLOCK_SAMPLES; i++) {
    const sentAt = performance.now();
    const theirs = await request<number>({ type: "clock" });
    const answeredAt = performance.now();
    if (answeredAt - sentAt < best.roundTrip) best = { roundTrip: answeredAt - sentAt, offset: theirs - (sentAt + answeredAt) / 2 };
  }
  const ours = (times: Map<string, number>) => new Map([...times].map(([node, at]) => [node, at - best.offset]));

  // With answers in responses the engine, in this process, says when each answer committed.
  const commits = new Map<string, RunTrace>();
  const commitsOf = (runId: string) => {
    let trace = commits.get(runId);
    if (!trace) commits.set(runId, (trace = new RunTrace(runId)));
    return trace;
  };

  return {
    url,
    answer,
    async awaitRun(runId, count, stallMs) {
      if (answer === "callback") {
        const times = await request<RunTimes>({ type: "await", runId, count, stallMs });
        return { dispatchReceivedAt: ours(times.dispatchReceivedAt), callbackSentAt: ours(times.callbackSentAt), callbackAnsweredAt: ours(times.callbackAnsweredAt) };
      }
      const trace = commitsOf(runId);
      try {
        await trace.waitForAnswered(count, stallMs);
      } finally {
        commits.delete(runId);
      }
      // Every answer was sent before its commit, so the worker has the run's whole timeline by now.
      const times = await request<RunTimes>({ type: "await", runId, count: 0, stallMs });
      return { dispatchReceivedAt: ours(times.dispatchReceivedAt), callbackSentAt: ours(times.callbackSentAt), callbackAnsweredAt: trace.callbackAnsweredAt };
    },
    committed: (runId, nodeId, at) => commitsOf(runId).noteAnswered(nodeId, at),
    resets: () => request<number>({ type: "resets" }),
    cpuMs: () => request<number>({ type: "cpu" }),
    close: async () => {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      await request({ type: "close" }).catch(() => undefined);
      await gone;
    },
  };
}
