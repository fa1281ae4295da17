/**
 * What bash and script nodes share: the run's working directory, the scrubbed environment their processes get,
 * and how a finished process becomes a node's outcome.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ProcessResult } from "./processes";

/** The only variables taken from the server's environment; HOME is set to the run's directory instead. */
export const ALLOWED_SERVER_VARIABLES = ["PATH", "LANG", "LC_ALL", "TZ", "TMPDIR"] as const;

export const DEFAULT_TIMEOUT_MS = 120_000;
/** Per stream (stdout, stderr). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** How much of stderr a failure's message quotes (its end, where the error usually is). */
const MAX_ERROR_STDERR_CHARS = 4000;

/** A run id becomes a folder name: it must be one plain path segment. */
export function checkRunId(runId: string): string {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(runId) || runId.includes("..")) {
    throw new TypeError(`run id ${JSON.stringify(runId)} cannot name a working directory (letters, digits, _ . - only)`);
  }
  return runId;
}

/** `<workDir>/<runId>`, created when missing: the one working directory every node of the run shares. */
export async function ensureRunDir(workDir: string, runId: string): Promise<string> {
  const dir = join(workDir, checkRunId(runId));
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * The environment of a node's process: PATH, LANG, LC_ALL, TZ and TMPDIR from the server (when set), HOME set to
 * `home`, then `extras` (which win). Nothing else of the server's environment (DATABASE_URL, LLM_API_KEY, secrets,
 * tokens) gets through.
 */
export function scrubbedEnv(home: string, extras: Record<string, string> = {}, serverEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED_SERVER_VARIABLES) {
    const value = serverEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.HOME = home;
  for (const [name, value] of Object.entries(extras)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`${JSON.stringify(name)} is not a valid environment variable name`);
    env[name] = value;
  }
  return env;
}

/** What a bash or script node produced: its output (stdout less its last newline), or why it failed. */
export type NodeOutcome =
  | { ok: true; output: string; stderr: string; truncated: boolean }
  | { ok: false; error: string; exitCode: number | null; timedOut: boolean; output: string; stderr: string; truncated: boolean };

export const failure = (error: string, extra: Partial<Extract<NodeOutcome, { ok: false }>> = {}): NodeOutcome => ({
  ok: false,
  error,
  exitCode: null,
  timedOut: false,
  output: "",
  stderr: "",
  truncated: false,
  ...extra,
});

function stderrExcerpt(stderr: string): string {
  const trimmed = stderr.trim();
  return trimmed.length > MAX_ERROR_STDERR_CHARS ? `...${trimmed.slice(-MAX_ERROR_STDERR_CHARS)}` : trimmed;
}

/**
 * Exit 0: success with stdout less one trailing newline. Otherwise a failure: `exit code 2: <stderr>`,
 * `timed out after 30000 ms`, `cancelled`, `killed by SIGKILL: <stderr>`, or the reason it could not start.
 */
export function outcomeOf(result: ProcessResult, timeoutMs: number, what = ""): NodeOutcome {
  const output = result.stdout.replace(/\r?\n$/, "");
  const common = { output, stderr: result.stderr, truncated: result.truncated };
  if (result.timedOut) return failure(`${what}timed out after ${timeoutMs} ms`, { ...common, timedOut: true });
  if (result.aborted) return failure(`${what}cancelled`, common);
  if (result.error) return failure(`${what}could not start: ${result.error}`, common);
  if (result.exitCode === 0) return { ok: true, ...common };
  const stderr = stderrExcerpt(result.stderr);
  const how = result.exitCode !== null ? `exit code ${result.exitCode}` : `killed by ${result.signal ?? "a signal"}`;
  return failure(`${what}${how}${stderr ? `: ${stderr}` : ""}`, { ...common, exitCode: result.exitCode });
}
