// utils.http against a stand-in on 127.0.0.1: the answer's shape, JSON bodies, the size cap, the time limit, and the
// outbound policy (its own tests are server/lib/outbound.test.ts). Refused addresses are refused before connecting.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_ONLY } from "../../../lib/outboundPolicy";
import { toolRegistry } from "./registry";
import { type StandIn, type TestContext, startStandIn, testContext } from "../../../testing/stepTools";
import { MAX_RESPONSE_BYTES } from "./utils.http";

let context: TestContext;
let standIn: StandIn;
beforeEach(async () => {
  context = await testContext();
  standIn = await startStandIn((request, response) => {
    if (request.url === "/json") response.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-served-by": "stand-in" }).end('{"ok":true,"items":[1,2]}');
    else if (request.url === "/echo") response.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ method: request.method, type: request.headers["content-type"], body: request.body }));
    else if (request.url === "/broken-json") response.writeHead(200, { "content-type": "application/json" }).end("{not json");
    else if (request.url === "/huge") response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(MAX_RESPONSE_BYTES + 1));
    else if (request.url === "/redirect") response.writeHead(302, { location: "/json" }).end();
    else if (request.url === "/metadata") response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else if (request.url === "/slow") setTimeout(() => response.end("late"), 2_000);
    else response.writeHead(404, { "content-type": "text/plain" }).end("no such page");
  });
});
afterEach(async () => {
  await standIn.close();
  await context.cleanup();
});

const http = (params: Record<string, unknown>, options: { timeoutMs?: number } = {}, ctx: TestContext = context) => toolRegistry.run("utils.http", params, ctx, options);

describe("utils.http", () => {
  it("answers status, headers and the body parsed when it is JSON", async () => {
    const answer = await http({ url: `${standIn.url}/json` });
    expect(answer).toMatchObject({ status: 200, headers: { "x-served-by": "stand-in", "content-type": "application/json; charset=utf-8" }, body: { ok: true, items: [1, 2] } });
    expect(await http({ url: `${standIn.url}/nothing-here` })).toMatchObject({ status: 404, body: "no such page" });
    expect(await http({ url: `${standIn.url}/broken-json` })).toMatchObject({ status: 200, body: "{not json" });
  });

  it("sends an object body as JSON and a string body as it is", async () => {
    expect(await http({ method: "POST", url: `${standIn.url}/echo`, body: { name: "Acme" } })).toMatchObject({
      status: 201,
      body: { method: "POST", type: "application/json", body: '{"name":"Acme"}' },
    });
    expect(await http({ method: "PUT", url: `${standIn.url}/echo`, headers: { "content-type": "text/plain" }, body: "plain" })).toMatchObject({
      body: { method: "PUT", type: "text/plain", body: "plain" },
    });
  });

  it("follows redirects, and refuses one to a metadata address before following it", async () => {
    expect(await http({ url: `${standIn.url}/redirect` })).toMatchObject({ status: 200, body: { ok: true } });
    await expect(http({ url: `${standIn.url}/metadata` })).rejects.toMatchObject({ transient: false, message: expect.stringContaining("169.254.169.254 is a link-local or cloud-metadata address") });
    expect(standIn.received.map((request) => request.url)).toEqual(["/redirect", "/json", "/metadata"]);
  });

  it("refuses loopback when OUTBOUND_ALLOW does not list it, and metadata addresses always", async () => {
    const strict = await testContext({ outbound: PUBLIC_ONLY });
    try {
      await expect(http({ url: `${standIn.url}/json` }, {}, strict)).rejects.toThrow("refused unless OUTBOUND_ALLOW lists it");
      await expect(http({ url: "http://169.254.169.254/latest/meta-data/" })).rejects.toThrow("always refused");
      expect(standIn.received).toEqual([]);
    } finally {
      await strict.cleanup();
    }
  });

  it("fails on a response larger than 1 MiB, and at its time limit", async () => {
    await expect(http({ url: `${standIn.url}/huge` })).rejects.toMatchObject({ transient: false, message: expect.stringContaining(`the response is larger than ${MAX_RESPONSE_BYTES} bytes`) });
    await expect(http({ url: `${standIn.url}/slow` }, { timeoutMs: 100 })).rejects.toMatchObject({ transient: true, message: expect.stringContaining("did not finish within 100 ms") });
  });

  it("refuses a URL that is not http(s) and a method it does not know, before sending anything", async () => {
    await expect(http({ url: "file:///etc/passwd" })).rejects.toThrow("params.url: url must be an absolute http:// or https:// URL");
    await expect(http({ url: standIn.url, method: "BREW" })).rejects.toThrow("params.method: method must be one of GET, HEAD");
    expect(standIn.received).toEqual([]);
  });
});
