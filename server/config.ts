/** Configuration from the environment, parsed once at start-up; a missing or bad value stops start-up with a message naming it. */
import { z } from "zod";
import { Duration } from "./engine/schemas";
import { ConfigError } from "./lib/configError";
import { describeZodError } from "./lib/zodIssues";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const Env = z.object({
  NEXT_PUBLIC_BASE_URL: z
    .string({ error: "NEXT_PUBLIC_BASE_URL is not set: set it to the public base URL of this server (for example http://localhost:3000); workers' callback URLs are built from it" })
    .url("NEXT_PUBLIC_BASE_URL must be an absolute URL such as http://localhost:3000")
    .transform((url) => url.replace(/\/+$/, "")),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  DATABASE_POOL_SIZE: positiveInt(10),
  DISPATCH_MAX_ATTEMPTS: positiveInt(5),
  DISPATCH_BACKOFF_MS: positiveInt(1000),
  DISPATCH_TIMEOUT_MS: positiveInt(30_000),
  DISPATCH_CONCURRENCY: positiveInt(64),
  DISPATCH_POLL_MS: positiveInt(1000),
  /** A claimed dispatch's lease, renewed every third of it while its process works on it: a killed process's dispatches are taken over this long after its last renewal. */
  DISPATCH_LEASE_MS: z.coerce.number().int().min(300).default(5000),
  /** The largest request body the server reads (bytes); a larger one is answered 413 before it is read. */
  MAX_BODY_BYTES: positiveInt(1024 * 1024),
  STITCH_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** An operator token for automation and tests (`Authorization: Bearer <it>`); unset: only accounts' sessions and tokens. */
  STITCH_BOOTSTRAP_TOKEN: z.string().min(32, "STITCH_BOOTSTRAP_TOKEN must be at least 32 characters (for example: openssl rand -hex 32)").optional(),
  STITCH_CALLBACK_SECRET: z.string().min(16, "STITCH_CALLBACK_SECRET must be at least 16 characters").optional(),
  /** Agents' callback_url carries a token bound to the run, the agent and the call, and /callbacks/agent/{slug} requires it. */
  PIPELINE_CALLBACK_SECRET: z.string().min(16, "PIPELINE_CALLBACK_SECRET must be at least 16 characters").optional(),
  /** The agent pipeline: a JSON definition file (default: server/pipeline/pipeline.default.json). */
  PIPELINE_DEFINITION: z.string().min(1).optional(),
  /** One n8n for all agents: each agent's webhook_path is appended. AGENT_WEBHOOK_<SLUG> overrides one agent. */
  N8N_BASE_URL: z.string().url("N8N_BASE_URL must be a URL such as http://localhost:5678").optional(),
  /** Built-in agents call this OpenAI-compatible chat-completions endpoint when it is set. */
  LLM_BASE_URL: z.string().url("LLM_BASE_URL must be a URL such as https://api.openai.com/v1").optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** The due time of a decision whose definition sets no `due_in` (`90s`, `4h`, `2d`); unset: no deadline. */
  DECISION_DUE_IN: Duration.optional(),
  /** How far towards its due time (percent) a decision is when its assignee is reminded; 0: no reminders. */
  DECISION_REMINDER_PERCENT: z.coerce.number({ error: "DECISION_REMINDER_PERCENT must be a whole number from 0 to 99" }).int().min(0).max(99).default(80),
  /** How long an agent may take to call back before its run fails with the reason (and can be retried). */
  AGENT_TIMEOUT_MS: positiveInt(30 * 60_000),
  /** An agent in progress for longer than this may be retried by an operator at once, without waiting for AGENT_TIMEOUT_MS. */
  AGENT_STUCK_AFTER_MS: positiveInt(5 * 60_000),
  /** The least time each built-in agent takes to draft (0: none): a draft in progress to watch in a demo, or to kill in the fault suite. */
  BUILTIN_AGENT_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** YAML workflows: `*.yaml` loaded at start-up, `commands/<name>.md` for command nodes, `scripts/` for named scripts. */
  WORKFLOWS_DIR: z.string().min(1).default("./workflows"),
  /** `on`: workflows with bash and script nodes (code run on this server) may be registered and run. */
  WORKFLOW_SHELL: z.enum(["on", "off"], { error: "WORKFLOW_SHELL must be on or off" }).default("off"),
  /** Where each workflow run gets its working directory for bash and script nodes (default: <DATA_DIR>/workflow-runs). */
  WORKFLOW_WORK_DIR: z.string().min(1).optional(),
  /** Step workflows' `search.google`: a SerpApi key; without one the step fails naming this variable. */
  SERPAPI_API_KEY: z.string().optional(),
  /** SerpApi's address (default https://serpapi.com): a self-hosted proxy, or a test's stand-in. */
  SERPAPI_BASE_URL: z.string().url("SERPAPI_BASE_URL must be a URL such as https://serpapi.com").optional(),
  /**
   * Loopback and private addresses that URLs from users (a step's `utils.http`, a Worker's webhookUrl) may reach: comma-separated CIDRs,
   * addresses or host names (`127.0.0.0/8,::1`). Unset: public addresses only. Link-local and cloud-metadata
   * addresses are refused whatever it says. Read by server/lib/outboundPolicy, which reports a bad entry at start-up.
   */
  OUTBOUND_ALLOW: z.string().optional(),
  /**
   * Email to people about their decisions and runs, sent over SMTP: `smtp://user:pass@mail.example:587`, or
   * `smtps://...` for TLS from the first byte. Unset: no email.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, "SMTP_URL must be an SMTP URL such as smtp://user:password@mail.example.com:587 (smtps:// for TLS)")
    .optional(),
  /** The sender of those emails (default: Stitch <stitch@ the host of NEXT_PUBLIC_BASE_URL>). */
  SMTP_FROM: z.string().min(3).optional(),
  /** Webhook subscriptions and email: attempts per delivery, the first backoff (doubled each time), each attempt's timeout, in flight at once, how often to look. */
  NOTIFY_MAX_ATTEMPTS: positiveInt(8),
  NOTIFY_BACKOFF_MS: positiveInt(5000),
  NOTIFY_TIMEOUT_MS: positiveInt(10_000),
  NOTIFY_CONCURRENCY: positiveInt(16),
  NOTIFY_POLL_MS: positiveInt(1000),
  /** Events older than this (and their deliveries and emails, once settled) are forgotten. */
  NOTIFY_RETENTION_DAYS: positiveInt(30),
  /** The graph tools' database: Neo4j at this bolt:// or neo4j:// URL (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE); unset: the embedded graph under DATA_DIR. */
  NEO4J_URL: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/\S+$/, "NEO4J_URL must be a Neo4j URL such as bolt://localhost:7687 or neo4j+s://xxxx.databases.neo4j.io")
    .optional(),
});

