/**
 * The chat-completions client against a real HTTP server on 127.0.0.1: what it sends, what it returns, and for
 * every way a call can fail, the message and whether retrying may help.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChatRequest, type LlmConfig, LlmError, chatCompletion, isTransientStatus } from "./chat";

// ---- a local stand-in that speaks chat-completions ------------------------------------------------------

interface Received {
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}
/** What the stand-in answers next: a status and a body (a string is sent as is), or "hang" to never answer. */
type Reply = { status: number; body: unknown; headers?: Record<string, string> } | "hang";

let server: Server;
let baseUrl: string;
const received: Received[] = [];
let replies: Reply[] = [];

const answer = (content: string | null, extra: { model?: string; finish_reason?: string; refusal?: string } = {}): Reply => ({
  status: 200,
  body: {
    id: "c1",
    object: "chat.completion",
    ...(extra.model ? { model: extra.model } : {}),
    choices: [{ index: 0, finish_reason: extra.finish_reason ?? "stop", message: { role: "assistant", content, ...(extra.refusal ? { refusal: extra.refusal } : {}) } }],
  },
});

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
        return;
      }
      received.push({ url: request.url, headers: request.headers, body: JSON.parse(text) as Record<string, unknown> });
      const reply = replies.shift() ?? answer("default answer");
      if (reply === "hang") return;
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      response.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
beforeEach(() => {
  received.length = 0;
  replies = [];
});

const config = (overrides: Partial<LlmConfig> = {}): LlmConfig => ({ baseUrl, apiKey: "sk-test", model: "default-model", timeoutMs: 5000, ...overrides });
const hello: ChatRequest = { messages: [{ role: "user", content: "hi" }] };
const url = () => `${baseUrl}/chat/completions`;

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

/** The failure of one call whose answer is `reply`. */
function failing(reply: Reply, overrides: Partial<LlmConfig> = {}): Promise<LlmError> {
  replies = [reply];
  return failureOf(chatCompletion(config(overrides), hello, { label: "test" }));
}

// ---- the request and the answer --------------------------------------------------------------------------

