import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = fileURLToPath(new URL(".", import.meta.url));
const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "web",
  plugins: [react()],
  // Mermaid and React Flow are loaded on demand, in large chunks of their own.
  build: { outDir: "../dist/web", emptyOutDir: true, chunkSizeWarningLimit: 2500 },
  server: {
    // `npm run dev`: Vite serves the app with hot reload and forwards API calls to the server.
    proxy: Object.fromEntries(
      ["/trpc", "/api", "/runs", "/agents", "/callbacks", "/health", "/docs", "/openapi.json"].map((path) => [path, `http://localhost:${apiPort}`]),
    ),
  },
  test: {
    root: here,
    projects: [
      {
        test: {
          name: "server",
          root: here,
          include: ["server/**/*.test.ts", "db/**/*.test.ts"],
          // One migrated database of each kind per run, which every test database copies.
          globalSetup: ["server/testing/migratedTemplates.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
        },
      },
    ],
  },
});
