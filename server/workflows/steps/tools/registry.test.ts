// The tool registry: the catalog the validation reads, listTools' JSON Schemas, and how `run` checks params and
// results, applies time limits and cancellation, and says whether a failure is worth a retry.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry, listTools, toolRegistry } from "./registry";
import { type TestContext, testContext } from "../../../testing/stepTools";
import { ToolError, defineTool } from "./tool";

let context: TestContext;
beforeEach(async () => {
  context = await testContext();
});
afterEach(async () => {
  await context.cleanup();
});

const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected the tool to fail"), (error: unknown) => error as ToolError);

describe("the catalog", () => {
  it("holds every tool of Summit-Flow, each with a zod schema for its params", () => {
    expect(toolRegistry.names()).toEqual(["utils.echo", "utils.delay", "utils.http", "llm.generate", "llm.extract_entities", "search.google", "graph.create_nodes", "graph.cypher"]);
    expect(toolRegistry.has("search.google")).toBe(true);
    expect(toolRegistry.has("search.bing")).toBe(false);
    expect(toolRegistry.paramsSchema("utils.delay").safeParse({ ms: 10 }).success).toBe(true);
    expect(toolRegistry.paramsSchema("utils.delay").safeParse({ ms: -1 }).success).toBe(false);
  });

  it("lists each tool's name, description and params as JSON Schema", () => {
    const tools = listTools();
    expect(tools).toHaveLength(8);
    for (const tool of tools) expect(tool.description.length, tool.name).toBeGreaterThan(20);
    const http = tools.find((tool) => tool.name === "utils.http");
    expect(http?.params).toMatchObject({ type: "object", required: ["url"], properties: { url: { type: "string", format: "uri" }, method: { default: "GET" } } });
    expect(tools.find((tool) => tool.name === "search.google")?.params).toMatchObject({ properties: { query: { type: "string" } }, required: ["query"] });
    expect(JSON.parse(JSON.stringify(tools))).toEqual(tools);
  });

  it("refuses two tools of one name", () => {
    const echo = toolRegistry.get("utils.echo");
    expect(echo).toBeDefined();
    if (echo) expect(() => new ToolRegistry([echo, echo])).toThrow("two tools are named utils.echo");
  });
});

describe("run", () => {
  it("utils.echo answers its params", async () => {
    const params = { a: 1, b: ["x", { c: null }], d: "text" };
    expect(await toolRegistry.run("utils.echo", params, context)).toEqual(params);
  });

  it("refuses params that do not fit the tool, saying where, as a failure not worth retrying", async () => {
    const error = await failure(toolRegistry.run("utils.delay", { ms: 10 * 60_000 }, context));
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ transient: false, message: expect.stringMatching(/^step test: utils.delay cannot take these params: params.ms: ms must be at most 300000/) });
    await expect(toolRegistry.run("no.such", {}, context)).rejects.toThrow("there is no tool no.such: the tools are utils.echo, utils.delay");
  });

  it("utils.delay waits, and stops at once when the step is cancelled", async () => {
    const started = Date.now();
    expect(await toolRegistry.run("utils.delay", { ms: 30 }, context)).toEqual({ ms: 30 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const cancel = new AbortController();
    const pending = failure(toolRegistry.run("utils.delay", { ms: 60_000 }, { ...context, signal: cancel.signal }));
    setTimeout(() => cancel.abort(), 20);
    expect(await pending).toMatchObject({ transient: false, message: "step test: utils.delay was cancelled" });
  });

  it("stops a tool at the step's time limit, as a failure worth retrying", async () => {
    const started = Date.now();
    const error = await failure(toolRegistry.run("utils.delay", { ms: 60_000 }, context, { timeoutMs: 50 }));
    expect(error).toMatchObject({ transient: true, message: "step test: utils.delay did not finish within 50 ms" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends the step at its time limit even when the tool ignores its signal", async () => {
    const stubborn = defineTool({
      name: "test.stubborn",
      description: "never looks at its signal",
      params: z.object({}),
      result: z.object({}),
      defaultTimeoutMs: 30,
      run: () => new Promise<Record<string, never>>((resolve) => setTimeout(() => resolve({}), 2_000)),
    });
    await expect(new ToolRegistry([stubborn]).run("test.stubborn", {}, context)).rejects.toMatchObject({ transient: true, message: expect.stringContaining("within 30 ms") });
  });

  it("checks a tool's answer against its result schema, and keeps a failure's own word on retrying", async () => {
    const tools = new ToolRegistry([
      defineTool({ name: "test.wrong", description: "answers the wrong shape", params: z.object({}), result: z.object({ n: z.number() }), defaultTimeoutMs: 1000, run: async () => ({ n: "one" }) as unknown as { n: number } }),
      defineTool({
        name: "test.flaky",
        description: "fails like an overloaded LLM",
        params: z.object({}),
        result: z.object({}),
        defaultTimeoutMs: 1000,
        run: () => Promise.reject<never>(Object.assign(new Error("overloaded"), { transient: true })),
      }),
    ]);
    await expect(tools.run("test.wrong", {}, context)).rejects.toThrow("step test: test.wrong answered something that is not its result (n:");
    await expect(tools.run("test.flaky", {}, context)).rejects.toMatchObject({ transient: true, message: "step test: test.flaky: overloaded" });
  });
});
