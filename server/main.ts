/** `npm start`: load configuration, open and migrate the database, serve API and app on PORT. */
import { type Config, baseUrlMismatch, loadConfig } from "./config";
import { ConfigError } from "./lib/configError";
import { startServer } from "./app";

/** Said once at start-up while a callback secret is missing: who can reach the server can then answer for any worker or agent. */
function unauthenticatedCallbacks(config: Config): string | undefined {
  const missing = [
    ...(config.STITCH_CALLBACK_SECRET ? [] : ["STITCH_CALLBACK_SECRET (Workers' callbacks, /api/stitch/callback/...)"]),
    ...(config.PIPELINE_CALLBACK_SECRET ? [] : ["PIPELINE_CALLBACK_SECRET (agents' callbacks, /callbacks/agent/{slug})"]),
  ];
  if (missing.length === 0) return undefined;
  const who = missing.length === 2 ? "workers or agents" : missing[0]!.startsWith("STITCH") ? "workers" : "agents";
  return (
    `warning: callbacks from ${who} are unauthenticated: anyone who can reach this server and knows a run's ids can answer for its ${who}. ` +
    `To require the token each callback URL then carries, set ${missing.join(" and ")} to a random secret of at least 16 characters.`
  );
}

try {
  const config = loadConfig();
  const server = await startServer(config);
  const mode = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.DATA_DIR}`;
  console.log(`stitch listening on http://localhost:${server.port} (${mode}); callbacks go to ${config.NEXT_PUBLIC_BASE_URL}`);
  const mismatch = baseUrlMismatch(config.NEXT_PUBLIC_BASE_URL, server.port);
  if (mismatch) console.warn(mismatch);
  const unauthenticated = unauthenticatedCallbacks(config);
  if (unauthenticated) console.warn(unauthenticated);
  for (const { file, outcome } of server.workflowFiles) console.log(`workflow ${file}: ${outcome}`);
  if (await server.people.queries.needsSetup()) console.log(`no account yet: open ${config.NEXT_PUBLIC_BASE_URL} to create the first one (an operator)`);
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
