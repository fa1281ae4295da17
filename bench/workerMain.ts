/**
 * The benchmark worker's own process: `./workerProcess` forks this file, which serves the worker (./worker) and
 * answers the benchmark over the IPC channel. Messages (structured clone, so maps pass as maps):
 * - `{ type: "ready", url }` once the worker listens;
 * - to `{ id, type: "clock" }`: this process's `performance.now()`, so the benchmark can put both clocks on one scale;
 * - to `{ id, type: "await", runId, count, stallMs }`: the run's times once `count` of its callbacks have been
 *   answered (0: at once), after which the run is forgotten; or the reason it failed or stalled;
 * - to `{ id, type: "resets" }`: the callbacks sent again after a connection reset;
 * - to `{ id, type: "cpu" }`: the CPU this process has spent so far (user and system, ms);
 * - to `{ id, type: "close" }`: closes the channel, after which it stops the worker and exits, as it does when the
 *   benchmark's process goes away.
 */
import { performance } from "node:perf_hooks";
import { ownCpuMs } from "./cpu";
import { type AnswerMode, type RunTimes, startBenchWorker } from "./worker";
import type { ToWorker, FromWorker } from "./workerProcess";

const answer = process.argv[2] as AnswerMode;
const worker = await startBenchWorker(answer);
const send = (message: FromWorker) => process.send!(message);

async function reply(message: ToWorker): Promise<unknown> {
  switch (message.type) {
    case "clock":
      return performance.now();
    case "await": {
      const trace = worker.trace(message.runId);
      await trace.waitForAnswered(message.count, message.stallMs);
      worker.forget(message.runId);
      const times: RunTimes = { dispatchReceivedAt: trace.dispatchReceivedAt, callbackSentAt: trace.callbackSentAt, callbackAnsweredAt: trace.callbackAnsweredAt };
      return times;
    }
    case "resets":
      return worker.resets();
    case "cpu":
      return ownCpuMs();
    case "close":
      return null;
  }
}

process.on("message", (message: ToWorker) => {
  reply(message).then(
    (value) => {
      send({ type: "reply", id: message.id, ok: true, value });
      if (message.type === "close") process.disconnect();
    },
    (error: unknown) => send({ type: "reply", id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
process.on("disconnect", () => void worker.close().finally(() => process.exit(0)));
send({ type: "ready", url: worker.url });
