/** `npm start`: load configuration, open and migrate the database, serve API and app on PORT. */
import { ConfigError, baseUrlMismatch, loadConfig } from "./config";
import { startServer } from "./app";

try {
  const config = loadConfig();
  const server = await startServer(config);
  const mode = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.DATA_DIR}`;
  console.log(`stitch listening on http://localhost:${server.port} (${mode}); callbacks go to ${config.NEXT_PUBLIC_BASE_URL}`);
  const mismatch = baseUrlMismatch(config.NEXT_PUBLIC_BASE_URL, server.port);
  if (mismatch) console.warn(mismatch);
  for (const { file, outcome } of server.workflowFiles) console.log(`workflow ${file}: ${outcome}`);
  const shutdown = async () => {
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}
