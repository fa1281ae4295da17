/**
 * The real server for the end-to-end tests: the built app and the API on E2E_PORT, against a fresh
 * embedded PGlite directory, or, when DATABASE_URL is set (CI), a fresh scratch PostgreSQL database.
 * Both are removed when Playwright stops the server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../server/app";
import { loadConfig } from "../server/config";
import { createScratchDatabase } from "../server/testing/scratchDatabases";
import { LOOPBACK_ALLOWED } from "../server/testing/harness";
import { bootstrapToken } from "./auth";

const port = Number(process.env.E2E_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error("E2E_PORT must name the port the end-to-end server listens on (playwright.config.ts sets it)");

// The journey runs on the built-in agents: nothing may point the pipeline at n8n or an LLM.
for (const name of Object.keys(process.env)) {
  if (/^(N8N_|AGENT_WEBHOOK_|LLM_|OPENAI_|ANTHROPIC_)/.test(name)) delete process.env[name];
}

const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : null;
const dataDir = scratch ? null : await mkdtemp(join(tmpdir(), "stitch-e2e-"));

const server = await startServer(
  loadConfig({
    NEXT_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir! }),
    DISPATCH_BACKOFF_MS: "100",
    DISPATCH_POLL_MS: "200",
    // The built-in agents draft in the server itself; a third of a second, as a real agent takes some time, leaves a
    // spec room to store an output of its own first (security.spec.ts) without racing an instant answer.
    BUILTIN_AGENT_DELAY_MS: "300",
    // As the committed .env: loopback is reachable from workers' webhooks and steps' utils.http.
    OUTBOUND_ALLOW: LOOPBACK_ALLOWED,
    // An operator token for automation, which every spec but people.spec.ts sends (playwright.config.ts).
    STITCH_BOOTSTRAP_TOKEN: bootstrapToken,
  }),
);
console.log(`e2e server on http://127.0.0.1:${server.port} (${scratch ? `PostgreSQL ${new URL(scratch.url).pathname.slice(1)}` : `PGlite in ${dataDir}`})`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close().catch((error: unknown) => console.error("closing the e2e server failed:", error));
  if (scratch) await scratch.drop().catch((error: unknown) => console.error("dropping the scratch database failed:", error));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
