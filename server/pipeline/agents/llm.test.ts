/**
 * The LLM client against a real HTTP server speaking the chat-completions protocol: what it sends, how it
 * reads the answer, and a clear error for every way the answer can be unusable.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BRIEFS, type ChatAnswer, type ChatRequest, type ChatServer, completion, feedbackCall, firstCall, runPipeline, startChatServer } from "../../testing/agentTestkit";
import { ConfigError } from "../../lib/configError";
import { type LlmConfig, LlmError, llmConfigFromEnv } from "../../llm/chat";
import { z } from "zod";
import { composeFeedback } from "../../review/feedback";
import { commentOutcomesOf } from "./comments";
import { composeWithLlm } from "./llm";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmAnswering(answer: (request: ChatRequest) => ChatAnswer, overrides: Partial<LlmConfig> = {}): Promise<LlmConfig> {
  server = await startChatServer(answer);
  return { baseUrl: server.baseUrl, apiKey: "sk-test", model: "test-model", timeoutMs: 10_000, ...overrides };
}

const userInput = (request: ChatRequest) => JSON.parse(request.body.messages?.[1]?.content ?? "{}") as { domain?: string; brief?: string; context: Record<string, unknown>; feedback: string; is_feedback: boolean };

/** The stand-in model reads the brief out of the user message, so the test sees the request travel both ways. */
const requirementsFromBrief = (request: ChatRequest): ChatAnswer => {
  const { brief = "" } = userInput(request);
  const sentences = brief.split(/(?<=\.)\s+/);
  return completion(
    JSON.stringify({
      artifact: {
        problem_statement_refined: sentences[0],
        identified_domains: ["mobility"],
        core_capabilities: sentences.map((sentence, index) => ({ id: `CAP-${index + 1}`, name: sentence.replace(/\.$/, "") })),
        external_dependencies: [{ name: "Stripe", purpose: "payments" }],
        assumptions: [],
      },
      changes_made: { added: ["everything"], removed: [], modified: [] },
      justification: "from the brief",
    }),
  );
};

