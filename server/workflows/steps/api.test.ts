/**
 * The step workflows' API on the real server, on every test database: registration (every problem at once, at its
 * JSON path, storing nothing; versions), inputs checked before a run starts, `execute` with and without `wait` (and
 * its 202 at `timeout_ms`), cancellation, the tools, the routes shared with the YAML workflows, and tRPC for the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestDatabase, testDatabases } from "../../testing/databases";
import { type TestServer, startTestServer } from "../../testing/harness";
import { SEED_EXAMPLE, StepClient, statuses, stepOf, temporaryDir } from "../../testing/stepWorkflows";
import type { StepTurn } from "./schemas";

const ECHO_TWICE = {
  id: "echo-twice",
  name: "Echo twice",
  description: "Two echoes, the second reading the first.",
  inputs: [{ name: "word", type: "string" }],
  steps: [
    { id: "first", tool: "utils.echo", params: { said: "{{inputs.word}}" } },
    { id: "second", tool: "utils.echo", params: { again: "{{first.said}} {{first.said}}" } },
  ],
  outputs: { both: "{{second.again}}" },
};

const SLOW = { id: "slow", steps: [{ id: "nap", tool: "utils.delay", params: { ms: 60_000 } }, { id: "after", tool: "utils.echo", params: {} }] };

describe.each(testDatabases)("the step workflows' API on $name", (testDatabase: TestDatabase) => {
  let server: TestServer;
  let api: StepClient;
  let drop: () => Promise<void>;
  const dataDir = temporaryDir("stitch-steps-api-");

  beforeAll(async () => {
    const opened = await testDatabase.open();
    drop = opened.drop;
    server = await startTestServer(opened.database, { DATA_DIR: dataDir.path, DISPATCH_POLL_MS: "100" });
    api = new StepClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await drop?.().catch(() => undefined);
    dataDir.remove();
  });

  it("refuses a definition with every problem at once, each at its JSON path, and stores nothing", async () => {
    const broken = {
      id: "broken",
      inputs: [{ name: "company", type: "string" }, { name: "company", type: "text" }],
      steps: [
        { id: "search", tool: "search.google", params: { query: "{{inputs.nobody}}" } },
        { id: "search", tool: "utils.echo" },
        { id: "extract", tool: "llm.extract" },
        { id: "wait", tool: "utils.delay", params: { ms: -5 } },
        { id: "early", tool: "utils.echo", params: { t: "{{later.output}}" }, depends_on: [] },
        { id: "later", tool: "utils.echo", params: { t: "{{ghost.output}}" } },
        { id: "loop_a", tool: "utils.echo", depends_on: ["loop_b"] },
        { id: "loop_b", tool: "utils.echo", depends_on: ["loop_a"] },
        { tool: "utils.echo", retries: 20 },
      ],
      outputs: { x: "{{nowhere.output}}" },
      author: "someone",
    };
    const answer = await api.register(broken);
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_workflow", message: expect.stringMatching(/^the step workflow has \d+ problems: /) } });
    const issues = answer.body.issues as { path: string; message: string }[];
    expect(issues.map((issue) => issue.path)).toEqual([
      "author",
      "inputs[1].name",
      "inputs[1].type",
      "outputs.x",
      "steps[0].params.query",
      "steps[1].id",
      "steps[2].tool",
      "steps[3].params.ms",
      "steps[4].params.t",
      "steps[5].params.t",
      "steps[6].depends_on[0]",
      "steps[8].id",
      "steps[8].retries",
    ]);
    const at = (path: string) => issues.find((issue) => issue.path === path)?.message;
    expect(at("author")).toContain('unknown field "author"');
    expect(at("inputs[1].name")).toBe('duplicate input "company": inputs[0] already has it');
    expect(at("steps[1].id")).toBe('duplicate step id "search": steps[0] already has it');
    expect(at("steps[2].tool")).toMatch(/^unknown tool "llm.extract"; the known tools are graph.create_nodes, graph.cypher, llm.extract_entities/);
    expect(at("steps[3].params.ms")).toContain('(params of tool "utils.delay")');
    expect(at("steps[0].params.query")).toBe('{{inputs.nobody}}: no input "nobody" is declared (the inputs are company)');
    expect(at("steps[4].params.t")).toContain('step "later" does not run before "early"');
    expect(at("steps[5].params.t")).toContain('no step "ghost" in this workflow');
    expect(at("steps[6].depends_on[0]")).toContain("the steps form a cycle, each waiting for the next: loop_a → loop_b → loop_a");
    expect(at("outputs.x")).toContain('no step "nowhere"');

    expect(await api.register({})).toMatchObject({ status: 400, body: { issues: [{ path: "id" }, { path: "steps" }] } });
    expect(await api.register({ id: "empty", steps: [] })).toMatchObject({ status: 400, body: { issues: [{ path: "steps", message: "a step workflow needs at least one step" }] } });
    expect(await api.register({ id: "execute", steps: [{ id: "a", tool: "utils.echo" }] })).toMatchObject({ status: 400, body: { issues: [{ path: "id", message: expect.stringContaining("reserved") }] } });
    expect((await api.register({ id: "tools", steps: [] })).body.issues.map((issue: { path: string }) => issue.path)).toEqual(["id", "steps"]);
    expect((await api.request("POST", "/api/workflows/validate", broken)).body.issues).toEqual(issues);
    expect(await api.request("POST", "/api/workflows/validate", ECHO_TWICE)).toEqual({ status: 200, body: { valid: true, warnings: [] } });

    for (const name of ["broken", "empty", "execute"]) expect((await api.request("GET", `/api/workflows/${name}`)).status).toBe(404);
    expect((await api.request("GET", "/api/workflows")).body.map((w: { name: string }) => w.name)).not.toContain("broken");
  });

  it("registers a definition by its id as the next version, normalised, listed beside the YAML workflows", async () => {
    const first = await api.register(SEED_EXAMPLE);
    expect(first).toMatchObject({ status: 201, body: { name: "investigation-v1", version: 1, format: "steps", title: "Standard Corporate Due Diligence", definition_version: "1.0.0" } });
    expect(first.body.steps).toEqual([
      { id: "google_search", tool: "search.google", depends_on: [], retries: 0, timeout_ms: 30_000 },
      { id: "extract_executives", tool: "llm.extract_entities", depends_on: ["google_search"], retries: 2, timeout_ms: 180_000 },
      { id: "enrich_graph", tool: "graph.create_nodes", depends_on: ["extract_executives"], retries: 0, timeout_ms: 60_000 },
    ]);
    expect(first.body.inputs).toEqual([{ name: "company_name", type: "string", optional: false }, { name: "jurisdiction", type: "string", optional: true }]);
    expect(first.body.outputs).toEqual(["summary", "graph_update_count"]);
    expect((await api.register(SEED_EXAMPLE)).body.version).toBe(2);
    const detail = await api.request("GET", "/api/workflows/investigation-v1");
    expect(detail.body).toMatchObject({ version: 2, format: "steps", definition: { id: "investigation-v1" } });
    expect(detail.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    expect((await api.request("POST", "/api/workflows", { yaml: "name: a-yaml-one\ndescription: d\nnodes:\n  - id: p\n    prompt: hi\n" })).status).toBe(201);
    expect(await api.register({ id: "a-yaml-one", steps: [{ id: "a", tool: "utils.echo" }] })).toMatchObject({
      status: 400,
      body: { issues: [{ path: "id", message: '"a-yaml-one" is the name of a yaml workflow; a step workflow needs an id of its own' }] },
    });
    const listed = (await api.request("GET", "/api/workflows")).body as { name: string; format: string }[];
    expect(listed.filter((w) => ["investigation-v1", "a-yaml-one"].includes(w.name)).map((w) => [w.name, w.format])).toEqual([
      ["a-yaml-one", "yaml"],
      ["investigation-v1", "steps"],
    ]);
  });

  it("checks a run's inputs before anything starts: 400 for a missing required input, a wrong type or an unknown one", async () => {
    expect((await api.register(ECHO_TWICE)).status).toBe(201);
    const refused = [
      [{}, [{ path: "inputs.word", message: "missing (expected a string)" }]],
      [{ word: 7 }, [{ path: "inputs.word", message: "expected a string, got the number 7" }]],
      [{ word: "hi", wrod: "hi" }, [{ path: "inputs.wrod", message: "unknown input; the workflow's inputs are word" }]],
    ] as const;
    for (const [inputs, issues] of refused) {
      expect(await api.start("echo-twice", inputs)).toMatchObject({ status: 400, body: { error: "invalid_inputs", issues } });
    }
    expect((await api.request("POST", "/api/workflows/echo-twice/runs", { inputs: "word" })).status).toBe(400);
    expect((await api.request("GET", "/api/workflows/runs?workflow=echo-twice")).body).toEqual([]);
    expect((await api.start("nobody", {})).status).toBe(404);

    const started = await api.start("echo-twice", { word: "hi" });
    expect(started).toMatchObject({ status: 201, body: { workflow: "echo-twice", version: 1, status: "running", inputs: { word: "hi" }, outputs: null } });
    const done = await api.settled(started.body.id);
    expect(done).toMatchObject({ status: "completed", outputs: { both: "hi hi" } });
    expect((await api.request("GET", "/api/workflows/runs?workflow=echo-twice")).body).toMatchObject([{ id: started.body.id, format: "steps", status: "completed" }]);
  });

  it("execute: a stored workflow or an inline definition; 201 at once, or with wait the ended run (200) or the run so far at timeout_ms (202)", async () => {
    await api.register(ECHO_TWICE);
    const atOnce = await api.execute({ workflow: "echo-twice", inputs: { word: "now" } });
    expect(atOnce).toMatchObject({ status: 201, body: { run_id: atOnce.body.id, status: "running", outputs: null } });
    expect(atOnce.body.steps.map((s: { step_id: string }) => s.step_id)).toEqual(["first", "second"]);
    expect(atOnce.body.steps.every((s: { status: string }) => ["PENDING", "RUNNING", "COMPLETED"].includes(s.status))).toBe(true);
    expect((await api.settled(atOnce.body.id)).outputs).toEqual({ both: "now now" });

    const inline = { ...ECHO_TWICE, id: "inline-echo" };
    const waited = await api.execute({ workflow: inline, inputs: { word: "wait" }, wait: true });
    expect(waited).toMatchObject({ status: 200, body: { status: "completed", outputs: { both: "wait wait" }, version: 1 } });
    expect(waited.body.steps.map((s: { status: string; completed_at: string | null }) => [s.status, s.completed_at !== null])).toEqual([
      ["COMPLETED", true],
      ["COMPLETED", true],
    ]);
    // The same definition again runs the same version; a changed one is the next version.
    expect((await api.execute({ workflow: inline, inputs: { word: "again" }, wait: true })).body.version).toBe(1);
    expect((await api.execute({ workflow: { ...inline, description: "changed" }, inputs: { word: "again" }, wait: true })).body.version).toBe(2);

    const timedOut = await api.execute({ workflow: SLOW, wait: true, timeout_ms: 300 });
    expect(timedOut).toMatchObject({ status: 202, body: { status: "running", outputs: null } });
    expect(statuses(timedOut.body)).toEqual({ nap: "RUNNING", after: "PENDING" });
    expect(stepOf(timedOut.body, "nap").input).toEqual({ ms: 60_000 });
    const cancelled = await api.request("POST", `/api/workflows/runs/${timedOut.body.id}/cancel`, { reason: "enough" });
    expect(cancelled).toMatchObject({ status: 200, body: { status: "cancelled", cancel_reason: "enough", outputs: {} } });
    expect(statuses(cancelled.body)).toEqual({ nap: "CANCELLED", after: "CANCELLED" });
    expect(stepOf(cancelled.body, "nap").completed_at).not.toBeNull();
    // Cancelling it again changes nothing; a run that ended otherwise cannot be cancelled.
    expect(await api.request("POST", `/api/workflows/runs/${timedOut.body.id}/cancel`)).toMatchObject({ status: 200, body: { status: "cancelled", cancel_reason: "enough" } });
    expect((await api.request("POST", `/api/workflows/runs/${atOnce.body.id}/cancel`)).status).toBe(409);

    expect((await api.execute({ workflow: "no-such-workflow" })).status).toBe(404);
    expect(await api.execute({ workflow: { id: "bad-inline", steps: [{ id: "a", tool: "nope" }] } })).toMatchObject({ status: 400, body: { error: "invalid_workflow", issues: [{ path: "steps[0].tool" }] } });
    expect(await api.execute({ workflow: { ...inline, id: "inline-inputs" }, inputs: {} })).toMatchObject({ status: 400, body: { error: "invalid_inputs" } });
    for (const name of ["bad-inline", "inline-inputs"]) expect((await api.request("GET", `/api/workflows/${name}`)).status).toBe(404);
    expect(await api.execute({ workflow: "echo-twice", wait: "yes" })).toMatchObject({ status: 400, body: { error: "invalid_body" } });
    expect(await api.execute({ workflow: "echo-twice", wait: true, timeout_ms: 0 })).toMatchObject({ status: 400, body: { error: "invalid_body" } });
  });

  it("lists the tools with their params as JSON Schema", async () => {
    const tools = (await api.request("GET", "/api/workflows/tools")).body as { name: string; description: string; params: Record<string, unknown> }[];
    expect(tools.map((tool) => tool.name).sort()).toEqual(["graph.create_nodes", "graph.cypher", "llm.extract_entities", "llm.generate", "search.google", "utils.delay", "utils.echo", "utils.http"]);
    expect(tools.find((tool) => tool.name === "utils.delay")).toMatchObject({ description: expect.stringContaining("Waits"), params: { type: "object", required: ["ms"], properties: { ms: { type: "integer" } } } });
  });

  it("answers a step run through the routes it shares with YAML runs; a step takes no approval, but a failed one can be retried", async () => {
    const run = await api.runToEnd({
      id: "shared-routes",
      steps: [{ id: "refused", tool: "utils.http", params: { url: "http://169.254.169.254/" } }, { id: "after", tool: "utils.echo", params: { ok: true } }],
    });
    expect(run).toMatchObject({ status: "failed", format: "steps" });
    const decide = (what: string, body: unknown) => api.request("POST", `/api/workflows/runs/${run.id}/nodes/refused/${what}`, body);
    for (const [what, body] of [["approve", {}], ["reject", { reason: "no" }], ["input", { text: "x" }]] as const) {
      expect(await decide(what, body)).toMatchObject({ status: 409, body: { message: expect.stringContaining("its steps take no approval, rejection or input") } });
    }
    expect((await api.request("POST", `/api/workflows/runs/${run.id}/nodes/nobody/retry`)).status).toBe(404);
    const retried = await decide("retry", undefined);
    expect(retried).toMatchObject({ status: 200, body: { status: "running" } });
    const again = await api.settled(run.id);
    expect(stepOf(again, "refused")).toMatchObject({ status: "FAILED", attempts: 2 });
    expect((await api.request("POST", `/api/workflows/runs/${run.id}/resume`)).body.status).toBe("running");
    expect(stepOf(await api.settled(run.id), "refused").attempts).toBe(3);
    expect((await api.request("GET", "/api/workflows/runs")).body.some((r: { id: string; format?: string }) => r.id === run.id && r.format === "steps")).toBe(true);
    expect((await api.request("GET", `/api/workflows/runs/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("gives the app the same over tRPC: workflows, tools, a run started from its inputs, its conversation, cancellation", async () => {
    await api.register(ECHO_TWICE);
    expect((await api.trpc("query", "steps.list")).map((w: { name: string }) => w.name)).toContain("echo-twice");
    expect(await api.trpc("query", "steps.get", { name: "echo-twice" })).toMatchObject({ name: "echo-twice", inputs: [{ name: "word", type: "string", optional: false }] });
    expect((await api.trpc("query", "steps.tools")).length).toBe(8);
    const started = await api.trpc("mutation", "steps.start", { name: "echo-twice", inputs: { word: "app" } });
    await api.settled(started.id);
    const conversation = await api.trpc("query", "steps.conversation", { runId: started.id });
    expect(conversation.run).toMatchObject({ status: "completed", outputs: { both: "app app" } });
    const turns: StepTurn[] = conversation.turns;
    // What each turn tells: its kind, or a system turn's event.
    const told = (t: StepTurn) => (t.kind === "system" ? t.body.event : t.kind);
    expect(turns.map((t) => [told(t), t.node?.id ?? null])).toEqual([
      ["input", null],
      ["started", "first"],
      ["params", "first"],
      ["output", "first"],
      ["started", "second"],
      ["params", "second"],
      ["output", "second"],
      ["outcome", null],
    ]);
    expect(turns[0]!.body).toEqual({ value: { word: "app" } });
    expect(turns[6]).toMatchObject({ node: { type: "utils.echo" }, body: { value: { again: "app app" }, attempts: 1 } });
    expect(turns[7]).toMatchObject({ body: { status: "completed", outputs: { both: "app app" }, output_errors: {} } });
    await expect(api.trpc("mutation", "steps.start", { name: "echo-twice", inputs: {} })).rejects.toMatchObject({ answer: { status: 400 } });

    const slow = await api.trpc("mutation", "steps.execute", { workflow: SLOW });
    const cancelled = await api.trpc("mutation", "steps.cancel", { runId: slow.id, reason: "not now" });
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: "not now" });
    expect((await api.trpc("query", "steps.runs", { workflow: "slow" })).map((r: { id: string }) => r.id)).toContain(slow.id);
    // Each step cancelled with the run, and the run's cancellation told once, as its outcome (who, why).
    const slowTurns: StepTurn[] = (await api.trpc("query", "steps.conversation", { runId: slow.id })).turns;
    const cancelTurns = slowTurns.map((t) => [t.kind, t.kind === "skipped" || t.kind === "outcome" ? t.body.status : null, t.node?.id ?? null]);
    expect(cancelTurns).toEqual(expect.arrayContaining([["skipped", "cancelled", "nap"], ["skipped", "cancelled", "after"], ["outcome", "cancelled", null]]));
    expect(slowTurns.filter((t) => t.kind === "outcome")).toEqual([expect.objectContaining({ body: expect.objectContaining({ status: "cancelled", reason: "not now" }) })]);
  });
});
