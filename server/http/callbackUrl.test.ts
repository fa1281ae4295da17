/**
 * Requirement 12 (and 4.3/4.4): callback URLs come from NEXT_PUBLIC_BASE_URL and nothing else, and a server
 * without it refuses to start with a configuration error that names the variable.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrlMismatch, loadConfig } from "../config";
import { ConfigError } from "../lib/configError";
import { pglite } from "../testing/databases";
import { graphOf, workerNode } from "../testing/flows";
import { freePort } from "../testing/harness";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, startWorkerServer } from "../testing/workerServer";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

describe("Requirement 12: callback URL construction", () => {
  it("12.3 loadConfig throws a ConfigError naming NEXT_PUBLIC_BASE_URL when it is not set (or empty)", () => {
    for (const env of [{}, { NEXT_PUBLIC_BASE_URL: "" }, { PORT: "3000" }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/NEXT_PUBLIC_BASE_URL is not set/);
    }
    expect(() => loadConfig({ NEXT_PUBLIC_BASE_URL: "not a url" })).toThrow(/NEXT_PUBLIC_BASE_URL must be an absolute URL/);
  });

  it("12.1 reads the base URL from NEXT_PUBLIC_BASE_URL (a trailing slash is dropped)", () => {
    expect(loadConfig({ NEXT_PUBLIC_BASE_URL: "https://stitch.example.test/" }).NEXT_PUBLIC_BASE_URL).toBe("https://stitch.example.test");
    expect(loadConfig({ NEXT_PUBLIC_BASE_URL: "https://example.test/stitch" }).NEXT_PUBLIC_BASE_URL).toBe("https://example.test/stitch");
  });

  it("warns when the base URL names this machine on another port than the server listens on", () => {
    expect(baseUrlMismatch("http://localhost:3000", 3000)).toBeUndefined();
    expect(baseUrlMismatch("http://localhost", 80)).toBeUndefined();
    expect(baseUrlMismatch("https://stitch.example.test", 3000)).toBeUndefined();
    expect(baseUrlMismatch("http://localhost:3000", 4000)).toMatch(/listens on port 4000.*NEXT_PUBLIC_BASE_URL=http:\/\/localhost:4000/);
    expect(baseUrlMismatch("http://127.0.0.1:3000/base", 4000)).toMatch(/NEXT_PUBLIC_BASE_URL=http:\/\/127\.0\.0\.1:4000/);
  });

  it("12.3 the server process exits at start-up with the configuration error when NEXT_PUBLIC_BASE_URL is missing", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), HOST: "127.0.0.1" };
    delete env.NEXT_PUBLIC_BASE_URL;
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(output).toMatch(/NEXT_PUBLIC_BASE_URL is not set/);
    expect(output).not.toMatch(/listening/);
  });

  it("12.4 the engine's and routes' source holds no hard-coded host for callbacks", () => {
    for (const file of ["server/engine/transition.ts", "server/engine/engine.ts", "server/engine/dispatcher.ts", "server/http/stitchRoutes.ts"]) {
      const source = readFileSync(`${repoRoot}/${file}`, "utf8");
      expect(source, file).not.toMatch(/localhost|127\.0\.0\.1|https?:\/\/[a-z0-9.-]+\.(com|io|dev|app)/i);
    }
  });

  describe("through a running server", () => {
    let env: ServerOnTestDatabase;
    let worker: WorkerServer;
    const publicBase = "https://callbacks.example.test/";

    beforeAll(async () => {
      worker = await startWorkerServer(holdWorker);
      env = await serverOn(pglite, { NEXT_PUBLIC_BASE_URL: publicBase });
    });
    afterAll(async () => {
      await env?.close();
      await worker?.close();
    });

    it("12.2/4.3 prepends NEXT_PUBLIC_BASE_URL, not the address the server listens on, to the callback path", async () => {
      const run = await env.api.run(graphOf([workerNode("Node-1", worker.url)]));
      const [delivery] = await worker.waitFor(1);
      expect(delivery!.payload.callbackUrl).toBe(`https://callbacks.example.test/api/stitch/callback/${run.id}/Node-1`);
      expect(delivery!.payload.callbackUrl.startsWith(env.server.url)).toBe(false);
    });
  });
});
