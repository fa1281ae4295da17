// llm.generate and llm.extract_entities: offline (no LLM configured) and through a stand-in OpenAI-compatible
// endpoint on 127.0.0.1 (server/testing/agentTestkit).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ChatAnswer, type ChatServer, completion, startChatServer } from "../../../testing/agentTestkit";
import { textOf } from "./llm.extract_entities";
import { toolRegistry } from "./registry";
import { type TestContext, testContext } from "../../../testing/stepTools";

const TEXT = "Tim Cook is the chief executive of Apple Inc. in Cupertino, California. Jane Doe joined Acme Corporation in Berlin.";

let context: TestContext;
let chat: ChatServer | undefined;
beforeEach(async () => {
  context = await testContext();
});
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await context.cleanup();
});

/** The context with a stand-in endpoint that gives `answers` in turn. */
async function withEndpoint(...answers: ChatAnswer[]): Promise<TestContext> {
  chat = await startChatServer(() => answers.shift() ?? completion("no more answers"));
  return { ...context, llm: { baseUrl: chat.baseUrl, model: "test-model", timeoutMs: 5_000 } };
}

describe("llm.generate", () => {
  it("answers offline with no LLM configured, saying so", async () => {
    const answer = (await toolRegistry.run("llm.generate", { prompt: "Summarise the findings." }, context)) as { text: string; responder: string };
    expect(answer.responder).toBe("offline");
    expect(answer.text).toMatch(/^\[offline responder: no LLM is configured/);
  });

  it("sends the prompt, system text and model to the endpoint", async () => {
    const ctx = await withEndpoint(completion("Three executives were found."));
    expect(await toolRegistry.run("llm.generate", { prompt: "Summarise.", system: "Be brief.", model: "other-model" }, ctx)).toEqual({ text: "Three executives were found.", responder: "llm" });
    expect(chat?.received[0]?.body).toMatchObject({ model: "other-model", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Summarise." }] });
  });

  it("keeps the endpoint's word on retrying", async () => {
    const ctx = await withEndpoint({ status: 503, body: { error: { message: "overloaded" } } }, { status: 400, body: { error: { message: "bad model" } } });
    await expect(toolRegistry.run("llm.generate", { prompt: "hi" }, ctx)).rejects.toMatchObject({ transient: true, message: expect.stringContaining("HTTP 503: overloaded") });
    await expect(toolRegistry.run("llm.generate", { prompt: "hi" }, ctx)).rejects.toMatchObject({ transient: false, message: expect.stringContaining("HTTP 400") });
  });
});

describe("llm.extract_entities offline", () => {
  it("finds people, organizations and places with the compromise NLP library", async () => {
    const answer = await toolRegistry.run("llm.extract_entities", { text: TEXT }, context);
    expect(answer).toMatchObject({ responder: "offline", count: 6 });
    expect((answer as { entities: unknown[] }).entities).toEqual([
      { name: "Tim Cook", type: "Person", properties: { mentions: 1 } },
      { name: "Apple Inc.", type: "Organization", properties: { mentions: 1 } },
      { name: "Cupertino, California", type: "Place", properties: { mentions: 1 } },
      { name: "Jane Doe", type: "Person", properties: { mentions: 1 } },
      { name: "Acme Corporation", type: "Organization", properties: { mentions: 1 } },
      { name: "Berlin", type: "Place", properties: { mentions: 1 } },
    ]);
  });

  it("keeps only the schema's type, reading an object's `text` field", async () => {
    const searchOutput = { results: [{ title: "x", link: "https://example.com", snippet: "y" }], text: TEXT };
    expect(await toolRegistry.run("llm.extract_entities", { text: searchOutput, schema: "Person" }, context)).toEqual({
      entities: [
        { name: "Tim Cook", type: "Person", properties: { mentions: 1 } },
        { name: "Jane Doe", type: "Person", properties: { mentions: 1 } },
      ],
      summary: "Found 2 Person entities: Tim Cook, Jane Doe (offline extractor, no LLM configured).",
      count: 2,
      responder: "offline",
    });
    expect(await toolRegistry.run("llm.extract_entities", { text: "", schema: "company" }, context)).toMatchObject({ count: 0, summary: expect.stringMatching(/^Found no Organization entities/) });
  });

  it("refuses a type the offline extractor does not know, naming those it knows", async () => {
    await expect(toolRegistry.run("llm.extract_entities", { text: TEXT, schema: "Product" }, context)).rejects.toThrow("knows only Person, Organization, Place: not \"Product\"");
  });

  it("reads any JSON value as text", () => {
    expect(textOf("plain")).toBe("plain");
    expect(textOf({ text: { text: "nested" } })).toBe("nested");
    expect(textOf({ title: "Acme" })).toBe('{\n  "title": "Acme"\n}');
    expect(textOf([1, 2])).toBe("[\n  1,\n  2\n]");
    expect(textOf(null)).toBe("");
  });
});

describe("llm.extract_entities through the endpoint", () => {
  it("asks for JSON and answers the validated entities, of the schema's type, each once", async () => {
    const ctx = await withEndpoint(
      completion(
        JSON.stringify({
          entities: [
            { name: "Tim Cook", type: "person", properties: { title: "CEO" } },
            { name: "Jane Doe", type: "Person" },
            { name: "tim cook", type: "Person", properties: {} },
          ],
          summary: "Tim Cook leads Apple; Jane Doe joined Acme.",
        }),
      ),
    );
    expect(await toolRegistry.run("llm.extract_entities", { text: TEXT, schema: "Person" }, ctx)).toEqual({
      entities: [
        { name: "Tim Cook", type: "Person", properties: { title: "CEO" } },
        { name: "Jane Doe", type: "Person", properties: {} },
      ],
      summary: "Tim Cook leads Apple; Jane Doe joined Acme.",
      count: 2,
      responder: "llm",
    });
    const sent = chat?.received[0]?.body;
    expect(sent?.response_format).toEqual({ type: "json_object" });
    expect(sent?.messages?.[0]?.content).toContain('Extract only entities of type "Person"');
    expect(sent?.messages?.[1]).toEqual({ role: "user", content: TEXT });
  });

  it("fails, worth a retry, when the model's answer is not the entities asked for", async () => {
    const ctx = await withEndpoint(completion("Here are the people: Tim Cook."), completion('{"people": ["Tim Cook"]}'), completion('```json\n{"entities": [{"name": "Acme", "type": "Organization"}]}\n```'));
    await expect(toolRegistry.run("llm.extract_entities", { text: TEXT }, ctx)).rejects.toMatchObject({ transient: true, message: expect.stringContaining("it is not JSON") });
    await expect(toolRegistry.run("llm.extract_entities", { text: TEXT }, ctx)).rejects.toMatchObject({ transient: true, message: expect.stringContaining("entities") });
    expect(await toolRegistry.run("llm.extract_entities", { text: TEXT }, ctx)).toMatchObject({ count: 1, entities: [{ name: "Acme", type: "Organization" }], summary: "Found 1 entity: Acme." });
  });
});
