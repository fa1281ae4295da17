/** Starts the real server (HTTP, engine, dispatcher) on a free port against a test database. */
import { createServer } from "node:net";
import type { Database } from "../../db/client";
import { type RunningServer, type ServiceOverrides, startServer } from "../app";
import { loadConfig } from "../config";
import { testBootstrapToken } from "./credentials";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer extends RunningServer {
  url: string;
}

/** The committed `.env`'s OUTBOUND_ALLOW: test workers and stand-ins listen on 127.0.0.1. */
export const LOOPBACK_ALLOWED = "127.0.0.0/8,::1";

export async function startTestServer(database: Database, env: Record<string, string> = {}, overrides: ServiceOverrides = {}): Promise<TestServer> {
  const port = await freePort();
  const config = loadConfig({
    NEXT_PUBLIC_BASE_URL: `http://127.0.0.1:${env.PORT ?? port}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    DISPATCH_BACKOFF_MS: "50",
    DISPATCH_TIMEOUT_MS: "5000",
    // Due retries and timeouts wait for the dispatcher's next poll; on a test database a poll is cheap.
    DISPATCH_POLL_MS: "50",
    OUTBOUND_ALLOW: LOOPBACK_ALLOWED,
    STITCH_BOOTSTRAP_TOKEN: testBootstrapToken,
    ...env,
  });
  const server = await startServer(config, database, overrides);
  // The address it really listens on (env.PORT may have replaced the probed port).
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}
