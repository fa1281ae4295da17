/**
 * Bash nodes: `bash -c <script>` in the run's working directory (`<workDir>/<runId>`, shared by the run's nodes),
 * with a scrubbed environment, in a process group of its own, bounded in time and output.
 */
import { type Limiter, processLimiter, runProcess } from "./processes";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, type NodeOutcome, ensureRunDir, outcomeOf, scrubbedEnv } from "./sandbox";

export interface BashOptions {
  runId: string;
  script: string;
  /** Extra variables for the script (e.g. the substituted references); they win over the allow-listed ones. */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The root of the runs' working directories: the script runs in `<workDir>/<runId>`. */
  workDir: string;
  signal?: AbortSignal;
  /** Default: the process-wide `processLimiter`. */
  limiter?: Limiter;
  maxOutputBytes?: number;
}

export async function runBash(options: BashOptions): Promise<NodeOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dir = await ensureRunDir(options.workDir, options.runId);
  const result = await runProcess({
    command: ["bash", "-c", options.script],
    cwd: dir,
    env: scrubbedEnv(dir, options.env),
    timeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    runId: options.runId,
    limiter: options.limiter ?? processLimiter,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return outcomeOf(result, timeoutMs);
}

/** A loop's `until_bash`: done when the script exits 0; the outcome says why not otherwise. */
export async function runUntilBash(options: BashOptions): Promise<{ done: boolean; outcome: NodeOutcome }> {
  const outcome = await runBash(options);
  return { done: outcome.ok, outcome };
}
