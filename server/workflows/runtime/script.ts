/**
 * Script nodes: TypeScript/JavaScript run by bun, or Python run by uv, with their declared dependencies.
 *
 * The script is a name (a file `<scriptsDir>/<name>.ts|.js` for bun, `<scriptsDir>/<name>.py` for uv) or inline code.
 * Either way its text is written to a fresh file outside the run's directory and run with the run's directory as
 * its working directory, the scrubbed environment of bash nodes, in a process group of its own, bounded in time and
 * output like bash.
 *
 * bun: the binary comes from the `bun` npm package of this project (see `findBun`). Dependencies are installed once
 * per set into `<cacheDir>/bun/<hash of the sorted set>/` (by `bun add`, into a temporary folder renamed into place,
 * so concurrent installs of one set, in this process or another, end with one complete folder) and the script file
 * is written below that folder, so its imports resolve there. Bun's auto-install is off (`--no-install`): a script
 * imports only what it declares. The node's timeout covers the script, not a first install (`installTimeoutMs`).
 *
 * uv: `uv run --no-project --with <dep> ... script.py` (uv caches in `<cacheDir>/uv`); when uv is not on the PATH the
 * node fails saying so and how to install it.
 */
import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { type Limiter, processLimiter, runProcess, trackRun } from "./processes";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, type NodeOutcome, ensureRunDir, failure, outcomeOf, scrubbedEnv } from "./sandbox";

export type ScriptRuntime = "bun" | "uv";

export interface ScriptOptions {
  runId: string;
  runtime: ScriptRuntime;
  /** A script name (see `scriptNameOf`) or inline code. */
  script: string;
  deps?: string[];
  timeoutMs?: number;
  /** The root of the runs' working directories: the script runs in `<workDir>/<runId>`. */
  workDir: string;
  /** Where named scripts are. */
  scriptsDir: string;
  /** Shared across runs: installed dependencies and the script files. Default `<os tmpdir>/stitch-workflow-scripts`. */
  cacheDir?: string;
  /** Extra variables for the script, as for bash. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  limiter?: Limiter;
  maxOutputBytes?: number;
  /** Bound on installing a dependency set the first time. Default 300000 ms. */
  installTimeoutMs?: number;
}

export const DEFAULT_CACHE_DIR = join(tmpdir(), "stitch-workflow-scripts");
const DEFAULT_INSTALL_TIMEOUT_MS = 300_000;

/** The installers may need these of the server's environment to reach their registry (never secrets of the app). */
const NETWORK_VARIABLES = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
  "UV_INDEX_URL",
  "UV_DEFAULT_INDEX",
];

function networkEnv(serverEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(NETWORK_VARIABLES.flatMap((name) => (serverEnv[name] ? [[name, serverEnv[name]]] : [])));
}

// ---- which script --------------------------------------------------------------------------------------

const EXTENSIONS: Record<ScriptRuntime, string[]> = { bun: [".ts", ".js"], uv: [".py"] };

/**
 * The script's name when `script` is one: letters, digits, `_`, `-` and `.`, not starting with `.` and without
 * `..` (so no whitespace, shell characters, `/` or `\`); anything else is inline code.
 */
export function scriptNameOf(script: string): string | undefined {
  return /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(script) && !script.includes("..") ? script : undefined;
}

type Source = { ok: true; code: string; extension: string } | { ok: false; error: string };

/** The script's text and the extension to run it under: a named file's, or the runtime's first for inline code. */
export async function scriptSource(script: string, runtime: ScriptRuntime, scriptsDir: string): Promise<Source> {
  const extensions = EXTENSIONS[runtime];
  const name = scriptNameOf(script);
  if (name === undefined) return { ok: true, code: script, extension: extensions[0] ?? "" };
  const named = extensions.find((extension) => name.endsWith(extension));
  const tried = named ? [join(scriptsDir, name)] : extensions.map((extension) => join(scriptsDir, name + extension));
  for (const path of tried) {
    try {
      return { ok: true, code: await readFile(path, "utf8"), extension: extensions.find((extension) => path.endsWith(extension)) ?? "" };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return { ok: false, error: `cannot read script ${path}: ${(error as Error).message}` };
    }
  }
  return { ok: false, error: `script "${name}" not found for runtime ${runtime}: tried ${tried.join(", ")}` };
}

// ---- dependencies -----------------------------------------------------------------------------------