describe("composeWithLlm", () => {
  it("POSTs {LLM_BASE_URL}/chat/completions with the key, the model, JSON mode and the agent's prompt, and returns the checked envelope", async () => {
    const config = await llmAnswering(requirementsFromBrief);
    const envelope = await composeWithLlm(config, "requirements", firstCall({ domain: BRIEFS.superApp.domain, brief: BRIEFS.superApp.brief }));

    expect(server?.received).toHaveLength(1);
    const request = server?.received[0] as ChatRequest;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body.model).toBe("test-model");
    expect(request.body.response_format).toEqual({ type: "json_object" });
    const [system, user] = request.body.messages ?? [];
    expect(system?.role).toBe("system");
    for (const field of ["problem_statement_refined", "identified_domains", "core_capabilities", "external_dependencies", "assumptions", "changes_made", "justification"]) {
      expect(system?.content).toContain(field);
    }
    expect(system?.content).toContain("first draft");
    expect(user?.role).toBe("user");
    expect(userInput(request)).toMatchObject({ domain: "super-app", brief: BRIEFS.superApp.brief, is_feedback: false, feedback: "" });

    expect(envelope.artifact.problem_statement_refined).toBe("We are building a super-app where customers can order food, book rides and pay bills.");
    expect(envelope.artifact.core_capabilities).toHaveLength(5);
    expect(envelope.changes_made).toEqual({ added: ["everything"], removed: [], modified: [] });
  });

  it("asks for a revision with the previous artifact and the feedback, and leaves out the Authorization header without a key", async () => {
    const { agile } = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    const config = await llmAnswering(
      (request) => {
        const input = userInput(request);
        const previous = input.context.artifact as typeof agile.artifact;
        const epics = previous.epics.map((epic, index) => (index === 0 ? { ...epic, user_stories: [...epic.user_stories, { id: "US-099", title: input.feedback }] } : epic));
        return completion(JSON.stringify({ artifact: { epics }, changes_made: { added: ["US-099"], removed: [], modified: [] }, justification: `Applied "${input.feedback}"` }));
      },
      { apiKey: undefined },
    );
    const envelope = await composeWithLlm(config, "agile", feedbackCall(agile, "Add a story for refunds"));
    const request = server?.received[0] as ChatRequest;
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.messages?.[0]?.content).toContain("This is a revision");
    expect(userInput(request)).toMatchObject({ is_feedback: true, feedback: "Add a story for refunds", context: JSON.parse(JSON.stringify(agile)) });
    expect(envelope.artifact.epics[0]?.user_stories.at(-1)).toMatchObject({ id: "US-099", title: "Add a story for refunds" });
    expect(envelope.justification).toBe('Applied "Add a story for refunds"');
  });

  it("with comments: lists each with its anchor, label, quote and request, asks to change only those parts, and returns comment_outcomes", async () => {
    const { requirements } = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    const sent = { anchor: "core_capabilities[CAP-001]", label: "Core capabilities › CAP-001", quote: "CAP-001: Order food" };
    const comments = [{ ...sent, text: "limit orders to 10 items" }];
    const config = await llmAnswering((request) => {
      const listed = z.object({ comments: z.array(z.object({ anchor: z.string(), request: z.string() })) }).parse(userInput(request));
      const comment_outcomes = listed.comments.map((entry) => ({ anchor: entry.anchor, done: true, message: `applied "${entry.request}"` }));
      return completion(JSON.stringify({ ...requirements, comment_outcomes }));
    });
    const call = { ...feedbackCall(requirements, composeFeedback("Tighten the wording.", comments)), comments };
    const envelope = await composeWithLlm(config, "requirements", call);
    const request = server?.received[0] as ChatRequest;
    const system = request.body.messages?.[0]?.content ?? "";
    expect(system).toContain("Apply each comment to exactly the part its anchor names");
    expect(system).toContain('"comment_outcomes"');
    const input = userInput(request);
    expect(input.feedback).toBe("Tighten the wording.");
    expect(input).toMatchObject({ comments: [{ ...sent, request: "limit orders to 10 items" }] });
    expect(commentOutcomesOf(envelope)).toEqual([{ anchor: "core_capabilities[CAP-001]", done: true, message: 'applied "limit orders to 10 items"' }]);
  });

  it("refuses comment_outcomes that are not a list of { anchor, done, message }", async () => {
    const { requirements } = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    const config = await llmAnswering(() => completion(JSON.stringify({ ...requirements, comment_outcomes: [{ anchor: "x", done: "yes" }] })));
    await expect(composeWithLlm(config, "requirements", feedbackCall(requirements, "Tighten the wording."))).rejects.toThrow("comment_outcomes is not a list");
  });

  it("accepts an answer in a Markdown fence, and a bare artifact without the envelope", async () => {
    const source = "sequenceDiagram\n  A->>B: hi\n";
    const artifact = { entity_relationship_model: { entities: [{ name: "Ride" }], relationships: [] }, mermaid_sequence_diagram: source };
    let call = 0;
    const config = await llmAnswering(() => (++call === 1 ? completion(`\`\`\`json\n${JSON.stringify({ artifact, justification: "fenced" })}\n\`\`\``) : completion(JSON.stringify(artifact))));
    const fenced = await composeWithLlm(config, "diagramacion", firstCall({}));
    expect(fenced).toEqual({ artifact, changes_made: { added: [], removed: [], modified: [] }, justification: "fenced" });
    const bare = await composeWithLlm(config, "diagramacion", firstCall({}));
    expect(bare.artifact.mermaid_sequence_diagram).toBe(source);
  });

  describe("errors say what went wrong", () => {
    const call = (config: LlmConfig) => composeWithLlm(config, "requirements", firstCall({ domain: "d", brief: "A brief that says enough." }));

    it("HTTP 401 with the provider's message and a hint about the key", async () => {
      const config = await llmAnswering(() => ({ status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } } }));
      const error = await call(config).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as Error).message).toBe(`requirements: the LLM at ${server?.baseUrl}/chat/completions answered HTTP 401 (check LLM_API_KEY): Incorrect API key provided`);
    });

    it("HTTP 500 with a plain-text body", async () => {
      const config = await llmAnswering(() => ({ status: 500, body: "upstream overloaded" }));
      await expect(call(config)).rejects.toThrow(/answered HTTP 500: upstream overloaded$/);
    });

    it("a wrong base URL (404 from the server)", async () => {
      server = await startChatServer(() => completion("{}"));
      await expect(call({ baseUrl: `${server.baseUrl}/extra`, model: "m", timeoutMs: 5000 })).rejects.toThrow("answered HTTP 404 (check LLM_BASE_URL and LLM_MODEL)");
    });

    it("an answer that is not a chat completion", async () => {
      const config = await llmAnswering(() => ({ status: 200, body: { result: "hello" } }));
      await expect(call(config)).rejects.toThrow("did not answer in the chat-completions format");
    });

    it("a body that is not JSON", async () => {
      const config = await llmAnswering(() => ({ status: 200, body: "<html>proxy error</html>" }));
      await expect(call(config)).rejects.toThrow("answered with something that is not JSON: <html>proxy error</html>");
    });

    it("message content that is not JSON", async () => {
      const config = await llmAnswering(() => completion("Sure! Here are your requirements: ..."));
      await expect(call(config)).rejects.toThrow("requirements: the model's answer is not a JSON object: Sure! Here are your requirements: ...");
    });

    it("JSON that is not the agent's artifact, naming the fields", async () => {
      const config = await llmAnswering(() => completion(JSON.stringify({ artifact: { problem_statement_refined: "p", core_capabilities: "none" }, justification: "j" })));
      const error = await call(config).catch((caught: unknown) => caught as Error);
      expect(error).toBeInstanceOf(LlmError);
      expect(error.message).toMatch(/^requirements: the model's answer is not a valid requirements envelope: /);
      expect(error.message).toContain("artifact.core_capabilities");
      expect(error.message).toContain("artifact.assumptions");
    });

    it("an answer cut off at the output limit, a refusal, an empty answer", async () => {
      const answers = [completion('{"artifact": {"problem', { finish_reason: "length" }), completion("", { refusal: "I can't help with that." }), completion("")];
      const config = await llmAnswering(() => answers.shift() ?? completion(""));
      await expect(call(config)).rejects.toThrow('cut off at its output limit (finish_reason "length")');
      await expect(call(config)).rejects.toThrow("the model refused: I can't help with that.");
      await expect(call(config)).rejects.toThrow("the model's answer is empty");
    });

    it("nothing listening", async () => {
      server = await startChatServer(() => completion("{}"));
      const baseUrl = server.baseUrl;
      await server.close();
      server = undefined;
      await expect(call({ baseUrl, model: "m", timeoutMs: 5000 })).rejects.toThrow(`could not reach the LLM at ${baseUrl}/chat/completions`);
    });

    it("no answer within LLM_TIMEOUT_MS", async () => {
      const config = await llmAnswering(() => "hang", { timeoutMs: 300 });
      await expect(call(config)).rejects.toThrow("did not answer within 300 ms (LLM_TIMEOUT_MS)");
    });
  });
});

