/** The request guard on a bare Hono app: what it refuses, how it names it, and that routes still read the body it read. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "./errors";
import { requestGuard } from "./requestGuard";

function guardedApp(maxBodyBytes = 100_000) {
  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error));
  app.use(requestGuard({ maxBodyBytes }));
  app.get("/runs/:run_id/artifacts/latest", (c) => c.json({ run: c.req.param("run_id") }));
  app.post("/echo", async (c) => c.json({ text: await c.req.text() }));
  app.all("/trpc/*", async (c) => c.json({ raw: await c.req.raw.text() }));
  return app;
}

const post = (body: BodyInit, headers: Record<string, string> = {}) => ({ method: "POST", body, headers });

describe("requestGuard", () => {
  const app = guardedApp();

  it("passes good requests, and the route reads the body the guard read", async () => {
    expect(await (await app.request("/runs/RUN_1/artifacts/latest")).json()).toEqual({ run: "RUN_1" });
    expect(await (await app.request("/echo", post('{"a":"😀"}'))).json()).toEqual({ text: '{"a":"😀"}' });
    expect(await (await app.request("/echo", post("not json, left to the route"))).json()).toEqual({ text: "not json, left to the route" });
    expect(await (await app.request("/trpc/pipeline.createRun", post('{"brief":"b"}'))).json()).toEqual({ raw: '{"brief":"b"}' });
  });

  it("refuses a NUL in a path parameter, naming the parameter", async () => {
    for (const path of ["/runs/%00/artifacts/latest", "/runs/abc%00def/artifacts/latest"]) {
      const answer = await app.request(path);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: "invalid_path", message: expect.stringMatching(/^path parameter run_id contains the NUL character/) });
    }
    expect(await (await app.request("/nowhere/%00")).json()).toMatchObject({ message: expect.stringMatching(/^path segment 2 \("\\u0000"\)/) });
  });

  it("refuses a NUL in a query parameter, naming it", async () => {
    const answer = await app.request("/runs/r/artifacts/latest?type=a%00");
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "invalid_query", message: expect.stringMatching(/^query parameter type contains the NUL character/) });
  });

  it("refuses NUL, lone surrogates and deep nesting in a JSON body, naming the field, whatever the content type", async () => {
    const cases: [string, RegExp][] = [
      ['{"output": "\\udfff\\ud800"}', /^output contains a lone UTF-16 surrogate \(\\udfff\)/],
      ['{"a": [{"b\\u0000": 1}]}', /^a\.0\.b\\u0000 contains the NUL character/],
      [`{"graph": ${"[".repeat(5_000)}${"]".repeat(5_000)}}`, /^graph\.0\.0\.0\.0\.0\.\.\. is nested deeper than 64 levels/],
      ['"\\u0000"', /^the body contains the NUL character/],
    ];
    for (const [body, message] of cases) {
      for (const type of ["application/json", "text/plain"]) {
        const answer = await app.request("/echo", post(body, { "content-type": type }));
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ error: "invalid_body", message: expect.stringMatching(message) });
      }
    }
    expect((await app.request("/echo", post("name: a\u0000", { "content-type": "application/yaml" }))).status).toBe(400);
  });

  it("answers 413 above the limit, declared or streamed, and closes the connection", async () => {
    const app = guardedApp(1_000);
    expect((await app.request("/echo", post("x".repeat(1_000)))).status).toBe(200);
    const declared = await app.request("/echo", post("x".repeat(1_001)));
    expect(declared.status).toBe(413);
    expect(declared.headers.get("connection")).toBe("close");
    expect(await declared.json()).toMatchObject({ error: "body_too_large", message: "the request body is larger than 1000 bytes (MAX_BODY_BYTES)" });

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 100;
        controller.enqueue(new Uint8Array(100).fill(0x61));
      },
    });
    const streamed = await app.request("/echo", { method: "POST", body: endless, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(2_000);
  });

  it("answers tRPC in tRPC's error shape, one per call of a batch", async () => {
    const single = await app.request(`/trpc/pipeline.getRun?input=${encodeURIComponent(JSON.stringify({ runId: "\u0000" }))}`);
    expect(single.status).toBe(400);
    expect(await single.json()).toEqual({
      error: {
        message: "runId contains the NUL character (\\u0000), which cannot be stored; remove it",
        code: -32600,
        data: { code: "BAD_REQUEST", httpStatus: 400, path: "pipeline.getRun", zodError: null, refusalCode: "invalid_query", refusalDetails: null },
      },
    });
    const batch = await app.request("/trpc/pipeline.getRun,pipeline.createRun?batch=1", post('{"0":{"runId":"r"},"1":{"brief":"\\ud800"}}'));
    const answers = (await batch.json()) as { error: { message: string; data: { path: string } } }[];
    expect(answers.map((a) => a.error.data.path)).toEqual(["pipeline.getRun", "pipeline.createRun"]);
    expect(answers[0]!.error.message).toMatch(/^1\.brief contains a lone UTF-16 surrogate/);
    const big = await app.request("/trpc/pipeline.createRun", post("x".repeat(200_000)));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: -32013, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } });
  });
});
