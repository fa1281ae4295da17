/**
 * A Stitch server as a separate operating-system process (`node --import tsx server/main.ts`), for tests where
 * several processes share one PostgreSQL database. Its output is kept so a failing test can show it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LOOPBACK_ALLOWED, freePort } from "./harness";
import { asTestOperator, testBootstrapToken } from "./credentials";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  /** The operating system's process id. */
  pid: number;
  output(): string;
  /** How the process ended (`exit 1`, `SIGKILL`), or undefined while it runs. */
  ended(): string | undefined;
  /** SIGTERM (the server's graceful shutdown), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** `kill -9`: SIGKILL at once, as a crash; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** `preload`: modules imported into the process before the server (test hooks such as stallHook.ts), paths from the repository's root. */
export async function startServerProcess(env: Record<string, string>, readyTimeoutMs = 60_000, preload: readonly string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const imports = preload.flatMap((path) => ["--import", `./${path}`]);
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", ...imports, "server/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NEXT_PUBLIC_BASE_URL: url, STITCH_BOOTSTRAP_TOKEN: testBootstrapToken, OUTBOUND_ALLOW: LOOPBACK_ALLOWED, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));

  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server process on ${url} exited with ${child.exitCode} before it was ready:\n${output}`);
    const ready = await fetch(`${url}/api/stitch/flows`, { headers: asTestOperator }).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop(0);
      throw new Error(`server process on ${url} was not ready within ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ended = () => (child.exitCode !== null ? `exit ${child.exitCode}` : child.signalCode !== null ? child.signalCode : undefined);
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGKILL");
    await exited;
  };
  return { url, pid: child.pid!, output: () => output, ended, stop, kill };
}
