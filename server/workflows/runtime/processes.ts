/**
 * Child processes for workflow nodes (bash, scripts): each runs in a process group of its own, so a timeout, an
 * abort or a cancelled run ends the whole tree it started, not just its first process. Output is captured up to a
 * cap. A limiter bounds how many node processes run at once, and a registry lets a cancelled run kill its processes.
 * Knows nothing of the engine or the database.
 */
import { spawn } from "node:child_process";

export interface ProcessOptions {
  /** The program and its arguments, run directly (no shell). */
  command: string[];
  cwd: string;
  /** The child's whole environment: nothing of the server's environment is added. */
  env: Record<string, string>;
  /** Milliseconds from the start of the process until its group is killed. */
  timeoutMs: number;
  /** Cap for stdout and for stderr, each; what comes past it is read and dropped, and `truncated` is set. */
  maxOutputBytes: number;
  /** Aborting kills the process group (or, while it waits for the limiter, keeps it from starting). */
  signal?: AbortSignal;
  /** Registers the process under this run, so `killRun(runId)` can end it. */
  runId?: string;
  /** Waits for a slot of this limiter before starting (see `processLimiter`). */
  limiter?: Limiter;
  /** Between SIGTERM and SIGKILL to the group. Default 2000 ms. */
  killGraceMs?: number;
}

export interface ProcessResult {
  /** Null when the process was killed by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Ended (or never started) because the signal aborted or the run was killed. */
  aborted: boolean;
  /** stdout or stderr went past `maxOutputBytes`. */
  truncated: boolean;
  /** The process could not be started (e.g. ENOENT: the program does not exist). */
  error?: string;
}

const DEFAULT_KILL_GRACE_MS = 2000;

// ---- the limiter ------------------------------------------------------------------------------------

export interface Limiter {
  readonly limit: number;
  readonly active: number;
  readonly pending: number;
  /** Runs `task` once a slot is free; rejects with the signal's reason when it aborts before then. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** At most `limit` tasks at once; the others wait in order of arrival. */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a limiter needs a whole number of slots >= 1, not ${limit}`);
  let active = 0;
  const waiting: Array<() => void> = [];

  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (active < limit) {
        active++;
        return resolve();
      }
      const onAbort = () => {
        const index = waiting.indexOf(grant);
        if (index >= 0) waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        active++;
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(grant);
    });

  const release = () => {
    active--;
    waiting.shift()?.();
  };

  return {
    limit,
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
    async run(task, signal) {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/** Process-wide default for node processes: at most 4 at once in this server process. */
export const processLimiter: Limiter = createLimiter(4);

// ---- the run registry -------------------------------------------------------------------------------

const byRun = new Map<string, Set<AbortController>>();

/**
 * Registers work of a run (a process, or a node waiting for something before it starts one) so that
 * `killRun(runId)` aborts it; returns the function that unregisters it.
 */
export function trackRun(runId: string, controller: AbortController): () => void {
  let set = byRun.get(runId);
  if (!set) byRun.set(runId, (set = new Set()));
  set.add(controller);
  return () => {
    set.delete(controller);
    if (set.size === 0 && byRun.get(runId) === set) byRun.delete(runId);
  };
}

/** Kills every process of the run that is running or waiting for the limiter; returns how many there were. */
export function killRun(runId: string): number {
  const set = byRun.get(runId);
  if (!set) return 0;
  const controllers = [...set];
  for (const controller of controllers) controller.abort(new Error(`run ${runId} was cancelled`));
  return controllers.length;
}

/** How many processes of the run are running or waiting for the limiter. */
export function runningProcesses(runId: string): number {
  return byRun.get(runId)?.size ?? 0;
}

// ---- one process ------------------------------------------------------------------------------------

const notStarted = (): ProcessResult => ({ exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false, aborted: true, truncated: false });

/** Signals the process group led by `pid`; false when the group is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** A byte-capped collector for one output stream. */
function collector(maxBytes: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  return {
    push(chunk: Buffer) {
      if (bytes >= maxBytes) {
        truncated = true;
        return;
      }
      const room = maxBytes - bytes;
      if (chunk.length > room) {
        truncated = true;
        chunk = chunk.subarray(0, room);
      }
      chunks.push(chunk);
      bytes += chunk.length;
    },
    get truncated() {
      return truncated;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

/**
 * Runs one child process in a group of its own and resolves when it has ended (never rejects). On timeout or abort
 * the group gets SIGTERM, then SIGKILL after the grace period. When the first process exits on its own, whatever it
 * left running in its group is ended the same way: a node's processes do not outlive the node.
 */
export async function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const [program, ...args] = options.command;
  if (!program) throw new TypeError("runProcess needs a command");
  const controller = new AbortController();
  const forward = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener("abort", forward, { once: true });
  const unregister = options.runId === undefined ? () => {} : trackRun(options.runId, controller);
  try {
    if (controller.signal.aborted) return notStarted();
    const start = () => spawnAndWait(program, args, options, controller.signal);
    if (!options.limiter) return await start();
    return await options.limiter.run(start, controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) return notStarted();
      throw error;
    });
  } finally {
    options.signal?.removeEventListener("abort", forward);
    unregister();
  }
}

function spawnAndWait(program: string, args: string[], options: ProcessOptions, abort: AbortSignal): Promise<ProcessResult> {
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  return new Promise((resolve) => {
    if (abort.aborted) return resolve(notStarted());
    const stdout = collector(options.maxOutputBytes);
    const stderr = collector(options.maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    let settled = false;

    const child = spawn(program, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const pid = child.pid;

    const killGroup = () => {
      if (pid === undefined) return;
      if (!signalGroup(pid, "SIGTERM")) return;
      // Not cleared when the result is in: a member that closed its pipes and ignores SIGTERM still gets SIGKILL.
      setTimeout(() => {
        if (signalGroup(pid, 0)) signalGroup(pid, "SIGKILL");
      }, graceMs).unref();
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      abort.removeEventListener("abort", onAbort);
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
        truncated: stdout.truncated || stderr.truncated,
        ...(spawnError ? { error: spawnError } : {}),
      });
    };
    const onAbort = () => {
      if (exit || settled) return;
      aborted = true;
      killGroup();
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      spawnError = error.message;
      // A failed spawn emits no "exit"; "close" may or may not follow.
      if (pid === undefined) setImmediate(finish);
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Leftovers in the group (background jobs) would hold the pipes open: end them, and stop waiting for the
      // pipes when something outside the group still holds them.
      if (pid !== undefined && signalGroup(pid, 0)) killGroup();
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish();
        }, graceMs + 1000),
      );
    });
    child.on("close", finish);

    timers.push(
      setTimeout(() => {
        if (exit || settled) return;
        timedOut = true;
        killGroup();
      }, options.timeoutMs),
    );
    abort.addEventListener("abort", onAbort, { once: true });
  });
}
