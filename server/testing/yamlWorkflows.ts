/**
 * For this folder's integration tests: the real server on a test database, with a WORKFLOWS_DIR and a work directory
 * of its own, and a driver that registers and runs workflows through the front door's commands and queries, polls a
 * run until it reaches a state (never a timing assertion), and speaks its REST surface. The test file passes in how
 * a server is started (server/testing/harness), so this module imports nothing test-only itself. For the references'
 * unit tests: a substitution context made of node outputs.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../db/client";
import type { NodeOutput, SubstitutionContext } from "../workflows/yaml/references";
import type { RegisteredWorkflow, WorkflowConversation, WorkflowRunView } from "../workflows/yaml/schemas";
import type { YamlWorkflows } from "../workflows/yaml/workflows";
import { asTestOperator } from "./credentials";

/** A context whose nodes have these outputs (completed unless given as a NodeOutput). */
export function context(outputs: Record<string, string | NodeOutput>, extra: Partial<SubstitutionContext> = {}): SubstitutionContext {
  return {
    runMessage: "the message",
    runId: "run-42",
    outputOf: (id) => {
      const out = outputs[id];
      return typeof out === "string" ? { status: "completed", output: out } : out;
    },
    ...extra,
  };
}

/** What of a running server the tests use (server/testing/harness's TestServer is one). */
export interface WorkflowServer {
  workflows: YamlWorkflows;
  url: string;
  close(): Promise<void>;
}

export type StartServer = (database: Database, env: Record<string, string>) => Promise<WorkflowServer>;

/** Reads until `done` holds; fails with the last value read when it does not within `timeoutMs`. */
export async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value, null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FINISHED = ["completed", "failed", "cancelled"];

/** An answer of the REST surface: its status and its JSON body. */
export interface RestAnswer {
  status: number;
  /** Whatever shape the route answers. */
  body: any;
}

/** Registers, runs and reads workflows on whichever server `current()` returns (it changes across a restart). */
export class WorkflowDriver {
  constructor(private readonly current: () => WorkflowServer) {}

  get server(): WorkflowServer {
    return this.current();
  }

  register(yaml: string): Promise<RegisteredWorkflow> {
    return this.server.workflows.commands.register(yaml);
  }

  /** Registers the definition (its next version) and starts a run of it. */
  async run(yaml: string, message = "hello"): Promise<WorkflowRunView> {
    const registered = await this.register(yaml);
    return this.server.workflows.commands.startRun(registered.name, { message });
  }

  get(runId: string): Promise<WorkflowRunView> {
    return this.server.workflows.queries.getRun(runId);
  }

  conversation(runId: string): Promise<WorkflowConversation> {
    return this.server.workflows.queries.conversation(runId);
  }

  /** The run once `done` holds for it. */
  until(runId: string, done: (run: WorkflowRunView) => boolean, timeoutMs?: number): Promise<WorkflowRunView> {
    return waitFor(() => this.get(runId), done, timeoutMs);
  }

  /** The run once it has finished (completed, failed or cancelled). */
  settled(runId: string, timeoutMs?: number): Promise<WorkflowRunView> {
    return this.until(runId, (run) => FINISHED.includes(run.status), timeoutMs);
  }

  /** The run once node `nodeId` has status `status`. */
  nodeIs(runId: string, nodeId: string, status: string, timeoutMs?: number): Promise<WorkflowRunView> {
    return this.until(runId, (run) => run.nodes[nodeId]?.status === status, timeoutMs);
  }

  /** A request to the REST surface: a string body is sent as YAML, anything else as JSON. */
  async rest(method: string, path: string, body?: unknown): Promise<RestAnswer> {
    const init: RequestInit = { method, headers: asTestOperator };
    if (typeof body === "string") init.headers = { "content-type": "application/yaml", ...asTestOperator };
    else if (body !== undefined) init.headers = { "content-type": "application/json", ...asTestOperator };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await fetch(`${this.server.url}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
}

export interface WorkflowSuite extends WorkflowDriver {
  /** The server's WORKFLOWS_DIR (with `commands/` and `scripts/`) and WORKFLOW_WORK_DIR. */
  readonly workflowsDir: string;
  readonly workDir: string;
  /** The working directory bash and script nodes of the run share. */
  runDir(runId: string): string;
}

export interface SuiteOptions {
  /** Opens the test database (one of server/testing/databases). */
  open: () => Promise<{ database: Database; drop(): Promise<void> }>;
  start: StartServer;
  /** The server's environment on top of the suite's (read when the server starts, after earlier `beforeAll`s ran). */
  env?: () => Record<string, string>;
}

/**
 * A server for the tests of one `describe`: started before them with WORKFLOW_SHELL on (unless `env` says otherwise),
 * WORKFLOWS_DIR and WORKFLOW_WORK_DIR in a temporary folder, and a fast dispatcher poll; stopped and removed after them.
 */
export function workflowSuite(options: SuiteOptions): WorkflowSuite {
  let server: WorkflowServer | undefined;
  let opened: Awaited<ReturnType<SuiteOptions["open"]>> | undefined;
  const root = mkdtempSync(join(tmpdir(), "stitch-wf-"));
  const workflowsDir = join(root, "workflows");
  const workDir = join(root, "work");
  mkdirSync(join(workflowsDir, "commands"), { recursive: true });
  mkdirSync(join(workflowsDir, "scripts"), { recursive: true });

  beforeAll(async () => {
    opened = await options.open();
    const env = { WORKFLOWS_DIR: workflowsDir, WORKFLOW_WORK_DIR: workDir, WORKFLOW_SHELL: "on", DISPATCH_POLL_MS: "50", ...options.env?.() };
    server = await options.start(opened.database, env);
  });
  afterAll(async () => {
    await server?.close();
    await opened?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const driver = new WorkflowDriver(() => {
    if (!server) throw new Error("the suite's server has not started");
    return server;
  });
  return Object.assign(driver, { workflowsDir, workDir, runDir: (runId: string) => join(workDir, runId) });
}
