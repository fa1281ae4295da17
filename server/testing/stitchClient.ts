/**
 * A test client for the REST API (/api/stitch/...) over real HTTP, plus a worker behaviour that routes
 * dispatches by URL path, so one worker server can play several workers (`/echo`, `/hold`, `/fail`).
 */
import type { StitchFlow, StitchGraph, StitchRun, WorkerPayload } from "../engine/schemas";
import { type ReceivedDispatch, type WorkerBehaviour, eventually } from "./workerServer";

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

import { testBootstrapToken } from "./credentials";

export { testBootstrapToken };

export class StitchClient {
  /** `token`: sent as `Authorization: Bearer`, the test server's operator token unless another (or none) is given. */
  constructor(
    readonly baseUrl: string,
    readonly token: string | null = testBootstrapToken,
  ) {}

  /** The same client acting as someone else (a person's API token), or as no one (`null`). */
  as(token: string | null): StitchClient {
    return new StitchClient(this.baseUrl, token);
  }

  private auth(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  /** Sends `body` as JSON, or a string as the raw body (for malformed JSON). */
  async post<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...this.auth(), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  /** Any method; a body (as JSON) is sent with every method but GET. */
  async request<T = any>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...this.auth() },
      body: method === "GET" || body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async get<T = any>(path: string): Promise<Answer<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: this.auth() });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async createFlow(graph: StitchGraph, name = "test flow"): Promise<StitchFlow> {
    const answer = await this.post<StitchFlow>("/api/stitch/flows", { name, graph });
    if (answer.status !== 201) throw new Error(`creating the flow answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async startRun(flowId: string, input?: unknown): Promise<StitchRun> {
    const answer = await this.post<StitchRun>(`/api/stitch/flows/${flowId}/runs`, { input });
    if (answer.status !== 201) throw new Error(`starting the run answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** Creates the flow and starts one run of it. */
  async run(graph: StitchGraph, input?: unknown): Promise<StitchRun> {
    const flow = await this.createFlow(graph);
    return this.startRun(flow.id, input);
  }

  async getRun(runId: string): Promise<StitchRun> {
    const answer = await this.get<StitchRun>(`/api/stitch/runs/${runId}`);
    if (answer.status !== 200) throw new Error(`reading run ${runId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  callback(runId: string, nodeId: string, body: unknown) {
    return this.post(`/api/stitch/callback/${runId}/${nodeId}`, body);
  }

  complete(runId: string, nodeId: string, body?: unknown, headers?: Record<string, string>) {
    return this.post(`/api/stitch/complete/${runId}/${nodeId}`, body, headers);
  }

  retry(runId: string, nodeId: string) {
    return this.post(`/api/stitch/retry/${runId}/${nodeId}`);
  }

  review(runId: string, nodeId: string, body: unknown) {
    return this.post(`/api/stitch/review/${runId}/${nodeId}`, body);
  }

  /** Polls the run until `check` accepts it. */
  waitForRun(runId: string, check: (run: StitchRun) => boolean, what: string, timeoutMs = 30_000): Promise<StitchRun> {
    return eventually(async () => {
      const run = await this.getRun(runId);
      return check(run) ? run : undefined;
    }, timeoutMs, `${what} (run ${runId})`);
  }

  waitForStatus(runId: string, nodeId: string, status: string, timeoutMs?: number): Promise<StitchRun> {
    return this.waitForRun(runId, (run) => run.node_states[nodeId]?.status === status, `node ${nodeId} ${status}`, timeoutMs);
  }
}

/** Routes each dispatch to the behaviour named by the first segment of the webhook URL's path. */
export function routeByPath(routes: Record<string, WorkerBehaviour>): WorkerBehaviour {
  return (dispatch, res) => {
    const route = (dispatch.path ?? "/").split("?")[0]!.split("/")[1] ?? "";
    const behaviour = routes[route];
    if (!behaviour) return void res.writeHead(404).end(JSON.stringify({ error: `no test route "${route}"` }));
    return behaviour(dispatch, res);
  };
}

/** Answers 200 and does nothing else: the test sends the callback itself. */
export const holdWorker: WorkerBehaviour = (_dispatch, res) => void res.writeHead(200).end("{}");

export const dispatchesOf = (received: readonly ReceivedDispatch[], runId: string, nodeId?: string): WorkerPayload[] =>
  received.map((d) => d.payload).filter((p) => p.runId === runId && (nodeId === undefined || p.nodeId === nodeId));
