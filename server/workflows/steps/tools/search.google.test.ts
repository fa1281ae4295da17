// search.google against a stand-in on 127.0.0.1 that speaks SerpApi's Google engine protocol
// (GET /search.json?engine=google&q=...&api_key=... answering { organic_results: [...] }).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_ONLY } from "../../../lib/outboundPolicy";
import { toolRegistry } from "./registry";
import { type StandIn, type TestContext, startStandIn, testContext } from "../../../testing/stepTools";

const ORGANIC = [
  { position: 1, title: "Acme Corp | LinkedIn", link: "https://www.linkedin.com/company/acme", snippet: "Acme Corp. 5,000 followers. Jane Doe, CEO.", displayed_link: "linkedin.com" },
  { position: 2, title: "Acme Corp - Wikipedia", link: "https://en.wikipedia.org/wiki/Acme_Corp" },
];

let context: TestContext;
let serpApi: StandIn;
beforeEach(async () => {
  serpApi = await startStandIn((request, response) => {
    const url = new URL(request.url, "http://stand-in");
    const json = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname !== "/search.json" || url.searchParams.get("engine") !== "google") json(400, { error: "Unsupported engine" });
    else if (url.searchParams.get("api_key") !== "serp-test-key") json(401, { error: "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key" });
    else if (url.searchParams.get("q") === "nothing at all") json(200, { search_metadata: { status: "Success" }, error: "Google hasn't returned any results for this query." });
    else if (url.searchParams.get("q") === "overload") json(503, { error: "Service temporarily unavailable" });
    else json(200, { search_metadata: { status: "Success" }, search_parameters: { q: url.searchParams.get("q") }, organic_results: ORGANIC });
  });
  context = await testContext({ env: { SERPAPI_API_KEY: "serp-test-key", SERPAPI_BASE_URL: serpApi.url } });
});
afterEach(async () => {
  await serpApi.close();
  await context.cleanup();
});

describe("search.google", () => {
  it("asks SerpApi's Google engine and answers the organic results, and the same as lines for an LLM", async () => {
    const answer = await toolRegistry.run("search.google", { query: "site:linkedin.com/company Acme" }, context);
    expect(answer).toEqual({
      results: [
        { title: "Acme Corp | LinkedIn", link: "https://www.linkedin.com/company/acme", snippet: "Acme Corp. 5,000 followers. Jane Doe, CEO." },
        { title: "Acme Corp - Wikipedia", link: "https://en.wikipedia.org/wiki/Acme_Corp", snippet: "" },
      ],
      text: [
        'Google results for "site:linkedin.com/company Acme":',
        "1. Acme Corp | LinkedIn\n   https://www.linkedin.com/company/acme\n   Acme Corp. 5,000 followers. Jane Doe, CEO.",
        "2. Acme Corp - Wikipedia\n   https://en.wikipedia.org/wiki/Acme_Corp",
      ].join("\n\n"),
    });
    const sent = new URL(serpApi.received[0]?.url ?? "", "http://stand-in");
    expect(sent.pathname).toBe("/search.json");
    expect(Object.fromEntries(sent.searchParams)).toEqual({ engine: "google", q: "site:linkedin.com/company Acme", api_key: "serp-test-key" });
  });

  it("answers no results as an empty list", async () => {
    expect(await toolRegistry.run("search.google", { query: "nothing at all" }, context)).toEqual({ results: [], text: 'No Google results for "nothing at all".' });
  });

  it("fails naming SERPAPI_API_KEY when it is not set, without sending anything", async () => {
    await expect(toolRegistry.run("search.google", { query: "acme" }, { ...context, env: { SERPAPI_BASE_URL: serpApi.url } })).rejects.toMatchObject({
      transient: false,
      message: expect.stringContaining("SERPAPI_API_KEY is not set"),
    });
    expect(serpApi.received).toEqual([]);
  });

  it("fails with SerpApi's own message, never showing the key, and retries only what may pass later", async () => {
    const wrongKey = toolRegistry.run("search.google", { query: "acme" }, { ...context, env: { SERPAPI_API_KEY: "wrong", SERPAPI_BASE_URL: serpApi.url } });
    const error = (await wrongKey.catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ transient: false, message: expect.stringContaining("HTTP 401 (check SERPAPI_API_KEY): Invalid API key") });
    expect(error.message).not.toContain("wrong");
    await expect(toolRegistry.run("search.google", { query: "overload" }, context)).rejects.toMatchObject({ transient: true, message: expect.stringContaining("HTTP 503") });
  });

  it("reaches a SERPAPI_BASE_URL the operator set on loopback even when OUTBOUND_ALLOW does not list loopback", async () => {
    const strict = { ...context, outbound: PUBLIC_ONLY };
    expect(await toolRegistry.run("search.google", { query: "acme" }, strict)).toMatchObject({ results: [{ title: "Acme Corp | LinkedIn" }, { title: "Acme Corp - Wikipedia" }] });
    expect(serpApi.received).toHaveLength(1);
  });
});

describe("Summit-Flow's due-diligence chain", () => {
  it("search.google → llm.extract_entities (offline) → graph.create_nodes, each output passed whole to the next", async () => {
    const search = await toolRegistry.run("search.google", { query: "site:linkedin.com/company Acme" }, context);
    const people = await toolRegistry.run("llm.extract_entities", { text: search, schema: "Person" }, context);
    expect(people).toMatchObject({ responder: "offline", entities: [{ name: "Jane Doe", type: "Person" }] });
    expect(await toolRegistry.run("graph.create_nodes", { nodes: people, edge_type: "WORKS_FOR", to: "Acme Corp" }, context)).toEqual({ count: 1, ids: ["Person:Jane Doe"] });
    expect(await toolRegistry.run("graph.cypher", { query: "MATCH (p:Entity)-[:WORKS_FOR]->(c:Entity) RETURN p.name AS person, c.name AS company" }, context)).toEqual({
      rows: [{ person: "Jane Doe", company: "Acme Corp" }],
    });
  });
});
