/**
 * A pipeline run forked on `version: "latest"`, on every test database: the pipeline in force when it is forked (a
 * deployment that changed its definition runs a flow of its own beside the old one). A latest pipeline that keeps the
 * copied agents runs the fork on it (its agents and nodes); one that lacks an agent the fork would copy refuses the
 * fork with 409 naming its nodes, making nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PipelineForkCommands } from "./forkCommands";
import { flowIdFor, pipelineGraph, readDefinitionFile, resolveAgents, defaultDefinitionPath } from "./definition";
import type { PipelineAgent, PipelineRunView } from "./schemas";
import { testDatabases } from "../testing/databases";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import type { Identity } from "../people/schemas";

const operator: Identity = { kind: "bootstrap", accountId: null, name: "bootstrap token", role: "operator" };

describe.each(testDatabases)("pipeline forks on the latest pipeline on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let n8n: FakeN8n;
  let runId: string;

  /** A pipeline definition as a deployment might change it, installed beside the one the server runs. */
  async function latestPipeline(change: (agents: PipelineAgent[]) => PipelineAgent[]): Promise<PipelineForkCommands> {
    const agents = change(resolveAgents(readDefinitionFile(defaultDefinitionPath), { N8N_BASE_URL: n8n.url }, () => `${n8n.url}/unused`));
    const graph = pipelineGraph(agents, 60_000);
    const flowId = flowIdFor(graph);
    await env.server.engine.ensureFlow(flowId, "agent pipeline", graph);
    return new PipelineForkCommands(env.server.engine, { flowId, agents });
  }

  const waitingAt = (id: string, agent: string) =>
    eventually(async () => {
      const run = (await env.api.get<PipelineRunView>(`/runs/${id}`)).body;
      return run.state.phase === "waiting_approval" && run.state.agent === agent ? run : undefined;
    }, 30_000, `run ${id} waiting for ${agent}`);

  beforeAll(async () => {
    let base = "";
    n8n = await startFakeN8n(() => base);
    env = await serverOn(testDatabase, { N8N_BASE_URL: n8n.url });
    base = env.server.url;
    runId = (await env.api.post<PipelineRunView>("/runs", { domain: "fintech", brief: "A wallet for street vendors that takes QR payments and shows daily totals." })).body.run_id;
    await waitingAt(runId, "requirements");
    expect((await env.api.post(`/runs/${runId}/approve`, {})).status).toBe(200);
    await waitingAt(runId, "inception");
  });
  afterAll(async () => {
    await env?.close();
    await n8n?.close();
  });

  it("runs the fork on the latest pipeline when it keeps the copied agents", async () => {
    const withSecurity = await latestPipeline((agents) => [...agents, { ...agents.at(-1)!, slug: "security", name: "Security", order: agents.length + 1, artifact_type: "security_review" }]);
    const engineRunId = await env.server.engine.engineRunIdOf(runId);
    const forked = await withSecurity.fork(engineRunId, { node_id: "agent_inception", version: "latest" }, operator);
    const forkId = forked.path.replace("/app/runs/", "");
    const fork = await waitingAt(forkId, "inception");
    expect(fork.forked_from).toMatchObject({ run_id: runId, version: "latest" });
    expect(Object.keys(forked.run.node_states)).toContain("agent_security");
    expect((await env.api.get<{ slug: string }[]>("/agents")).body.map((a) => a.slug)).not.toContain("security");
  });

  it("refuses, naming the nodes, a latest pipeline that lacks an agent the fork would copy", async () => {
    const renamed = await latestPipeline((agents) => agents.map((a) => (a.slug === "requirements" ? { ...a, slug: "needs" } : a)));
    const engineRunId = await env.server.engine.engineRunIdOf(runId);
    const before = (await env.api.get<PipelineRunView>(`/runs/${runId}`)).body.forks.length;
    await expect(renamed.fork(engineRunId, { node_id: "agent_inception", version: "latest" }, operator)).rejects.toMatchObject({
      code: "conflict", message: expect.stringContaining('no node "agent_requirements", "review_requirements"'),
    });
    expect((await env.api.get<PipelineRunView>(`/runs/${runId}`)).body.forks.length).toBe(before);
  });
});
