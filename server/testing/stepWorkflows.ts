/**
 * For this folder's integration tests: the seed's example definition, and a client of a running server's step
 * workflow surface (REST, and tRPC over HTTP as the app calls it) that polls a run until it ends (never a timing
 * assertion). The test files start the server themselves (server/testing/harness), so this module imports nothing
 * test-only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunStep, StepRunView } from "../workflows/steps/schemas";
import { asTestOperator } from "./credentials";

/** The example of the Summit-Flow specification, as written there. */
export const SEED_EXAMPLE = {
  id: "investigation-v1",
  name: "Standard Corporate Due Diligence",
  version: "1.0.0",
  inputs: [
    { name: "company_name", type: "string" },
    { name: "jurisdiction", type: "string", optional: true },
  ],
  steps: [
    { id: "google_search", tool: "search.google", params: { query: "site:linkedin.com/company {{inputs.company_name}}" } },
    { id: "extract_executives", tool: "llm.extract_entities", params: { text: "{{google_search.output}}", schema: "Person" }, retries: 2 },
    { id: "enrich_graph", tool: "graph.create_nodes", params: { nodes: "{{extract_executives.output}}", edge_type: "WORKS_FOR" } },
  ],
  outputs: { summary: "{{extract_executives.summary}}", graph_update_count: "{{enrich_graph.count}}" },
};

/** A status and a JSON body. */
export interface Answer {
  status: number;
  /** Whatever shape the route answers. */
  body: any;
}

const ENDED = ["completed", "failed", "cancelled"];

export class StepClient {
  constructor(readonly url: string) {}

  async request(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
    const init: RequestInit = { method, headers: asTestOperator };
    if (body !== undefined) Object.assign(init, { headers: { "content-type": "application/json", ...asTestOperator }, body: JSON.stringify(body) });
    const response = await fetch(`${this.url}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  register(definition: unknown): Promise<Answer> {
    return this.request("POST", "/api/workflows", definition);
  }

  start(name: string, inputs?: Record<string, unknown>): Promise<Answer> {
    return this.request("POST", `/api/workflows/${encodeURIComponent(name)}/runs`, inputs === undefined ? {} : { inputs });
  }

  execute(body: Record<string, unknown>): Promise<Answer> {
    return this.request("POST", "/api/workflows/execute", body);
  }

  async run(runId: string): Promise<StepRunView> {
    const answer = await this.request("GET", `/api/workflows/runs/${runId}`);
    if (answer.status !== 200) throw new Error(`GET run ${runId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as StepRunView;
  }

  /** The run once `done` holds for it; fails with the run as last read when it does not within `timeoutMs`. */
  async until(runId: string, done: (run: StepRunView) => boolean, timeoutMs = 30_000): Promise<StepRunView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.run(runId);
      if (done(run)) return run;
      if (Date.now() > deadline) throw new Error(`timed out waiting for run ${runId}; last read: ${JSON.stringify(run, null, 2)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The run once it has ended (completed, failed or cancelled). */
  settled(runId: string, timeoutMs?: number): Promise<StepRunView> {
    return this.until(runId, (run) => ENDED.includes(run.status), timeoutMs);
  }

  /** Registers the definition (its next version), runs it with `inputs` and answers the run once it has ended. */
  async runToEnd(definition: { id: string; [field: string]: unknown }, inputs: Record<string, unknown> = {}): Promise<StepRunView> {
    const registered = await this.register(definition);
    if (registered.status !== 201) throw new Error(`registering ${definition.id}: ${registered.status} ${JSON.stringify(registered.body)}`);
    const started = await this.start(definition.id, inputs);
    if (started.status !== 201) throw new Error(`starting ${definition.id}: ${started.status} ${JSON.stringify(started.body)}`);
    return this.settled(started.body.id);
  }

  /** A tRPC procedure over HTTP, as the app calls it: a query by GET, a mutation by POST. Answers its data or throws its error. */
  async trpc(kind: "query" | "mutation", procedure: string, input?: unknown): Promise<any> {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const answer =
      kind === "query" ? await this.request("GET", `/trpc/${procedure}${query}`) : await this.request("POST", `/trpc/${procedure}`, input ?? {});
    if (answer.status !== 200) throw Object.assign(new Error(`tRPC ${procedure}: ${answer.status} ${JSON.stringify(answer.body)}`), { answer });
    return answer.body.result.data;
  }
}

/** The step `id` of the run. */
export function stepOf(run: StepRunView, id: string): RunStep {
  const found = run.steps.find((step) => step.step_id === id);
  if (!found) throw new Error(`run ${run.id} has no step "${id}": ${run.steps.map((s) => s.step_id).join(", ")}`);
  return found;
}

/** Each step's status, by id. */
export const statuses = (run: StepRunView): Record<string, string> => Object.fromEntries(run.steps.map((step) => [step.step_id, step.status]));

/** A temporary directory (a server's DATA_DIR, for its embedded graph), and how to remove it. */
export function temporaryDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