/** The parsed settings, plus the raw environment for the per-agent AGENT_WEBHOOK_<SLUG> overrides. */
export type Config = z.infer<typeof Env> & { env: Record<string, string> };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(`configuration error:\n  ${describeZodError(parsed.error, { root: "environment", separator: "\n  " })}`);
  }
  return { ...parsed.data, env: cleaned as Record<string, string> };
}

/**
 * A warning when NEXT_PUBLIC_BASE_URL names this machine on another port than the one the server listens on
 * (`PORT=4000 npm start` with the committed `.env`): workers' callbacks and the built-in agents would go elsewhere.
 */
export function baseUrlMismatch(baseUrl: string, listeningPort: number): string | undefined {
  const url = new URL(baseUrl);
  if (!["localhost", "127.0.0.1", "[::1]", "0.0.0.0"].includes(url.hostname)) return undefined;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (port === listeningPort) return undefined;
  return (
    `warning: NEXT_PUBLIC_BASE_URL is ${baseUrl}, but this server listens on port ${listeningPort}; ` +
    `callbacks from workers and the built-in agents will not reach it. Set NEXT_PUBLIC_BASE_URL=${url.protocol}//${url.hostname}:${listeningPort}` +
    ` (or leave it if a proxy on port ${port} forwards here).`
  );
}
