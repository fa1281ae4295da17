/**
 * End-to-end tests: Debian's Chromium against the real server (built app + API) on a free port, with a
 * fresh PGlite directory, or a fresh scratch PostgreSQL database when DATABASE_URL is set.
 * `npm run test:e2e`; screenshots of each stage land under test-results/e2e/.
 */
import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { bootstrapHeaders, bootstrapToken } from "./e2e/auth";

// Chosen once in the runner and inherited by its workers through the environment, so all agree on the port.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })",
])
  .toString()
  .trim();
// The end-to-end server's STITCH_BOOTSTRAP_TOKEN (an operator token, e2e/auth.ts), for specs that read it from here.
process.env.E2E_BOOTSTRAP_TOKEN = bootstrapToken;
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  timeout: 240_000,
  expect: { timeout: 30_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL,
    // Every spec acts as automation with the bootstrap operator token, except people.spec.ts, which signs people in.
    extraHTTPHeaders: bootstrapHeaders,
    headless: true,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "npx vite build --logLevel warn && node --import tsx e2e/server.ts",
    url: `${baseURL}/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