/** npm registry packages only: `name`, `@scope/name`, optionally `@<version or range>`; no URLs, paths or git specs. */
const NPM_DEP = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*|+_-]+)?$/;
/** PyPI requirements: `name`, `name[extra]`, optionally version clauses (`==1.2`, `>=2,<3`); no URLs or paths. */
const PYTHON_DEP = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?((===?|!=|<=?|>=?|~=)[A-Za-z0-9.*+!_-]+(,(===?|!=|<=?|>=?|~=)[A-Za-z0-9.*+!_-]+)*)?$/;

export function invalidDeps(runtime: ScriptRuntime, deps: string[]): string[] {
  const pattern = runtime === "bun" ? NPM_DEP : PYTHON_DEP;
  return deps.filter((dep) => !pattern.test(dep));
}

// ---- finding programs --------------------------------------------------------------------------------

function runsVersion(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(path, ["--version"], { timeout: 15_000, env: { PATH: process.env.PATH ?? "" } }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
  });
}

export async function findOnPath(program: string, path = process.env.PATH ?? ""): Promise<string | undefined> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, program);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The `@oven/bun-*` packages that can hold this platform's binary, in order of preference. Only the one npm installed
 * for this machine is there; musl and baseline builds come after, and every candidate must run `--version` anyway.
 */
export function bunPlatformPackages(platform: string = process.platform, arch: string = process.arch): string[] {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = arch === "arm64" ? "aarch64" : arch;
  const libcs = platform === "linux" ? ["", "-musl"] : [""];
  return libcs.flatMap((libc) => [`@oven/bun-${os}-${cpu}${libc}`, `@oven/bun-${os}-${cpu}${libc}-baseline`]);
}

/**
 * Where a bun binary may be, in order: the platform package's own `bin/bun` (where it is after an install that ran
 * no install scripts), the `bun` package's `bin/bun.exe` (where bun's postinstall moves it; without the postinstall it
 * is a placeholder script that fails), then `bun` on the PATH.
 */
export async function bunCandidates(): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  const resolved = (specifier: string) => {
    try {
      return [require.resolve(specifier)];
    } catch {
      return [];
    }
  };
  const packaged = [...bunPlatformPackages().flatMap((name) => resolved(`${name}/package.json`)).map((manifest) => join(dirname(manifest), "bin", exe))];
  const wrapper = resolved("bun/package.json").map((manifest) => join(dirname(manifest), "bin", "bun.exe"));
  const onPath = await findOnPath(exe);
  return [...packaged, ...wrapper, ...(onPath ? [onPath] : [])];
}

export type BunLookup = { ok: true; path: string; version: string } | { ok: false; error: string };

let bunLookup: Promise<BunLookup> | undefined;

/** The first candidate that runs `--version`; looked up once per process while found. */
export function findBun(): Promise<BunLookup> {
  bunLookup ??= (async (): Promise<BunLookup> => {
    const candidates = await bunCandidates();
    for (const path of candidates) {
      const version = await runsVersion(path);
      if (version) return { ok: true, path, version };
    }
    bunLookup = undefined;
    return {
      ok: false,
      error:
        `bun is not available on this server: none of ${candidates.length ? candidates.join(", ") : "the expected places"} runs \`--version\`. ` +
        `The project's \`bun\` dependency ships the binary in a platform package (${bunPlatformPackages()[0]} here): run \`npm install\` (or \`npm ci\`) without omitting optional dependencies.`,
    };
  })();
  return bunLookup;
}

// ---- bun -------------------------------------------------------------------------------------------------

const installs = new Map<string, Promise<NodeOutcome | undefined>>();