describe("chatCompletion", () => {
  it("POSTs <baseUrl>/chat/completions with the bearer key and the configured model, and returns the content and the model that answered", async () => {
    replies = [answer("Paris", { model: "gpt-test-2024" })];
    const messages: ChatRequest["messages"] = [
      { role: "system", content: "Answer in one word." },
      { role: "user", content: "Capital of France?" },
    ];
    expect(await chatCompletion(config(), { messages }, { label: "test" })).toEqual({ content: "Paris", model: "gpt-test-2024" });
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe("/v1/chat/completions");
    expect(received[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.body).toEqual({ model: "default-model", messages });
  });

  it("sends the model, response format and temperature asked for, no authorization without a key, and names the model asked for when the answer does not", async () => {
    replies = [{ status: 200, body: { choices: [{ message: { content: "{}" } }] } }];
    const result = await chatCompletion(config({ apiKey: undefined }), { ...hello, model: "other-model", responseFormat: { type: "json_object" }, temperature: 0.2 }, { label: "test" });
    expect(result).toEqual({ content: "{}", model: "other-model" });
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(received[0]?.body).toMatchObject({ model: "other-model", response_format: { type: "json_object" }, temperature: 0.2 });
  });
});

// ---- HTTP errors -------------------------------------------------------------------------------------------

describe("chatCompletion on an HTTP error", () => {
  it("says the label, the URL, the status and the provider's own message", async () => {
    const error = await failing({ status: 500, body: { error: { message: "upstream overloaded" } } });
    expect(error.message).toBe(`test: the LLM at ${url()} answered HTTP 500: upstream overloaded`);
    expect(error).toMatchObject({ transient: true, status: 500 });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("reads the provider's message from every common error shape", async () => {
    const bodies: Array<[unknown, string]> = [
      [{ error: "plain error string" }, "plain error string"],
      [{ message: "top-level message" }, "top-level message"],
      ["upstream   overloaded\n", "upstream overloaded"],
      [{ detail: "unexpected" }, '{"detail":"unexpected"}'],
    ];
    for (const [body, message] of bodies) expect((await failing({ status: 400, body })).message).toBe(`test: the LLM at ${url()} answered HTTP 400: ${message}`);
  });

  it("treats 408, 429 and 5xx as transient and every other status as permanent", async () => {
    const statuses: Array<[number, boolean]> = [
      [400, false],
      [401, false],
      [403, false],
      [404, false],
      [408, true],
      [409, false],
      [422, false],
      [429, true],
      [500, true],
      [502, true],
      [503, true],
    ];
    for (const [status, transient] of statuses) {
      expect(isTransientStatus(status)).toBe(transient);
      expect(await failing({ status, body: { error: { message: "no" } } })).toMatchObject({ status, transient });
    }
  });

  it("hints at the key on 401 and 403, and at the URL and model on 404", async () => {
    expect((await failing({ status: 401, body: "unauthorized" })).message).toBe(`test: the LLM at ${url()} answered HTTP 401 (check LLM_API_KEY): unauthorized`);
    expect((await failing({ status: 403, body: "forbidden" })).message).toContain("HTTP 403 (check LLM_API_KEY): forbidden");
    const wrongUrl = await failureOf(chatCompletion(config({ baseUrl: `${baseUrl}/extra` }), hello, { label: "test" }));
    expect(wrongUrl.message).toBe(`test: the LLM at ${baseUrl}/extra/chat/completions answered HTTP 404 (check LLM_BASE_URL and LLM_MODEL): no route POST /v1/extra/chat/completions`);
  });

  it("keeps the Retry-After wait, in seconds or as a date", async () => {
    expect(await failing({ status: 429, body: { error: { message: "rate limited" } }, headers: { "retry-after": "7" } })).toMatchObject({ transient: true, status: 429, retryAfterMs: 7000 });
    const later = new Date(Date.now() + 60_000).toUTCString();
    const wait = (await failing({ status: 503, body: "busy", headers: { "retry-after": later } })).retryAfterMs ?? 0;
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect((await failing({ status: 503, body: "busy", headers: { "retry-after": "soon" } })).retryAfterMs).toBeUndefined();
  });
});

// ---- no answer -----------------------------------------------------------------------------------------------

describe("chatCompletion without an answer", () => {
  it("a timeout is transient and names LLM_TIMEOUT_MS", async () => {
    const error = await failing("hang", { timeoutMs: 200 });
    expect(error.message).toBe(`test: the LLM at ${url()} did not answer within 200 ms (LLM_TIMEOUT_MS)`);
    expect(error.transient).toBe(true);
  });

  it("an unreachable endpoint is transient", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failureOf(chatCompletion(config({ baseUrl: `http://127.0.0.1:${port}/v1` }), hello, { label: "test" }));
    expect(error.message).toMatch(new RegExp(`^test: could not reach the LLM at http://127.0.0.1:${port}/v1/chat/completions: `));
    expect(error.transient).toBe(true);
    expect(error.status).toBeUndefined();
  });

  it("a call the caller cancels is permanent", async () => {
    replies = ["hang"];
    const error = await failureOf(chatCompletion(config(), hello, { label: "test", signal: AbortSignal.timeout(100) }));
    expect(error.message).toBe(`test: the call to the LLM at ${url()} was cancelled`);
    expect(error.transient).toBe(false);
  });
});

// ---- unusable answers -----------------------------------------------------------------------------------------

describe("chatCompletion on an unusable answer", () => {
  it("says what was wrong, permanently", async () => {
    const cases: Array<[Reply, string]> = [
      [{ status: 200, body: "<html>proxy  page</html>" }, `test: the LLM at ${url()} answered with something that is not JSON: <html>proxy page</html>`],
      [{ status: 200, body: { result: "hello" } }, `test: the LLM at ${url()} did not answer in the chat-completions format (`],
      [{ status: 200, body: { choices: [] } }, "the answer has no choices"],
      [answer(null, { refusal: "I cannot help with that" }), "test: the model refused: I cannot help with that"],
      [answer('{"artifact": {"pro', { finish_reason: "length" }), 'test: the model\'s answer was cut off at its output limit (finish_reason "length"); use a model with a larger output limit'],
      [answer("   "), "test: the model's answer is empty"],
      [answer(null), "test: the model's answer is empty"],
    ];
    for (const [reply, message] of cases) {
      const error = await failing(reply);
      expect(error.message).toContain(message);
      expect(error.transient).toBe(false);
      expect(error.status).toBeUndefined();
    }
  });
});

describe("LlmError", () => {
  it("is permanent unless said otherwise", () => {
    expect(new LlmError("x")).toMatchObject({ name: "LlmError", message: "x", transient: false });
    expect(new LlmError("y", { transient: true, status: 503, retryAfterMs: 10 })).toMatchObject({ transient: true, status: 503, retryAfterMs: 10 });
  });
});
