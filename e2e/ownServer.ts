/**
 * A server of a spec's own, on a fresh database (as `npm start` on a fresh clone: nobody has an account yet), serving
 * the build the suite's own server made (playwright.config.ts). For specs that need an install nobody else's spec has
 * touched: the first account, where each person lands.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { expect } from "@playwright/test";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });

export interface OwnServer {
  baseURL: string;
  stop(): Promise<void>;
}

export async function startOwnServer(): Promise<OwnServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/server.ts"], { env: { ...process.env, E2E_PORT: String(port) }, stdio: "ignore" });
  await expect.poll(async () => (await fetch(`${baseURL}/health`).catch(() => undefined))?.ok ?? false, { timeout: 120_000, intervals: [500] }).toBe(true);
  return {
    baseURL,
    async stop() {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
