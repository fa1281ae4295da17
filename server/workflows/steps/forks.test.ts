/**
 * Forks of step workflow runs through the one fork door (`POST /api/runs/{run_id}/fork` and tRPC `engine.runs.fork`,
 * which hand a step run to its front door), on every test database. The steps call a stand-in HTTP server on
 * 127.0.0.1 that counts its calls and answers each with its count, so a step run again would answer differently: forks
 * of a completed, a failed and a running step copy the steps before it byte for byte without calling them again, the
 * chosen step runs with the edited inputs, the original is unchanged; `latest` runs the latest definition or is
 * refused naming the steps it lacks; who may fork (403 for a stranger); the audit entry; both conversations.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { type TestPerson, createPerson } from "../../testing/people";
import { StepClient, stepOf, temporaryDir } from "../../testing/stepWorkflows";
import { type StandIn, startStandIn } from "../../testing/stepTools";
import { type ServerOnTestDatabase, serverOn } from "../../testing/suite";
import type { StepConversation, StepRunView } from "./schemas";

/** fetch and shape call the stand-in; shape reads fetch's output and the run's `tone`; finish echoes shape's. */
const chain = (url: string, finish = "{{shape.output.body.shaped}}") => ({
  id: "forked-chain",
  inputs: [{ name: "word", type: "string" }, { name: "tone", type: "string" }],
  steps: [
    { id: "fetch", tool: "utils.http", params: { method: "GET", url: `${url}/fetch?word={{inputs.word}}` } },
    { id: "shape", tool: "utils.http", params: { method: "GET", url: `${url}/shape?text={{fetch.output.body.word}}&tone={{inputs.tone}}` } },
    { id: "finish", tool: "utils.echo", params: { said: finish } },
  ],
  outputs: { said: "{{finish.said}}" },
});

/** `use` reads a field of the run's `config` input: with none there, it fails (the template cannot be resolved). */
const failing = (url: string) => ({
  id: "forked-failure",
  inputs: [{ name: "config", type: "object" }],
  steps: [
    { id: "fetch", tool: "utils.http", params: { method: "GET", url: `${url}/fetch?word=failure` } },
    { id: "use", tool: "utils.echo", params: { flag: "{{inputs.config.flag}}", word: "{{fetch.output.body.word}}" } },
  ],
});

/** `wait` holds its call until the test lets it go. */
const holding = (url: string) => ({
  id: "forked-hold",
  steps: [
    { id: "fetch", tool: "utils.http", params: { method: "GET", url: `${url}/fetch?word=hold` } },
    { id: "wait", tool: "utils.http", params: { method: "GET", url: `${url}/hold` }, timeout_ms: 120_000 },
    { id: "after", tool: "utils.echo", params: { held: "{{wait.output.body.call}}" } },
  ],
});

