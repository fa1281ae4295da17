/** produceArtifact: the LLM when configured, the deterministic draft otherwise, and never a silent fallback. */
import { afterEach, describe, expect, it } from "vitest";
import { BRIEFS, type ChatServer, completion, firstCall, runPipeline, startChatServer } from "../../testing/agentTestkit";
import { ARTIFACT_TYPES } from "../artifacts";
import { DETERMINISTIC_NOTE, produceArtifact } from "./builtin";
import { draft } from "./drafts";
import { LlmError } from "./llm";
import { AgentInputError } from "./request";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("produceArtifact", () => {
  it("drafts deterministically without an LLM and says so in the metadata", async () => {
    const request = firstCall({ domain: BRIEFS.clinic.domain, brief: BRIEFS.clinic.brief });
    const produced = await produceArtifact("requirements", request, {});
    expect(produced.metadata).toEqual({ generator: "deterministic", note: DETERMINISTIC_NOTE });
    expect(DETERMINISTIC_NOTE).toContain("LLM_BASE_URL");
    expect(produced.content).toEqual(draft("requirements", request));
  });

  it("produces every agent's artifact in pipeline order", async () => {
    const expected = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    const contextFor = {
      requirements: { domain: BRIEFS.superApp.domain, brief: BRIEFS.superApp.brief },
      inception: { domain: BRIEFS.superApp.domain, brief: BRIEFS.superApp.brief, requirements: expected.requirements },
      agile: { requirements: expected.requirements, inception: expected.inception },
      diagramacion: { requirements: expected.requirements, inception: expected.inception, agile: expected.agile },
      pseudocodigo: { requirements: expected.requirements, agile: expected.agile, diagramacion: expected.diagramacion },
      qa: { requirements: expected.requirements, inception: expected.inception, agile: expected.agile, diagramacion: expected.diagramacion, pseudocodigo: expected.pseudocodigo },
    };
    for (const type of ARTIFACT_TYPES) {
      const produced = await produceArtifact(type, firstCall(contextFor[type]));
      expect(produced.content, type).toEqual(expected[type]);
    }
  });

  it("uses the LLM when configured and names the model", async () => {
    const { requirements } = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    server = await startChatServer(() => completion(JSON.stringify(requirements)));
    const produced = await produceArtifact("requirements", firstCall({ domain: "super-app", brief: BRIEFS.superApp.brief }), {
      llm: { baseUrl: server.baseUrl, model: "gpt-test", timeoutMs: 5000 },
    });
    expect(server.received).toHaveLength(1);
    expect(produced).toEqual({ content: requirements, metadata: { generator: "llm", model: "gpt-test" } });
  });

  it("fails when the configured LLM fails, instead of passing off a deterministic draft", async () => {
    server = await startChatServer(() => ({ status: 503, body: { error: { message: "model is loading" } } }));
    const attempt = produceArtifact("requirements", firstCall({ domain: "super-app", brief: BRIEFS.superApp.brief }), {
      llm: { baseUrl: server.baseUrl, model: "gpt-test", timeoutMs: 5000 },
    });
    await expect(attempt).rejects.toThrow(LlmError);
    await expect(attempt).rejects.toThrow("answered HTTP 503: model is loading");
    expect(server.received).toHaveLength(1);
  });

  it("rejects (rather than throwing synchronously) when the request cannot be drafted", async () => {
    const attempt = produceArtifact("qa", firstCall({}));
    await expect(attempt).rejects.toThrow(AgentInputError);
    await expect(attempt).rejects.toThrow("qa: context.requirements is missing");
  });
});
