import react from "@vitejs/plugin-react";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { compression } from "vite-plugin-compression2";
import { defineConfig } from "vitest/config";

const here = fileURLToPath(new URL(".", import.meta.url));
const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "web",
  // Beside each script and stylesheet, its brotli (.br) and gzip (.gz) copy, which the server sends to a browser that
  // accepts it (server/http/webAppRoutes.ts). A copy no smaller than the file is not written.
  plugins: [react(), compression({ include: /\.(js|css|svg)$/, algorithms: ["brotliCompress", "gzip"], logLevel: "silent" })],
  // Mermaid and React Flow are loaded on demand, in large chunks of their own.
  // The manifest (dist/web/.vite/manifest.json, not served) names the files of each section the app loads on demand,
  // which the server names in the page it answers for that section (server/http/webAppRoutes.ts).
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
    manifest: true,
    // Everything the first page needs in one script: left alone, Rolldown puts what the main script shares with a
    // section loaded on demand into chunks of their own, eight more requests before the app can start, and over
    // HTTP/1.1 a browser opens six connections to a server, so some of them would wait a round trip for another.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] } } },
  },
  // `vite build` builds both environments: the browser's app (dist/web, above) and the app's first drawing on the server
  // (web/src/serverRender.tsx into dist/ssr, imported by server/http/webAppRoutes.ts). The drawing carries its packages
  // (React's production build among them, whatever NODE_ENV the server runs with), so it needs nothing but itself.
  builder: {},
  environments: {
    ssr: {
      resolve: { noExternal: true },
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      build: { outDir: "../dist/ssr", emptyOutDir: true, ssr: "src/serverRender.tsx", manifest: false, copyPublicDir: false },
    },
  },
  server: {
    // `npm run dev`: Vite serves the app with hot reload and forwards API calls to the server.
    proxy: Object.fromEntries(
      ["/trpc", "/api", "/runs", "/agents", "/callbacks", "/health", "/docs", "/openapi.json"].map((path) => [path, `http://localhost:${apiPort}`]),
    ),
  },
  test: {
    root: here,
    // Vitest's default is one worker less than the cores: one worker on a two-core machine, idle while its test
    // waits on a timer, a child process or HTTP. Database-backed files mostly wait, so one worker per core (two at least).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: "server",
          root: here,
          include: ["server/**/*.test.ts", "db/**/*.test.ts"],
          // The fault suite is a project of its own (`npm run faults`): long, and on a PostgreSQL it starts itself.
          exclude: ["server/faults/**", "**/node_modules/**"],
          // One migrated database of each kind per run, which every test database copies.
          globalSetup: ["server/testing/migratedTemplates.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: "forks",
          // A worker runs its files one after another on the modules it has loaded already: importing the app anew for
          // each file cost more than most files' tests. So a test file MUST leave nothing behind: close the servers,
          // databases and child processes it starts, restore the environment variables and spies it changes (vi.mock
          // would reach into later files: use a parameter or an override instead).
          isolate: false,
        },
      },
      {
        test: {
          // Faults injected into real server processes (server/faults): PostgreSQL restarted under them, and so on.
          name: "faults",
          root: here,
          include: ["server/faults/**/*.test.ts"],
          // One scenario at a time: each starts several server processes, and two at once on two cores starve each
          // other's start-up (and measure the machine, not the product).
          fileParallelism: false,
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
      {
        plugins: [react()],
        test: {
          name: "web",
          root: here,
          include: ["web/**/*.test.tsx", "web/**/*.test.ts"],
          environment: "jsdom",
          // A component test that types into many fields takes 2 s alone and more on a busy machine (jsdom is slow).
          testTimeout: 20_000,
        },
      },
    ],
  },
});
