/**
 * Each rule of the workflows' door in one place, so REST and tRPC answer alike: every request below goes through the
 * REST route of the running server and through the tRPC procedure (createCaller), and both must answer the same status
 * (tRPC's code as its HTTP status, any success as 2xx) with the same message. On every test database.
 * - a step run takes no decision on its steps (approve, reject, input: 409), but is retried, cancelled and resumed
 *   by the step workflows; a YAML run by the YAML workflows;
 * - a workflow is read and started by name in the format it was registered in;
 * - an inline definition to execute needs an operator (an analyst gets 403, and nothing is stored).
 */
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../people/schemas";
import { createCaller } from "../trpc/router";
import { callerContext, personAs } from "../testing/callerContext";
import { testBootstrapToken } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import type { TestServer } from "../testing/harness";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";

/** What a door answered: its HTTP status (2xx for any success), and the refusal's message or the answer. */
interface Answered {
  status: number;
  message?: string;
  body?: any;
}

const FAILING = { id: "door-failing", steps: [{ id: "fetch", tool: "utils.http", params: { url: "http://169.254.169.254/" } }] };
const SLOW = { id: "door-slow", steps: [{ id: "nap", tool: "utils.delay", params: { ms: 60_000 } }] };
const ECHO = { id: "door-echo", inputs: [{ name: "word", type: "string" }], steps: [{ id: "say", tool: "utils.echo", params: { said: "{{inputs.word}}" } }] };
const GATE = "name: door-gate\ndescription: waits for a person\nnodes:\n  - id: gate\n    approval:\n      message: Go on?\n";

