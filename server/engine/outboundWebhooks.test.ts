/**
 * Workers' webhooks under the outbound-address policy (server/lib/outboundPolicy.ts, policedFetch.ts, ownServer.ts), through the real server:
 * a literal refused address is a 400 at registration naming the node and the policy; a host name that resolves to a
 * refused address, or a redirect to one, fails the node at dispatch naming the policy, after one attempt; this
 * server's own routes are never a worker's webhook, its built-in agents always are.
 * No traffic leaves 127.0.0.1: refused literal addresses are refused before any connection (net.connect is watched and
 * throws for any other address), and host names resolve through a stubbed resolver.
 */
import type { LookupAddress } from "node:dns";
import { readFileSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabases } from "../testing/databases";
import { graphOf, workerNode } from "../testing/flows";
import { LOOPBACK_ALLOWED } from "../testing/harness";
import { routeByPath } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, echoWorker, startWorkerServer } from "../testing/workerServer";

/** OUTBOUND_ALLOW as the committed `.env` sets it, read from the file itself. */
const committedOutboundAllow = /^OUTBOUND_ALLOW=(.*)$/m.exec(readFileSync(new URL("../../.env", import.meta.url), "utf8"))?.[1]?.trim() ?? "";

/** The stubbed resolver: every name the tests use, and nothing else. */
const names: Record<string, string> = { "metadata.test": "169.254.169.254", "self.test": "127.0.0.1" };
const lookup = vi.fn(async (hostname: string): Promise<LookupAddress[]> => {
  const address = names[hostname];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return [{ address, family: 4 }];
});

/** Addresses sockets were opened to; any address but loopback throws instead of connecting. */
const connects: string[] = [];
beforeAll(() => {
  const real = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
  vi.spyOn(net, "connect").mockImplementation(((...args: unknown[]) => {
    const host = String((args[0] as { host?: string } | undefined)?.host);
    connects.push(host);
    if (net.isIP(host) && !host.startsWith("127.") && host !== "::1") throw new Error(`test guard: no connection to ${host}`);
    return real(...args);
  }) as typeof net.connect);
});
afterAll(() => {
  vi.restoreAllMocks();
  expect(connects.filter((host) => net.isIP(host) && !host.startsWith("127.") && host !== "::1")).toEqual([]);
});

const brief = "A mobile wallet that lets street vendors accept QR payments and see daily totals.";

it("the committed .env allows loopback, as the test servers do", () => {
  expect(committedOutboundAllow).toBe(LOOPBACK_ALLOWED);
});

