import { afterEach, describe, expect, it } from "vitest";
import { type LlmConfig, LlmError } from "../../llm/chat";
import { type ChatAnswer, type ChatServer, completion, startChatServer } from "../../testing/agentTestkit";
import { complete, offlineAnswer, requestedSignal } from "./llm";
import { hasCompletionSignal } from "./loopSignal";

// The HTTP-level behaviour (statuses, timeouts, unusable answers) is chatCompletion's: server/llm/chat.test.ts.

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function endpoint(...answers: ChatAnswer[]): Promise<LlmConfig> {
  server = await startChatServer(() => answers.shift() ?? completion("default answer"));
  return { baseUrl: server.baseUrl, apiKey: "sk-test", model: "default-model", timeoutMs: 5000 };
}

// ---- with an endpoint ----------------------------------------------------------------------------------

describe("complete with an endpoint", () => {
  it("sends one chat completion with the system text, the history and the prompt, and returns the answer", async () => {
    const config = await endpoint(completion("Paris", { model: "gpt-test-2024" }));
    const result = await complete(
      { prompt: "And France?", system: "Answer in one word.", history: [{ role: "user", content: "Capital of Spain?" }, { role: "assistant", content: "Madrid" }] },
      config,
    );
    expect(result).toEqual({ text: "Paris", responder: "llm", model: "gpt-test-2024" });
    expect(server?.received).toHaveLength(1);
    expect(server?.received[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(server?.received[0]?.body).toEqual({
      model: "default-model",
      messages: [
        { role: "system", content: "Answer in one word." },
        { role: "user", content: "Capital of Spain?" },
        { role: "assistant", content: "Madrid" },
        { role: "user", content: "And France?" },
      ],
    });
  });

  it("uses the node's model over LLM_MODEL, and sends no authorization without a key", async () => {
    const config = await endpoint({ status: 200, body: { choices: [{ message: { content: "ok" } }] } });
    expect(await complete({ prompt: "hi", model: "node-model" }, { ...config, apiKey: undefined })).toEqual({ text: "ok", responder: "llm", model: "node-model" });
    expect(server?.received[0]?.body.model).toBe("node-model");
    expect(server?.received[0]?.headers.authorization).toBeUndefined();
  });

  it("fails with an LlmError that says whether to retry, labelled with the caller's label", async () => {
    const config = await endpoint({ status: 500, body: { error: { message: "upstream overloaded" } } }, { status: 400, body: "bad request" }, completion("second time lucky"));
    const transient = await complete({ prompt: "hi" }, config, { label: "node summarise" }).catch((error: unknown) => error);
    expect(transient).toBeInstanceOf(LlmError);
    expect(transient).toMatchObject({ transient: true, status: 500, message: `node summarise: the LLM at ${config.baseUrl}/chat/completions answered HTTP 500: upstream overloaded` });
    await expect(complete({ prompt: "hi" }, config)).rejects.toMatchObject({ transient: false, status: 400, message: expect.stringMatching(/^workflow: /) });
    expect(await complete({ prompt: "hi" }, config)).toMatchObject({ text: "second time lucky", responder: "llm" });
  });

  it("stops when the caller's signal aborts, as a permanent failure", async () => {
    const config = await endpoint("hang");
    await expect(complete({ prompt: "hi" }, config, { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: "LlmError", transient: false, message: expect.stringContaining("cancelled") });
  });
});

// ---- offline -----------------------------------------------------------------------------------------------

describe("complete offline", () => {
  it("answers deterministically, says it is offline, and echoes the prompt's first lines", async () => {
    const prompt = "Summarise the release notes.\n\n- Fixed the login bug\n- Added dark mode\n- Dropped IE support";
    const first = await complete({ prompt }, undefined);
    expect(first).toEqual(await complete({ prompt }, undefined));
    expect(first.responder).toBe("offline");
    expect(first.model).toBeUndefined();
    expect(first.text.split("\n")[0]).toMatch(/^\[offline responder: no LLM is configured/);
    expect(first.text).toContain("> Summarise the release notes.\n> - Fixed the login bug\n> - Added dark mode");
    expect(first.text).not.toContain("Dropped IE support");
    expect(first.text).toContain("5 lines");
    expect((await complete({ prompt: `${prompt}!` }, undefined)).text).not.toBe(first.text);
  });

  it("counts the conversation's turns from the history", () => {
    const history = [
      { role: "user" as const, content: "a" },
      { role: "assistant" as const, content: "b" },
    ];
    expect(offlineAnswer({ prompt: "go on" })).toContain("turn 1,");
    expect(offlineAnswer({ prompt: "go on", history })).toContain("turn 2,");
  });

  it("emits a requested completion signal, so an offline loop completes on its first iteration", () => {
    const cases: Array<[string, string]> = [
      ["Fix the failing tests. When everything passes, answer with <promise>DONE</promise>.", "DONE"],
      ["Keep improving the draft.\nSay COMPLETE when finished.", "COMPLETE"],
      ["Iterate on the plan. Once you are done, output READY.", "READY"],
    ];
    for (const [prompt, signal] of cases) {
      const text = offlineAnswer({ prompt });
      expect(hasCompletionSignal(text, signal)).toBe(true);
      expect(text.trimEnd().endsWith(signal) || text.trimEnd().endsWith(`<promise>${signal}</promise>`)).toBe(true);
    }
    expect(offlineAnswer({ prompt: "Say hello when you see them." }).split("\n").at(-1)).toMatch(/^> /);
    expect(hasCompletionSignal(offlineAnswer({ prompt: "Loop until it works.", completionSignal: "SHIP_IT" }), "SHIP_IT")).toBe(true);
  });

  it("finds the signal in the system text too, and keeps the promise form", () => {
    expect(requestedSignal({ prompt: "Work on it.", system: "Reply with <promise>FINISHED</promise> once the work is complete." })).toEqual({ signal: "FINISHED", promise: true });
    expect(requestedSignal({ prompt: "Answer with <promise>X</promise> when done", completionSignal: "X" })).toEqual({ signal: "X", promise: true });
    expect(requestedSignal({ prompt: "Just a question." })).toBeUndefined();
  });
});