describe.each(testDatabases)("forks of step workflow runs on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let api: StepClient;
  let standIn: StandIn;
  let alan: TestPerson;
  let amy: TestPerson;
  const held: ServerResponse[] = [];
  const dataDir = temporaryDir("stitch-steps-forks-");
  /** The calls the stand-in received on `path`. */
  const calls = (path: string) => standIn.received.filter((r) => new URL(r.url, "http://stand-in").pathname === path);
  const fork = (runId: string, body: unknown, token?: string) => (token ? env.api.as(token) : env.api).post(`/api/runs/${runId}/fork`, body);
  /** The run's conversation, as the app reads it (tRPC over HTTP). */
  const conversation = async (runId: string): Promise<StepConversation> => api.trpc("query", "steps.conversation", { runId });

  beforeAll(async () => {
    const counts = new Map<string, number>();
    standIn = await startStandIn((request, response) => {
      const url = new URL(request.url, "http://stand-in");
      const call = (counts.get(url.pathname) ?? 0) + 1;
      counts.set(url.pathname, call);
      const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url.pathname === "/fetch") return json({ word: url.searchParams.get("word"), call });
      if (url.pathname === "/shape") return json({ shaped: `${url.searchParams.get("text")} (${url.searchParams.get("tone")})`, call });
      if (url.pathname === "/hold") return void held.push(response);
      response.writeHead(404).end();
    });
    env = await serverOn(testDatabase, { DATA_DIR: dataDir.path, DISPATCH_POLL_MS: "100", OUTBOUND_ALLOW: "127.0.0.0/8,::1" });
    api = new StepClient(env.server.url);
    [alan, amy] = await Promise.all([createPerson(env.server.people, "Alan Analyst", "analyst"), createPerson(env.server.people, "Amy Other", "analyst")]);
  });
  afterAll(async () => {
    for (const response of held.splice(0)) response.end();
    await env?.close();
    await standIn?.close();
    dataDir.remove();
  });

  it("forks a completed run at a step with edited inputs: the steps before it copied byte for byte and not called again, the chosen step called with the edit", async () => {
    const original = await api.runToEnd(chain(standIn.url), { word: "ladder", tone: "dry" });
    expect(original.outputs).toEqual({ said: "ladder (dry)" });
    const fetched = calls("/fetch").length;
    const shaped = calls("/shape").length;

    const made = await fork(original.id, { node_id: "shape", input: { inputs: { word: "ladder", tone: "warm" } } });
    expect(made.status).toBe(201);
    const forkId: string = made.body.run.id;
    expect(made.body.path).toBe(`/app/steps/runs/${forkId}`);
    const done = await api.settled(forkId);
    expect(done).toMatchObject({ status: "completed", inputs: { word: "ladder", tone: "warm" }, outputs: { said: "ladder (warm)" } });
    expect(done.forked_from).toMatchObject({ run_id: original.id, node_id: "shape", version: "original", by: { name: "bootstrap token" } });
    // fetch was copied: the same output (its call count in it), not called again; shape was called once, with the edit.
    expect(JSON.stringify(stepOf(done, "fetch").output)).toBe(JSON.stringify(stepOf(original, "fetch").output));
    expect(calls("/fetch")).toHaveLength(fetched);
    expect(calls("/shape")).toHaveLength(shaped + 1);
    expect(calls("/shape").at(-1)!.url).toBe("/shape?text=ladder&tone=warm");
    expect(stepOf(done, "shape").input).toMatchObject({ url: `${standIn.url}/shape?text=ladder&tone=warm` });

    // The original is unchanged, and lists its fork.
    const after = await api.run(original.id);
    expect({ ...after, forks: [], updated_at: null }).toEqual({ ...original, forks: [], updated_at: null });
    expect(after.forks).toEqual([expect.objectContaining({ run_id: forkId, node_id: "shape", status: "completed" })]);

    // The fork's conversation opens with where it came from; fetch is not told again. The parent's tells the fork.
    const told = await conversation(forkId);
    expect(told.turns[0]).toMatchObject({
      kind: "system", node: { id: "shape" }, who: "bootstrap token", body: { event: "forked", from_run_id: original.id, value: { word: "ladder", tone: "warm" }, edited: true },
    });
    expect(told.turns.filter((t) => t.node?.id === "fetch")).toEqual([]);
    expect(told.turns.filter((t) => t.kind === "output").map((t) => t.node?.id)).toEqual(["shape", "finish"]);
    const parentTold = await conversation(original.id);
    expect(parentTold.turns.at(-1)).toMatchObject({ kind: "system", node: { id: "shape" }, who: "bootstrap token", body: { event: "forked_into", fork_run_id: forkId } });
  });

  it("forks a failed run at its failed step with the input it lacked: only that step runs again, and the original stays failed", async () => {
    expect((await api.register(failing(standIn.url))).status).toBe(201);
    const run = (await api.start("forked-failure", { config: {} })).body as StepRunView;
    const failed = await api.settled(run.id);
    expect(failed.status).toBe("failed");
    expect(stepOf(failed, "use").error).toContain("{{inputs.config.flag}}");
    const fetched = calls("/fetch").length;

    const made = await fork(run.id, { node_id: "use", input: { inputs: { config: { flag: "on" } } } });
    expect(made.status).toBe(201);
    const done = await api.settled(made.body.run.id);
    expect(done.status).toBe("completed");
    expect(stepOf(done, "use").output).toEqual({ flag: "on", word: "failure" });
    expect(JSON.stringify(stepOf(done, "fetch").output)).toBe(JSON.stringify(stepOf(failed, "fetch").output));
    expect(calls("/fetch")).toHaveLength(fetched);
    const original = await api.run(run.id);
    expect(original.status).toBe("failed");
    expect(stepOf(original, "use")).toEqual(stepOf(failed, "use"));
  });

  it("forks a running step: it is called again in the fork, the step before it is not; a step that never ran cannot be forked at", async () => {
    expect((await api.register(holding(standIn.url))).status).toBe(201);
    const run = (await api.start("forked-hold")).body as StepRunView;
    await api.until(run.id, (r) => stepOf(r, "wait").status === "RUNNING" && held.length === 1);
    const fetched = calls("/fetch").length;

    const pending = await fork(run.id, { node_id: "after" });
    expect(pending.status).toBe(409);
    const made = await fork(run.id, { node_id: "wait" });
    expect(made.status).toBe(201);
    const forkId: string = made.body.run.id;
    await api.until(forkId, () => held.length === 2);
    expect(calls("/hold")).toHaveLength(2);
    expect(calls("/fetch")).toHaveLength(fetched);
    for (const response of held.splice(0)) response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ call: "released" }));
    const [original, forked] = await Promise.all([api.settled(run.id), api.settled(forkId)]);
    expect([original.status, forked.status]).toEqual(["completed", "completed"]);
    expect(stepOf(forked, "fetch").output).toEqual(stepOf(original, "fetch").output);
    expect(original.forks.map((f) => f.run_id)).toEqual([forkId]);
  });

  it("runs the latest definition with `latest`, refuses it naming the steps a copy needs that are gone, and refuses bad inputs and a feedback, making nothing", async () => {
    const original = await api.runToEnd(chain(standIn.url), { word: "rope", tone: "dry" });
    const refusedWith = async (body: unknown, status: number, says: string) => {
      const answer = await fork(original.id, body);
      expect(answer.status).toBe(status);
      expect(answer.body.message).toContain(says);
    };
    await refusedWith({ node_id: "shape", input: { inputs: { word: 5, tone: "dry" } } }, 400, "inputs.word");
    await refusedWith({ node_id: "shape", input: { inputs: { word: "rope" } } }, 400, "inputs.tone");
    await refusedWith({ node_id: "shape", input: { message: "hello" } }, 400, "{inputs?}");
    await refusedWith({ node_id: "shape", feedback: "warmer" }, 400, "takes no feedback");
    await refusedWith({ node_id: "nowhere" }, 404, "nowhere");

    expect((await api.register(chain(standIn.url, "v2: {{shape.output.body.shaped}}"))).status).toBe(201);
    const latest = await fork(original.id, { node_id: "finish", version: "latest" });
    expect(latest.status).toBe(201);
    const done = await api.settled(latest.body.run.id);
    expect(done).toMatchObject({ version: original.version + 1, outputs: { said: "v2: rope (dry)" }, forked_from: { version: "latest" } });
    expect(stepOf(done, "shape").output).toEqual(stepOf(original, "shape").output);

    const renamed = JSON.parse(JSON.stringify(chain(standIn.url)).replaceAll("fetch", "grab"));
    expect((await api.register(renamed)).status).toBe(201);
    await refusedWith({ node_id: "shape", version: "latest" }, 409, '"fetch"');
    expect((await api.run(original.id)).forks.map((f) => f.version)).toEqual(["latest"]);
  });

  it("lets the starter fork her run and refuses a stranger (403 naming the rule) through REST and tRPC; each fork is audited with the new run as its target", async () => {
    await api.register(chain(standIn.url));
    const started = await env.api.as(alan.token).post(`/api/workflows/forked-chain/runs`, { inputs: { word: "saw", tone: "dry" } });
    expect(started.status).toBe(201);
    const runId: string = started.body.id;
    await api.settled(runId);

    const stranger = await fork(runId, { node_id: "shape" }, amy.token);
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toContain("the person who started a run may fork it");
    // tRPC over HTTP, as the app calls it.
    const trpcFork = (token: string) => env.api.as(token).post(`/trpc/engine.runs.fork`, { runId, node_id: "shape" });
    const strangerViaTrpc = await trpcFork(amy.token);
    expect(strangerViaTrpc.status).toBe(403);
    expect(JSON.stringify(strangerViaTrpc.body)).toContain("the person who started a run may fork it");
    expect((await api.run(runId)).forks).toEqual([]);

    const own = await fork(runId, { node_id: "finish" }, alan.token);
    expect(own.status).toBe(201);
    expect(own.body.run.forked_from).toMatchObject({ run_id: runId, node_id: "finish", by: { id: alan.accountId, name: "Alan Analyst" } });
    const viaTrpc = await trpcFork(alan.token);
    expect(viaTrpc.status).toBe(200);
    const made = viaTrpc.body.result.data as { run: { id: string }; path: string };
    expect(made.path).toBe(`/app/steps/runs/${made.run.id}`);
    // The step run's own tRPC reads carry the lineage too.
    expect((await api.trpc("query", "steps.run", { runId: made.run.id })).forked_from).toMatchObject({ run_id: runId, node_id: "shape", by: { name: "Alan Analyst" } });
    expect((await api.trpc("query", "steps.run", { runId })).forks.map((f: { run_id: string }) => f.run_id)).toEqual([own.body.run.id, made.run.id]);
    const forksInto = (await conversation(runId)).turns.flatMap((t) => (t.kind === "system" && t.body.event === "forked_into" ? [t.body.fork_run_id] : []));
    expect(forksInto).toEqual([own.body.run.id, made.run.id]);

    const audit = await env.api.get<{ entries: { target_id: string | null; outcome: string; message: string | null; status: number | null }[] }>("/api/audit?action=engine.runs.fork&limit=50");
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ target_id: own.body.run.id, outcome: "accepted", message: expect.stringContaining(`forked from: run ${runId} at finish`) }));
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ target_id: made.run.id, outcome: "accepted", message: expect.stringContaining(`forked from: run ${runId} at shape`) }));
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ outcome: "refused", status: 403 }));
  });
});