describe.each(testDatabases)("Workers' webhooks under the outbound policy on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  /** A pipeline run (built-in agents) that a webhook at this server's own routes would cancel. */
  let pipelineRunId: string;

  beforeAll(async () => {
    worker = await startWorkerServer(
      routeByPath({
        echo: echoWorker(),
        "to-metadata": (_dispatch, res) => void res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
        "to-self": (_dispatch, res) => void res.writeHead(307, { location: `${env.server.url}/runs/${pipelineRunId}/cancel` }).end(),
      }),
    );
    env = await serverOn(testDatabase, { OUTBOUND_ALLOW: committedOutboundAllow }, { outboundLookup: lookup });
    const created = await env.api.post("/runs", { domain: "fintech", brief });
    expect(created.status).toBe(200);
    pipelineRunId = created.body.run_id;
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const register = (webhookUrl: string) => env.api.post("/api/stitch/flows", { name: "outbound", graph: graphOf([workerNode("fetch", webhookUrl)]) });
  const eventTypes = async (runId: string) => ((await env.api.get(`/api/stitch/runs/${runId}/events`)).body as { type: string }[]).map((e) => e.type);
  const pipelineStatus = async () => (await env.api.get(`/runs/${pipelineRunId}`)).body.status as string;

  it("refuses at registration (400) a Worker at a link-local or metadata address, or a private one OUTBOUND_ALLOW does not list, naming the node and the policy", async () => {
    const before = (await env.server.engine.listFlows()).length;
    for (const [url, why] of [
      ["http://169.254.169.254/latest/meta-data/", "always refused"],
      ["http://[fe80::1]/hook", "always refused"],
      ["http://10.1.2.3:8080/hook", "refused unless OUTBOUND_ALLOW lists it"],
      ["http://192.168.1.10/hook", "refused unless OUTBOUND_ALLOW lists it"],
    ] as const) {
      const answer = await register(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body).toMatchObject({ error: "invalid_graph", message: expect.stringContaining('Worker node "fetch"') });
      expect(answer.body.message).toContain("outbound-address policy");
      expect(answer.body.message).toContain(why);
    }
    expect(await env.server.engine.listFlows()).toHaveLength(before);
  });

  it("runs a loopback worker under the committed .env's OUTBOUND_ALLOW", async () => {
    const run = await env.api.run(graphOf([workerNode("fetch", `${worker.url}/echo`)]), { n: 1 });
    const done = await env.api.waitForRun(run.id, (r) => r.status === "completed", "the loopback worker's run completed");
    expect(done.node_states.fetch).toMatchObject({ status: "completed", output: { echoed: { n: 1 } } });
  });

  it("refuses a webhookUrl at this server's own routes: literal at registration, by name at dispatch; the run is not touched", async () => {
    const port = env.server.port;
    for (const url of [`${env.server.url}/runs/${pipelineRunId}/cancel`, `http://localhost:${port}/runs/${pipelineRunId}/cancel`, `${env.server.url}/api/stitch/flows`]) {
      const answer = await register(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.message).toContain("is this server itself");
    }
    const run = await env.api.run(graphOf([workerNode("fetch", `http://self.test:${port}/runs/${pipelineRunId}/cancel`)]));
    const failed = await env.api.waitForStatus(run.id, "fetch", "failed");
    expect(failed.node_states.fetch!.error).toContain("refused by the outbound-address policy");
    expect(failed.node_states.fetch!.error).toContain("is this server itself");
    expect(failed.node_states.fetch!.error).toMatch(/\(1 attempt\)$/);
    expect(await pipelineStatus()).not.toBe("CANCELLED");
  });

  it("fails the node at dispatch, naming the policy, when the webhook's host resolves to a metadata address: one attempt, no connection", async () => {
    const run = await env.api.run(graphOf([workerNode("fetch", "http://metadata.test/latest/meta-data/")]));
    const failed = await env.api.waitForStatus(run.id, "fetch", "failed");
    expect(failed.node_states.fetch!.error).toBe(
      "could not deliver to http://metadata.test/latest/meta-data/: refused by the outbound-address policy (OUTBOUND_ALLOW): " +
        "metadata.test resolves to 169.254.169.254, which is a link-local or cloud-metadata address, which is always refused (1 attempt)",
    );
    expect(await eventTypes(run.id)).toEqual(["start", "delivery_failed"]);
    expect(lookup).toHaveBeenCalledWith("metadata.test", { all: true });
  });

  it("does not follow a redirect to a refused address or to this server's own routes", async () => {
    const toMetadata = await env.api.run(graphOf([workerNode("fetch", `${worker.url}/to-metadata`)]));
    const metadataFailure = (await env.api.waitForStatus(toMetadata.id, "fetch", "failed")).node_states.fetch!.error;
    expect(metadataFailure).toContain("refused by the outbound-address policy");
    expect(metadataFailure).toContain("169.254.169.254 is a link-local or cloud-metadata address, which is always refused (redirect 1)");

    const toSelf = await env.api.run(graphOf([workerNode("fetch", `${worker.url}/to-self`)]));
    const selfFailure = (await env.api.waitForStatus(toSelf.id, "fetch", "failed")).node_states.fetch!.error;
    expect(selfFailure).toContain("is this server itself");
    expect(await eventTypes(toSelf.id)).toEqual(["start", "delivery_failed"]);
    expect(await pipelineStatus()).not.toBe("CANCELLED");
  });
});

describe.each(testDatabases)("with OUTBOUND_ALLOW unset on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  beforeAll(async () => {
    env = await serverOn(testDatabase, { OUTBOUND_ALLOW: "" }, { outboundLookup: lookup });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("refuses a loopback worker at registration, and the built-in agents (this server) still answer", async () => {
    const answer = await env.api.post("/api/stitch/flows", { name: "loopback", graph: graphOf([workerNode("A", "http://127.0.0.1:5678/webhook/x")]) });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("a loopback or private address, refused unless OUTBOUND_ALLOW lists it");

    const created = await env.api.post("/runs", { domain: "fintech", brief });
    expect(created.status).toBe(200);
    const runId = created.body.run_id as string;
    await vi.waitFor(async () => expect((await env.api.get(`/runs/${runId}`)).body.status).toBe("WAITING_APPROVAL_REQUIREMENTS"), { timeout: 20_000, interval: 50 });
  });
});