describe.each(testDatabases)("the workflows' door on $name: one answer on REST and tRPC", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let server: TestServer;
  let analyst: TestPerson;

  beforeAll(async () => {
    env = await serverOn(testDatabase, { DISPATCH_POLL_MS: "100" });
    server = env.server;
    analyst = await createPerson(server.people, "door analyst", "analyst");
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A REST request, as the bootstrap operator unless a token is given. */
  async function rest(method: "GET" | "POST", path: string, body?: unknown, token = testBootstrapToken): Promise<Answered> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    return response.ok ? { status: 200, body: answer } : { status: response.status, message: String(answer.message) };
  }

  /** The same through tRPC, as someone with `role`. */
  const trpc = (role: Role = "operator") => createCaller(callerContext(server, personAs(`door ${role}`, role)));
  async function answered(call: Promise<unknown>): Promise<Answered> {
    try {
      return { status: 200, body: await call };
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      return { status: getHTTPStatusCodeFromError(error), message: error.message };
    }
  }

  /** Both doors answered alike: the same status and message. */
  function alike(viaRest: Answered, viaTrpc: Answered, expected: number): void {
    expect({ status: viaRest.status, message: viaRest.message }).toEqual({ status: viaTrpc.status, message: viaTrpc.message });
    expect(viaRest.status).toBe(expected);
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out; last read: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const ended = (run: { status: string }) => ["completed", "failed", "cancelled"].includes(run.status);
  const stepRunOf = async (definition: { id: string }) => {
    expect((await rest("POST", "/api/workflows", definition)).status).toBe(200);
    return (await rest("POST", `/api/workflows/${definition.id}/runs`, {})).body as { id: string };
  };

  it("a step run takes no approval, rejection or input: 409 on both, naming why", async () => {
    const run = await stepRunOf(FAILING);
    const decisions = [
      ["approve", {}, () => trpc().workflows.approve({ runId: run.id, nodeId: "fetch" })],
      ["reject", { reason: "no" }, () => trpc().workflows.reject({ runId: run.id, nodeId: "fetch", reason: "no" })],
      ["input", { text: "hi" }, () => trpc().workflows.input({ runId: run.id, nodeId: "fetch", text: "hi" })],
    ] as const;
    for (const [decision, body, viaTrpc] of decisions) {
      const viaRest = await rest("POST", `/api/workflows/runs/${run.id}/nodes/fetch/${decision}`, body);
      alike(viaRest, await answered(viaTrpc()), 409);
      expect(viaRest.message).toBe(`run ${run.id} is a step workflow's: its steps take no approval, rejection or input`);
    }
  });

  it("retry: a step run's failed step is retried by the step workflows on both; an unknown step is theirs to refuse (404)", async () => {
    const run = await stepRunOf(FAILING);
    await until(() => server.workflowDoor.queries.getRun(run.id), ended);
    alike(
      await rest("POST", `/api/workflows/runs/${run.id}/nodes/nobody/retry`),
      await answered(trpc().workflows.retry({ runId: run.id, nodeId: "nobody" })),
      404,
    );
    expect((await rest("POST", `/api/workflows/runs/${run.id}/nodes/nobody/retry`)).message).toBe(`run ${run.id} has no step "nobody"`);

    const viaRest = await rest("POST", `/api/workflows/runs/${run.id}/nodes/fetch/retry`);
    expect(viaRest.body).toMatchObject({ id: run.id, format: "steps", status: "running" });
    await until(() => server.workflowDoor.queries.getRun(run.id), ended);
    const viaTrpc = await answered(trpc().workflows.retry({ runId: run.id, nodeId: "fetch" }));
    expect(viaTrpc.body).toMatchObject({ id: run.id, format: "steps", status: "running" });
    alike(viaRest, viaTrpc, 200);
  });

  it("run: a step run is read as a step run on both, an unknown run is 404 on both", async () => {
    const run = await stepRunOf(FAILING);
    const [viaRest, viaTrpc] = [await rest("GET", `/api/workflows/runs/${run.id}`), await answered(trpc().workflows.run({ runId: run.id }))];
    alike(viaRest, viaTrpc, 200);
    for (const answer of [viaRest, viaTrpc]) expect(answer.body).toMatchObject({ id: run.id, format: "steps", steps: [{ step_id: "fetch" }] });
    const nobody = crypto.randomUUID();
    alike(await rest("GET", `/api/workflows/runs/${nobody}`), await answered(trpc().workflows.run({ runId: nobody })), 404);
  });

  it("start and get by name: a step workflow's name starts and reads a step workflow on both, with its inputs checked (400)", async () => {
    expect((await rest("POST", "/api/workflows", ECHO)).status).toBe(200);
    const viaRest = await rest("POST", `/api/workflows/${ECHO.id}/runs`, { inputs: { word: "rest" } });
    const viaTrpc = await answered(trpc().workflows.start({ name: ECHO.id, inputs: { word: "trpc" } }));
    alike(viaRest, viaTrpc, 200);
    expect(viaRest.body).toMatchObject({ workflow: ECHO.id, format: "steps", inputs: { word: "rest" } });
    expect(viaTrpc.body).toMatchObject({ workflow: ECHO.id, format: "steps", inputs: { word: "trpc" } });

    alike(await rest("POST", `/api/workflows/${ECHO.id}/runs`, { inputs: {} }), await answered(trpc().workflows.start({ name: ECHO.id, inputs: {} })), 400);
    alike(await rest("POST", "/api/workflows/nobody/runs", {}), await answered(trpc().workflows.start({ name: "nobody" })), 404);

    const [detailRest, detailTrpc] = [await rest("GET", `/api/workflows/${ECHO.id}`), await answered(trpc().workflows.get({ name: ECHO.id }))];
    alike(detailRest, detailTrpc, 200);
    for (const answer of [detailRest, detailTrpc]) expect(answer.body).toMatchObject({ name: ECHO.id, format: "steps", definition: { id: ECHO.id } });
  });

  it("register and validate by the definition's form: a JSON definition is a step workflow's on both", async () => {
    const definition = { ...ECHO, id: "door-registered" };
    const viaTrpc = await answered(trpc().workflows.register({ definition }));
    expect(viaTrpc.body).toMatchObject({ name: "door-registered", version: 1, format: "steps" });
    expect((await rest("POST", "/api/workflows", definition)).body).toMatchObject({ name: "door-registered", version: 2, format: "steps" });
    const broken = { id: "door-broken", steps: [{ id: "a", tool: "nope" }] };
    alike(await rest("POST", "/api/workflows/validate", broken), await answered(trpc().workflows.validate({ definition: broken })), 400);
    alike(await rest("POST", "/api/workflows", { yaml: "name: [" }), await answered(trpc().workflows.register({ yaml: "name: [" })), 400);
  });

  it("cancel and resume: a step run by the step workflows, a YAML run by the YAML workflows, on both", async () => {
    const slow = await stepRunOf(SLOW);
    const cancelled = await rest("POST", `/api/workflows/runs/${slow.id}/cancel`, { reason: "enough" });
    expect(cancelled.body).toMatchObject({ format: "steps", status: "cancelled", cancel_reason: "enough" });
    alike(cancelled, await answered(trpc().workflows.cancel({ runId: slow.id, reason: "again" })), 200);
    const resumed = await answered(trpc().workflows.resume({ runId: slow.id }));
    expect(resumed.body).toMatchObject({ format: "steps", status: "running" });
    // Resumed, it is running: only a failed or cancelled step run can be resumed, whichever door says so.
    alike(await rest("POST", `/api/workflows/runs/${slow.id}/resume`), await answered(trpc().workflows.resume({ runId: slow.id })), 409);
    expect((await rest("POST", `/api/workflows/runs/${slow.id}/resume`)).message).toMatch(/only a failed or cancelled run can be resumed/);
    await rest("POST", `/api/workflows/runs/${slow.id}/cancel`);

    expect((await rest("POST", "/api/workflows", { yaml: GATE })).status).toBe(200);
    const gate = (await rest("POST", "/api/workflows/door-gate/runs", {})).body as { id: string };
    await until(() => server.workflowDoor.queries.getRun(gate.id), (run) => run.status === "waiting_for_user");
    // A YAML run waiting for a person is not resumable: the YAML workflows' rule, on both.
    alike(await rest("POST", `/api/workflows/runs/${gate.id}/resume`), await answered(trpc().workflows.resume({ runId: gate.id })), 409);
    expect((await rest("POST", `/api/workflows/runs/${gate.id}/resume`)).message).toMatch(/only a failed run, or one cancelled by a rejected approval/);
    const yamlCancelled = await answered(trpc().workflows.cancel({ runId: gate.id, reason: "stop" }));
    expect(yamlCancelled.body).toMatchObject({ status: "cancelled", cancel_reason: "stop", nodes: { gate: { status: "cancelled" } } });
    alike(await rest("POST", `/api/workflows/runs/${gate.id}/cancel`), yamlCancelled, 200);
  });

  it("execute: an inline definition needs an operator (403 for an analyst on both, nothing stored); a stored one an analyst may run", async () => {
    const inline = { ...ECHO, id: "door-inline" };
    const viaRest = await rest("POST", "/api/workflows/execute", { workflow: inline, inputs: { word: "x" } }, analyst.token);
    const viaTrpc = await answered(trpc("analyst").steps.execute({ workflow: inline, inputs: { word: "x" } }));
    alike(viaRest, viaTrpc, 403);
    expect(viaRest.message).toBe("this needs the operator role; you are signed in as an analyst");
    expect((await rest("GET", "/api/workflows/door-inline")).status).toBe(404);

    expect((await rest("POST", "/api/workflows", ECHO)).status).toBe(200);
    alike(
      await rest("POST", "/api/workflows/execute", { workflow: ECHO.id, inputs: { word: "x" } }, analyst.token),
      await answered(trpc("analyst").steps.execute({ workflow: ECHO.id, inputs: { word: "x" } })),
      200,
    );
    const byOperator = await answered(trpc("operator").steps.execute({ workflow: inline, inputs: { word: "y" } }));
    expect(byOperator.body).toMatchObject({ workflow: "door-inline", format: "steps" });
  });
});
