/**
 * Step workflows run on the real server, on every test database, with nothing but loopback traffic: SerpApi and the
 * chat-completions LLM are stand-ins (real HTTP servers speaking their protocols) on 127.0.0.1. The seed's example end
 * to end (through the LLM, and offline), every templating form, typed substitution, an unresolvable field, retries,
 * an independent branch beside a failure, the `run_steps` view, the graph tools, and the outbound policy.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../../db/client";
import { type ChatServer, completion, startChatServer } from "../../testing/agentTestkit";
import { type TestDatabase, testDatabases } from "../../testing/databases";
import { type TestServer, startTestServer } from "../../testing/harness";
import { SEED_EXAMPLE, StepClient, statuses, stepOf, temporaryDir } from "../../testing/stepWorkflows";
import { type StandIn, startStandIn } from "../../testing/stepTools";
import type { StepTurn } from "./schemas";

const PEOPLE = ["Jane Doe", "John Smith"];
const ORGANIC = [
  { position: 1, title: "Jane Doe - CEO - Acme Corp | LinkedIn", link: "https://www.linkedin.com/in/jane-doe", snippet: "Jane Doe is the chief executive officer of Acme Corp." },
  { position: 2, title: "John Smith - CFO - Acme Corp | LinkedIn", link: "https://www.linkedin.com/in/john-smith", snippet: "John Smith joined Acme Corp as chief financial officer." },
];

/** SerpApi's Google engine: `search.json` with the key, answering `organic_results`; a query starting `flaky` fails with 503 the first time. */
function startSerpApi(): Promise<StandIn> {
  const failedOnce = new Set<string>();
  return startStandIn((request, response) => {
    const url = new URL(request.url, "http://stand-in");
    const json = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/hello") return json(200, { hello: "from loopback" });
    if (url.pathname !== "/search.json" || url.searchParams.get("engine") !== "google") return json(400, { error: "Unsupported engine" });
    if (url.searchParams.get("api_key") !== "serp-key") return json(401, { error: "Invalid API key." });
    const query = url.searchParams.get("q") ?? "";
    if (query.startsWith("flaky") && !failedOnce.has(query)) {
      failedOnce.add(query);
      return json(503, { error: "Service temporarily unavailable" });
    }
    json(200, { search_metadata: { status: "Success" }, organic_results: ORGANIC });
  });
}

/** A chat-completions model that extracts the people it sees in the text, as llm.extract_entities asks (JSON). */
function startModel(): Promise<ChatServer> {
  return startChatServer((request) => {
    const text = request.body.messages?.at(-1)?.content ?? "";
    const found = PEOPLE.filter((name) => text.includes(name));
    const entities = found.map((name) => ({ name, type: "Person", properties: { employer: "Acme Corp" } }));
    return completion(JSON.stringify({ entities, summary: `Acme Corp is led by ${found.join(" and ")}.` }));
  });
}