/** `<cacheDir>/bun/<hash>`: the folder whose node_modules holds exactly this set of dependencies. */
export function bunDepsDir(cacheDir: string, deps: string[]): string {
  const set = [...new Set(deps)].sort();
  if (set.length === 0) return join(cacheDir, "bun", "no-deps");
  return join(cacheDir, "bun", createHash("sha256").update(JSON.stringify(["v1", ...set])).digest("hex").slice(0, 16));
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function bunEnv(cacheDir: string, home: string, extras: Record<string, string> = {}): Record<string, string> {
  return scrubbedEnv(home, { ...extras, BUN_INSTALL_CACHE_DIR: join(cacheDir, "bun", ".install-cache"), DO_NOT_TRACK: "1" });
}

/** Installs the set into its folder unless it is there, one install per folder at a time; undefined when ready. */
function ensureBunDeps(bun: string, cacheDir: string, deps: string[], options: ScriptOptions): Promise<NodeOutcome | undefined> {
  const dir = bunDepsDir(cacheDir, deps);
  let pending = installs.get(dir);
  if (!pending) {
    pending = installBunDeps(bun, cacheDir, dir, deps, options)
      .catch((error: unknown) => failure(`installing ${deps.join(", ")} with bun: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => installs.delete(dir));
    installs.set(dir, pending);
  }
  return pending;
}

async function installBunDeps(bun: string, cacheDir: string, dir: string, deps: string[], options: ScriptOptions): Promise<NodeOutcome | undefined> {
  if (deps.length === 0) {
    await mkdir(dir, { recursive: true });
    return undefined;
  }
  if (await exists(join(dir, "package.json"))) return undefined;
  await mkdir(dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  await mkdir(partial, { recursive: true });
  try {
    await writeFile(join(partial, "package.json"), `${JSON.stringify({ name: "stitch-script-deps", private: true }, null, 2)}\n`);
    const timeoutMs = options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS;
    const set = [...new Set(deps)].sort();
    const result = await runProcess({
      command: [bun, "add", "--no-progress", ...set],
      cwd: partial,
      env: bunEnv(cacheDir, partial, networkEnv()),
      timeoutMs,
      maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
      limiter: options.limiter ?? processLimiter,
    });
    const outcome = outcomeOf(result, timeoutMs, `installing ${set.join(", ")} with bun: `);
    if (!outcome.ok) return outcome;
    try {
      await rename(partial, dir);
    } catch (error) {
      // Another process installed the same set meanwhile: use theirs.
      if (!(await exists(join(dir, "package.json")))) throw error;
    }
    return undefined;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

// ---- running ---------------------------------------------------------------------------------------------

/** Resolves with the promise, or with `onAbort()` as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onAbort());
  return new Promise((resolve, reject) => {
    const abort = () => resolve(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

export async function runScript(options: ScriptOptions): Promise<NodeOutcome> {
  const controller = new AbortController();
  const forward = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener("abort", forward, { once: true });
  const untrack = trackRun(options.runId, controller);
  try {
    return await prepareAndRun(options, controller.signal);
  } finally {
    options.signal?.removeEventListener("abort", forward);
    untrack();
  }
}

async function prepareAndRun(options: ScriptOptions, signal: AbortSignal): Promise<NodeOutcome> {
  const deps = options.deps ?? [];
  const bad = invalidDeps(options.runtime, deps);
  if (bad.length) {
    const expected = options.runtime === "bun" ? "npm package names with an optional @version" : "PyPI requirements such as requests or requests>=2.31";
    return failure(`invalid ${options.runtime} dependencies ${bad.map((dep) => JSON.stringify(dep)).join(", ")}: expected ${expected}`);
  }
  const source = await scriptSource(options.script, options.runtime, options.scriptsDir);
  if (!source.ok) return failure(source.error);
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const runDir = await ensureRunDir(options.workDir, options.runId);

  let command: (file: string) => string[];
  let env: Record<string, string>;
  let filesDir: string;
  if (options.runtime === "bun") {
    const bun = await findBun();
    if (!bun.ok) return failure(bun.error);
    const installed = await untilAborted(ensureBunDeps(bun.path, cacheDir, deps, options), signal, () => failure("cancelled"));
    if (installed) return installed;
    filesDir = join(bunDepsDir(cacheDir, deps), ".scripts");
    command = (file) => [bun.path, "--no-install", file];
    env = bunEnv(cacheDir, runDir, options.env);
  } else {
    const uv = await findOnPath("uv");
    if (!uv) {
      return failure(
        "uv is not installed on this server: install it from https://docs.astral.sh/uv/ (for example `curl -LsSf https://astral.sh/uv/install.sh | sh` or `pipx install uv`) and make sure `uv` is on the server's PATH, or use runtime bun",
      );
    }
    filesDir = join(cacheDir, "uv", "scripts");
    command = (file) => [uv, "run", "--no-project", "--quiet", ...[...new Set(deps)].sort().flatMap((dep) => ["--with", dep]), file];
    env = scrubbedEnv(runDir, { ...networkEnv(), ...options.env, UV_CACHE_DIR: join(cacheDir, "uv", "cache") });
  }

  await mkdir(filesDir, { recursive: true });
  const fileDir = await mkdtemp(join(filesDir, `${options.runId}-`));
  try {
    const file = join(fileDir, `script${source.extension}`);
    await writeFile(file, source.code);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const result = await runProcess({
      command: command(file),
      cwd: runDir,
      env,
      timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      limiter: options.limiter ?? processLimiter,
      signal,
    });
    return outcomeOf(result, timeoutMs);
  } finally {
    await rm(fileDir, { recursive: true, force: true });
  }
}