describe("llmConfigFromEnv", () => {
  it("is undefined without LLM_BASE_URL, so the built-in agents draft deterministically", () => {
    expect(llmConfigFromEnv({})).toBeUndefined();
    expect(llmConfigFromEnv({ LLM_BASE_URL: "  ", LLM_MODEL: "m" })).toBeUndefined();
  });

  it("reads the URL (without a trailing slash), model, key and timeout", () => {
    expect(llmConfigFromEnv({ LLM_BASE_URL: "https://api.openai.com/v1/", LLM_MODEL: "gpt-4o-mini", LLM_API_KEY: "sk-1", LLM_TIMEOUT_MS: "5000" })).toEqual({
      baseUrl: "https://api.openai.com/v1",
      model: "gpt-4o-mini",
      apiKey: "sk-1",
      timeoutMs: 5000,
    });
    expect(llmConfigFromEnv({ LLM_BASE_URL: "http://localhost:11434/v1", LLM_MODEL: "llama3.1" })).toEqual({ baseUrl: "http://localhost:11434/v1", model: "llama3.1", timeoutMs: 120_000 });
  });

  it("refuses an incomplete or malformed configuration, naming the variable", () => {
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "http://localhost:11434/v1" })).toThrow(ConfigError);
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "http://localhost:11434/v1" })).toThrow("LLM_MODEL is not set");
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "localhost:11434", LLM_MODEL: "m" })).toThrow("LLM_BASE_URL must be an absolute URL");
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1", LLM_MODEL: "m", LLM_TIMEOUT_MS: "soon" })).toThrow("LLM_TIMEOUT_MS must be a positive whole number");
  });
});