describe.each(testDatabases)("step workflow runs on $name", (testDatabase: TestDatabase) => {
  let serpApi: StandIn;
  let model: ChatServer;
  /** With the LLM stand-in, and OUTBOUND_ALLOW listing loopback. */
  let online: { server: TestServer; api: StepClient };
  /** No LLM (the offline extractor) and no OUTBOUND_ALLOW: public addresses only. */
  let offline: { server: TestServer; api: StepClient };
  const dirs = [temporaryDir("stitch-steps-"), temporaryDir("stitch-steps-")];
  const drops: (() => Promise<void>)[] = [];

  async function serve(env: Record<string, string>) {
    const opened = await testDatabase.open();
    const server = await startTestServer(opened.database, { DISPATCH_POLL_MS: "100", SERPAPI_API_KEY: "serp-key", SERPAPI_BASE_URL: serpApi.url, ...env });
    drops.push(async () => {
      await server.close();
      await opened.drop().catch(() => undefined);
    });
    return { server, api: new StepClient(server.url) };
  }

  beforeAll(async () => {
    serpApi = await startSerpApi();
    model = await startModel();
    online = await serve({ DATA_DIR: dirs[0]!.path, LLM_BASE_URL: model.baseUrl, LLM_MODEL: "test-model", OUTBOUND_ALLOW: "127.0.0.0/8,::1" });
    offline = await serve({ DATA_DIR: dirs[1]!.path, OUTBOUND_ALLOW: "" }); // blank: unset, whatever the harness's default
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
    await serpApi?.close();
    await model?.close();
    for (const dir of dirs) dir.remove();
  });

  it("runs the seed's example end to end: SerpApi, the model, the graph; its outputs are right", async () => {
    const run = await online.api.runToEnd(SEED_EXAMPLE, { company_name: "Acme Corp" });
    expect(run).toMatchObject({ status: "completed", workflow: "investigation-v1", version: 1, inputs: { company_name: "Acme Corp" } });
    expect(statuses(run)).toEqual({ google_search: "COMPLETED", extract_executives: "COMPLETED", enrich_graph: "COMPLETED" });
    const search = stepOf(run, "google_search");
    expect(search).toMatchObject({ tool: "search.google", input: { query: "site:linkedin.com/company Acme Corp" }, attempts: 1 });
    expect((search.output as { results: unknown[] }).results).toHaveLength(2);
    // The whole search output is the extractor's `text` (an object, passed with its type), read as its `text` field.
    const extract = stepOf(run, "extract_executives");
    expect(extract.input).toEqual({ text: search.output, schema: "Person" });
    expect(extract.output).toMatchObject({ count: 2, responder: "llm", entities: [{ name: "Jane Doe", type: "Person" }, { name: "John Smith", type: "Person" }] });
    const asked = model.received.at(-1)?.body.messages?.at(-1)?.content;
    expect(asked).toBe((search.output as { text: string }).text);
    expect(stepOf(run, "enrich_graph")).toMatchObject({ input: { nodes: extract.output, edge_type: "WORKS_FOR" }, output: { count: 2, ids: ["Person:Jane Doe", "Person:John Smith"] } });
    expect(run.outputs).toEqual({ summary: "Acme Corp is led by Jane Doe and John Smith.", graph_update_count: 2 });
    expect(run.output_errors).toEqual({});
    const sent = new URL(serpApi.received.at(-1)!.url, "http://stand-in");
    expect(Object.fromEntries(sent.searchParams)).toEqual({ engine: "google", q: "site:linkedin.com/company Acme Corp", api_key: "serp-key" });
  });

  it("runs the seed's example offline: the offline extractor answers, and says so", async () => {
    const run = await offline.api.runToEnd(SEED_EXAMPLE, { company_name: "Acme Corp" });
    expect(run.status).toBe("completed");
    expect(stepOf(run, "extract_executives").output).toMatchObject({ responder: "offline", entities: [{ name: "Jane Doe" }, { name: "John Smith" }] });
    expect(run.outputs).toEqual({ summary: expect.stringMatching(/^Found 2 Person entities: Jane Doe, John Smith \(offline extractor/), graph_update_count: 2 });
  });

  it("resolves every templating form, whole-string templates keeping their type, anywhere in params", async () => {
    const definition = {
      id: "templating",
      inputs: [
        ...Object.entries({ name: "string", n: "number", flag: "boolean", list: "array", obj: "object" }).map(([name, type]) => ({ name, type })),
        { name: "maybe", type: "string", optional: true },
      ],
      steps: [
        {
          id: "first",
          tool: "utils.echo",
          params: { name: "{{inputs.name}}", n: "{{ inputs.n }}", flag: "{{inputs.flag}}", list: "{{inputs.list}}", obj: "{{inputs.obj}}", deep: "{{inputs.obj.a.b}}", nested: { in: ["{{inputs.n}}", "x {{inputs.name}}"] } },
        },
        {
          id: "second",
          tool: "utils.echo",
          params: {
            whole: "{{first.output}}",
            field: "{{first.output.n}}",
            deep: "{{first.output.nested.in.1}}",
            summit: "{{steps.first.output.list}}",
            short: "{{first.flag}}",
            item: "{{first.list.1}}",
            text: "{{inputs.name}} has n={{first.n}}, flag={{first.flag}}, list={{first.list}}, obj={{first.obj}}",
          },
        },
      ],
      outputs: { n: "{{second.field}}", sentence: "{{second.text}}", list: "{{second.summit}}", input: "{{inputs.name}}", missing: "{{inputs.maybe}}" },
    };
    const inputs = { name: "Ada", n: 3, flag: true, list: ["a", 2, null], obj: { a: { b: "deep" } } };
    const run = await online.api.runToEnd(definition, inputs);
    expect(run.status).toBe("completed");
    const first = { ...inputs, deep: "deep", nested: { in: [3, "x Ada"] } };
    expect(stepOf(run, "first").output).toEqual(first);
    expect(stepOf(run, "second").output).toEqual({
      whole: first, field: 3, deep: "x Ada", summit: ["a", 2, null], short: true, item: 2,
      text: 'Ada has n=3, flag=true, list=["a",2,null], obj={"a":{"b":"deep"}}',
    });
    expect(stepOf(run, "second").input).toEqual(stepOf(run, "second").output);
    expect(run.outputs).toEqual({ n: 3, sentence: 'Ada has n=3, flag=true, list=["a",2,null], obj={"a":{"b":"deep"}}', list: ["a", 2, null], input: "Ada", missing: null });
    expect(run.output_errors).toEqual({ missing: '{{inputs.maybe}}: no input "maybe" was given' });
  });

  it("fails a step whose template cannot be resolved, naming the template, never writing \"undefined\"", async () => {
    const run = await online.api.runToEnd({
      id: "unresolvable",
      steps: [
        { id: "lookup", tool: "utils.echo", params: { found: { name: "Acme" } } },
        { id: "use", tool: "utils.echo", params: { greeting: "Hello {{lookup.output.found.title}}" }, retries: 2 },
        { id: "after", tool: "utils.echo", params: { x: 1 } },
      ],
      outputs: { greeting: "{{use.greeting}}", name: "{{lookup.found.name}}" },
    });
    expect(run.status).toBe("failed");
    expect(statuses(run)).toEqual({ lookup: "COMPLETED", use: "FAILED", after: "SKIPPED" });
    const use = stepOf(run, "use");
    expect(use.error).toBe('step use: params.greeting: {{lookup.output.found.title}} cannot be resolved: the output of "lookup" at "found" has no field "title"');
    // Not worth a retry: the same template fails the same way.
    expect(use).toMatchObject({ attempts: 1, input: null, output: null });
    expect(JSON.stringify(run)).not.toContain("undefined");
    expect(stepOf(run, "after").error).toBe('trigger_rule all_success: "use" failed');
    expect(run.outputs).toEqual({ greeting: null, name: "Acme" });
    expect(run.output_errors).toEqual({ greeting: '{{use.greeting}}: step "use" has not completed (it is FAILED)' });
  });

  it("counts retries: a transient failure is tried again with backoff (up to retries + 1 attempts), a permanent one is not", async () => {
    const run = await online.api.runToEnd({
      id: "retried",
      steps: [
        { id: "flaky_search", tool: "search.google", params: { query: "flaky" }, retries: 2, depends_on: [] },
        { id: "slow", tool: "utils.delay", params: { ms: 10_000 }, timeout_ms: 50, retries: 1, depends_on: [] },
        { id: "metadata", tool: "utils.http", params: { url: "http://169.254.169.254/latest/meta-data/" }, retries: 2, depends_on: [] },
      ],
    });
    expect(run.status).toBe("failed");
    expect(stepOf(run, "flaky_search")).toMatchObject({ status: "COMPLETED", attempts: 2, error: null });
    expect(stepOf(run, "slow")).toMatchObject({ status: "FAILED", attempts: 2, error: "step slow: utils.delay did not finish within 50 ms (after 2 attempts)" });
    expect(stepOf(run, "metadata")).toMatchObject({ status: "FAILED", attempts: 1, error: expect.stringContaining("169.254.169.254 is a link-local or cloud-metadata address") });
    const turns: StepTurn[] = (await online.api.trpc("query", "steps.conversation", { runId: run.id })).turns;
    const retrying = turns.filter((t) => t.kind === "failed" && t.body.retrying);
    expect(retrying.map((t) => [t.node?.id, t.attempt])).toEqual(expect.arrayContaining([["flaky_search", 1], ["slow", 1]]));
    expect(retrying).toHaveLength(2);
    expect(turns.filter((t) => t.kind === "system" && t.body.event === "params" && t.node?.id === "flaky_search").map((t) => t.attempt)).toEqual([1, 2]);
  });

  it("retries a failed step by hand: the run goes on, and its outputs are evaluated again when it ends", async () => {
    const run = await online.api.runToEnd({
      id: "retried-by-hand",
      steps: [
        { id: "search", tool: "search.google", params: { query: "flaky by hand" } },
        { id: "count", tool: "utils.echo", params: { found: "{{search.output.results}}" } },
      ],
      outputs: { first: "{{count.found.0.title}}" },
    });
    expect(run).toMatchObject({ status: "failed", outputs: { first: null } });
    expect(stepOf(run, "search").error).toContain("SerpApi at http://127.0.0.1");
    expect(stepOf(run, "search").error).toContain("answered HTTP 503");
    const retried = await online.api.request("POST", `/api/workflows/runs/${run.id}/nodes/search/retry`);
    expect(retried).toMatchObject({ status: 200, body: { status: "running", outputs: null } });
    const done = await online.api.settled(run.id);
    expect(done).toMatchObject({ status: "completed", outputs: { first: "Jane Doe - CEO - Acme Corp | LinkedIn" }, output_errors: {} });
    expect(stepOf(done, "search")).toMatchObject({ status: "COMPLETED", attempts: 2, error: null });
  });

  it("goes on with an independent branch when a step fails; the run ends failed", async () => {
    const run = await online.api.runToEnd({
      id: "branches",
      steps: [
        { id: "bad", tool: "utils.http", params: { url: "http://169.254.169.254/" } },
        { id: "after_bad", tool: "utils.echo", params: { got: "{{bad.output.status}}" } },
        { id: "good", tool: "utils.delay", params: { ms: 20 }, depends_on: [] },
        { id: "after_good", tool: "utils.echo", params: { waited: "{{good.ms}}" } },
        { id: "join", tool: "utils.echo", params: { a: "{{after_good.waited}}" }, depends_on: ["after_good", "after_bad"] },
      ],
      outputs: { waited: "{{after_good.waited}}" },
    });
    expect(run.status).toBe("failed");
    expect(statuses(run)).toEqual({ bad: "FAILED", after_bad: "SKIPPED", good: "COMPLETED", after_good: "COMPLETED", join: "SKIPPED" });
    expect(stepOf(run, "after_good").output).toEqual({ waited: 20 });
    expect(run.outputs).toEqual({ waited: 20 });
  });

  it("keeps run_steps: the seed's columns, the resolved params as input, and timestamps", async () => {
    const run = await online.api.runToEnd({
      id: "timed",
      steps: [
        { id: "wait", tool: "utils.delay", params: { ms: 30 } },
        { id: "echo", tool: "utils.echo", params: { after: "{{wait.ms}}" } },
        { id: "boom", tool: "utils.http", params: { url: "http://169.254.169.254/" } },
        { id: "never", tool: "utils.echo", params: {} },
      ],
    });
    const viewRows = await online.server.database.run((db) =>
      rows<Record<string, unknown>>(db, sql`SELECT * FROM run_steps WHERE run_id = ${run.id} ORDER BY started_at NULLS LAST, step_id`),
    );
    expect(viewRows.map((row) => Object.keys(row).sort())).toEqual(
      Array(4).fill(["attempts", "completed_at", "error", "id", "input", "output", "run_id", "started_at", "status", "step_id"]),
    );
    const byStep = Object.fromEntries(viewRows.map((row) => [row.step_id as string, row]));
    expect(byStep.wait).toMatchObject({ run_id: run.id, status: "COMPLETED", input: { ms: 30 }, output: { ms: 30 }, error: null });
    expect(byStep.echo).toMatchObject({ status: "COMPLETED", input: { after: 30 }, output: { after: 30 } });
    expect(byStep.boom).toMatchObject({ status: "FAILED", input: { url: "http://169.254.169.254/" }, output: null, error: expect.stringContaining("always refused") });
    expect(byStep.never).toMatchObject({ status: "SKIPPED", input: null, started_at: null, error: 'trigger_rule all_success: "boom" failed' });
    expect(byStep.never!.completed_at).not.toBeNull();
    expect(new Set(viewRows.map((row) => row.id)).size).toBe(4);
    const time = (value: unknown) => new Date(value as string).getTime();
    const [wait, echo] = [stepOf(run, "wait"), stepOf(run, "echo")];
    expect(time(wait.started_at)).toBeGreaterThanOrEqual(time(run.created_at) - 1000);
    expect(time(wait.completed_at)).toBeGreaterThanOrEqual(time(wait.started_at) + 25);
    expect(time(echo.started_at)).toBeGreaterThanOrEqual(time(wait.completed_at));
    expect(time(echo.completed_at)).toBeGreaterThanOrEqual(time(echo.started_at));
  });

  it("writes graph nodes that a later graph.cypher step reads back", async () => {
    const run = await online.api.runToEnd(
      {
        id: "graph",
        inputs: [{ name: "person", type: "string" }],
        steps: [
          { id: "write", tool: "graph.create_nodes", params: { nodes: [{ name: "{{inputs.person}}", type: "Person", properties: { title: "Countess" } }], edge_type: "WORKS_FOR", to: "Analytical Engines Ltd" } },
          {
            id: "read",
            tool: "graph.cypher",
            params: { query: "MATCH (p:Entity)-[:WORKS_FOR]->(c:Entity) WHERE p.id IN $ids RETURN p.name AS person, p.properties AS properties, c.name AS company", params: { ids: "{{write.ids}}" } },
          },
        ],
        outputs: { company: "{{read.rows.0.company}}" },
      },
      { person: "Ada Lovelace" },
    );
    expect(run.status).toBe("completed");
    expect(stepOf(run, "write").output).toEqual({ count: 1, ids: ["Person:Ada Lovelace"] });
    expect(stepOf(run, "read").output).toEqual({ rows: [{ person: "Ada Lovelace", properties: '{"title":"Countess"}', company: "Analytical Engines Ltd" }] });
    expect(run.outputs).toEqual({ company: "Analytical Engines Ltd" });
  });

  it("refuses utils.http to loopback unless OUTBOUND_ALLOW lists it, sending nothing", async () => {
    const definition = { id: "loopback", steps: [{ id: "call", tool: "utils.http", params: { url: `${serpApi.url}/hello` } }] };
    const before = serpApi.received.length;
    const refused = await offline.api.runToEnd(definition);
    expect(refused.status).toBe("failed");
    expect(stepOf(refused, "call").error).toContain("a loopback or private address, refused unless OUTBOUND_ALLOW lists it");
    expect(serpApi.received.length).toBe(before);
    const allowed = await online.api.runToEnd(definition);
    expect(stepOf(allowed, "call")).toMatchObject({ status: "COMPLETED", output: { status: 200, body: { hello: "from loopback" } } });
    expect(serpApi.received.at(-1)?.url).toBe("/hello");
  });
});
