// This server as the target of its own outbound requests (ownServer.ts), alone and inside the outbound policy.
// Nothing here opens a connection: literal addresses are judged as they are, host names through a stubbed resolver.
import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { literalRefusal, parseOutboundAllow } from "./outboundPolicy";
import { checkUrl } from "./policedFetch";
import { ownServerRule } from "./ownServer";

const rule = ownServerRule({
  baseUrl: "http://localhost:3000",
  port: 3000,
  workerRoutes: ["/api/agents/builtin/:slug"],
  localAddresses: () => ["127.0.0.1", "::1", "10.0.0.7"],
});
const judge = (url: string, address?: string) => rule.refusal(new URL(url), address);

describe("ownServerRule", () => {
  it("refuses this server's routes at its base URL's origin, whatever the address, but not its built-in agents", () => {
    expect(judge("http://localhost:3000/runs/RUN_1/cancel")).toContain("is this server itself");
    expect(judge("http://localhost:3000/runs/RUN_1/cancel")).toContain("/api/agents/builtin/{slug}");
    expect(judge("http://LOCALHOST:3000/trpc/pipeline.approve", "93.184.216.34")).toBeDefined();
    expect(judge("http://localhost:3000/api/stitch/callback/r/A")).toBeDefined();
    expect(judge("http://localhost:3000/api/agents/builtin/requirements")).toBeUndefined();
    expect(judge("http://localhost:3000/api/agents/builtin/requirements?x=1")).toBeUndefined();
  });

  it("takes no look-alike of a worker route for one", () => {
    for (const path of ["/api/agents/builtin/", "/api/agents/builtin/a/b", "/api/agents/builtin/a%2F..%2Fruns", "/api/agents/builtin/x/../../../runs/R/cancel", "/API/agents/builtin/x"]) {
      expect(judge(`http://localhost:3000${path}`), path).toBeDefined();
    }
  });

  it("recognises its listening port on this machine's addresses, by literal address or as resolved", () => {
    expect(judge("http://127.0.0.1:3000/runs/R/cancel", "127.0.0.1")).toBeDefined();
    expect(judge("http://127.0.0.9:3000/runs/R/cancel", "127.0.0.9")).toBeDefined();
    expect(judge("http://[::1]:3000/runs/R/cancel", "::1")).toBeDefined();
    expect(judge("http://[::ffff:127.0.0.1]:3000/runs/R/cancel", "::ffff:127.0.0.1")).toBeDefined();
    expect(judge("http://10.0.0.7:3000/runs/R/cancel", "10.0.0.7")).toBeDefined();
    expect(judge("http://alias.test:3000/runs/R/cancel", "127.0.0.1")).toBeDefined();
    // `localhost` is loopback before it is resolved: refused at registration already.
    expect(judge("http://localhost.:3000/runs/R/cancel")).toBeDefined();
    expect(judge("http://app.localhost:3000/runs/R/cancel")).toBeDefined();
    // The built-in agents at another name of this server follow OUTBOUND_ALLOW, but are not refused as this server.
    expect(judge("http://127.0.0.1:3000/api/agents/builtin/qa", "127.0.0.1")).toBeUndefined();
  });

  it("leaves other ports, other machines and unresolved names alone", () => {
    expect(judge("http://127.0.0.1:5678/webhook/QA", "127.0.0.1")).toBeUndefined();
    expect(judge("http://10.0.0.8:3000/runs/R/cancel", "10.0.0.8")).toBeUndefined();
    expect(judge("http://alias.test:3000/runs/R/cancel")).toBeUndefined();
    expect(judge("https://localhost/runs/R/cancel", "127.0.0.1")).toBeUndefined();
  });

  it("knows its worker endpoints only at the base URL's origin; with a base path, below it", () => {
    expect(rule.isOwnWorker(new URL("http://localhost:3000/api/agents/builtin/qa"))).toBe(true);
    expect(rule.isOwnWorker(new URL("http://127.0.0.1:3000/api/agents/builtin/qa"))).toBe(false);
    expect(rule.isOwnWorker(new URL("http://localhost:3000/runs"))).toBe(false);
    const prefixed = ownServerRule({ baseUrl: "https://tools.example/stitch", port: undefined, workerRoutes: ["/api/agents/builtin/:slug"] });
    expect(prefixed.isOwnWorker(new URL("https://tools.example/stitch/api/agents/builtin/qa"))).toBe(true);
    expect(prefixed.refusal(new URL("https://tools.example/stitch/runs/R/cancel"), "93.184.216.34")).toBeDefined();
    expect(prefixed.refusal(new URL("https://tools.example/other"), "93.184.216.34")).toBeDefined();
    expect(prefixed.refusal(new URL("http://127.0.0.1:3000/runs/R/cancel"), "127.0.0.1")).toBeUndefined();
  });
});

describe("the outbound policy with this server in it", () => {
  const publicOnly = { ...parseOutboundAllow(""), ownServer: rule };
  const loopback = { ...parseOutboundAllow("127.0.0.0/8,::1"), ownServer: rule };
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    const answers: Record<string, string> = { localhost: "127.0.0.1", "alias.test": "127.0.0.1" };
    if (!answers[hostname]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return [{ address: answers[hostname], family: 4 }];
  };

  it("literalRefusal: refused addresses and this server's routes, without resolving anything", () => {
    expect(literalRefusal("http://169.254.169.254/latest/meta-data/", loopback)).toContain("always refused");
    expect(literalRefusal("http://[fe80::1]/hook", loopback)).toContain("always refused");
    expect(literalRefusal("http://10.1.2.3/hook", loopback)).toContain("refused unless OUTBOUND_ALLOW lists it");
    expect(literalRefusal("http://127.0.0.1:5678/hook", publicOnly)).toContain("refused unless OUTBOUND_ALLOW lists it");
    expect(literalRefusal("http://127.0.0.1:5678/hook", loopback)).toBeUndefined();
    expect(literalRefusal("http://127.0.0.1:3000/runs/R/cancel", loopback)).toContain("is this server itself");
    expect(literalRefusal("http://localhost:3000/runs/R/cancel", loopback)).toContain("is this server itself");
    expect(literalRefusal("http://worker.example/hook", publicOnly)).toBeUndefined();
    expect(literalRefusal("ftp://worker.example/hook", publicOnly)).toContain("only http and https");
  });

  it("reaches the built-in agents at the base URL whatever OUTBOUND_ALLOW says, and nothing else of this server", async () => {
    expect(literalRefusal("http://localhost:3000/api/agents/builtin/qa", publicOnly)).toBeUndefined();
    expect(await checkUrl("http://localhost:3000/api/agents/builtin/qa", publicOnly, { lookup })).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
    expect(await checkUrl("http://localhost:3000/runs/R/cancel", loopback, { lookup })).toMatchObject({ ok: false, reason: expect.stringContaining("this server itself") });
    expect(await checkUrl("http://alias.test:3000/runs/R/cancel", loopback, { lookup })).toMatchObject({ ok: false, reason: expect.stringContaining("this server itself") });
    // Another port on loopback is not this server: OUTBOUND_ALLOW decides.
    expect(await checkUrl("http://localhost:5678/webhook/QA", publicOnly, { lookup })).toMatchObject({ ok: false, reason: expect.stringContaining("OUTBOUND_ALLOW") });
    expect(await checkUrl("http://localhost:5678/webhook/QA", loopback, { lookup })).toMatchObject({ ok: true });
  });
});
