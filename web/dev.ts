/**
 * `npm run dev`: the API server and Vite's dev server (hot reload) in one process. Vite serves the app
 * and forwards the server's paths (/trpc, /api, /runs, ...) to the API through the proxy in vite.config.ts.
 */
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { startServer } from "../server/app";
import { loadConfig } from "../server/config";
import { ConfigError } from "../server/lib/configError";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}

const api = await startServer(config);
// The proxy in vite.config.ts reads PORT when the config loads, so it must name the port the API actually took.
process.env.PORT = String(api.port);

const vite = await createServer({
  configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
  server: { port: Number(process.env.VITE_PORT ?? 5173), strictPort: false },
});
await vite.listen();

console.log(`API on http://localhost:${api.port}; the app with hot reload:`);
vite.printUrls();

const shutdown = async () => {
  await vite.close();
  await api.close();
  process.exit(0);
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
