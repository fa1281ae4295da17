/**
 * The agent pipeline's REST API at the seed's paths (agent-pipeline-backend.md section 7): existing n8n flows and
 * clients call these, so paths, bodies and answers are kept. Validation failures answer 422 with `detail`, as the
 * seed's FastAPI backend did. Handlers parse and delegate; the service decides.
 */
import { Hono } from "hono";
import { CancelBody } from "../engine/schemas";
import type { PipelineService } from "../pipeline/service";
import { ApproveBody, CreateRunBody, RejectBody, StoreArtifactBody } from "../pipeline/schemas";
import { actorOf } from "./actor";
import { HttpError, readBody } from "./errors";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Seed 7.5: the preferred body, the `{ body: {...} }` wrapper some n8n set-ups send, and the fallback without `content`. */
export function parseAgentCallback(raw: unknown): { runId: string; output: { content: Record<string, unknown>; metadata: Record<string, unknown> | null } | { failed: string } } {
  if (!isObject(raw)) throw new HttpError(422, "invalid_body", "body: expected a JSON object with run_id and content");
  const inner = isObject(raw.body) && ("run_id" in raw.body || "content" in raw.body) ? raw.body : raw;
  const runId = inner.run_id;
  if (typeof runId !== "string" || runId.trim() === "") throw new HttpError(422, "invalid_body", "run_id: required (the run_id the agent was called with)");
  if (inner.status === "failed") {
    return { runId, output: { failed: typeof inner.error === "string" && inner.error ? inner.error : "the agent reported a failure without an error message" } };
  }
  let content: unknown;
  let metadata: Record<string, unknown> | null = null;
  if ("content" in inner) {
    content = inner.content;
    if (isObject(inner.metadata)) metadata = inner.metadata;
  } else {
    const { run_id: _runId, ...rest } = inner;
    content = rest;
  }
  if (typeof content === "string") {
    try {
      content = JSON.parse(content);
    } catch {
      throw new HttpError(422, "invalid_body", "content: a string that is not JSON; send the agent's output as a JSON object");
    }
  }
  if (!isObject(content) || Object.keys(content).length === 0) {
    throw new HttpError(422, "invalid_body", "content: expected the agent's output as a non-empty JSON object ({ artifact, changes_made, justification })");
  }
  return { runId, output: { content, metadata } };
}

export function pipelineRoutes(pipeline: PipelineService): Hono {
  const app = new Hono();

  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/agents", (c) => c.json(pipeline.listAgents()));

  app.post("/runs", async (c) => {
    const body = await readBody(c, CreateRunBody, { invalidStatus: 422 });
    return c.json(await pipeline.createRun(body));
  });
  app.get("/runs", async (c) => c.json(await pipeline.listRuns()));
  app.get("/runs/:runId", async (c) => c.json(await pipeline.getRun(c.req.param("runId"))));

  app.post("/callbacks/agent/:slug", async (c) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      throw new HttpError(422, "invalid_json", "request body is not valid JSON");
    }
    const { runId, output } = parseAgentCallback(raw);
    return c.json(await pipeline.receiveCallback(c.req.param("slug"), runId, output));
  });

  app.post("/runs/:runId/approve", async (c) => {
    const body = await readBody(c, ApproveBody, { invalidStatus: 422 });
    return c.json(await pipeline.approve(c.req.param("runId"), actorOf(c), body.expected));
  });
  app.post("/runs/:runId/reject", async (c) => {
    const body = await readBody(c, RejectBody, { invalidStatus: 422 });
    return c.json(await pipeline.reject(c.req.param("runId"), body.feedback, actorOf(c), body.expected));
  });
  app.post("/runs/:runId/retry", async (c) => c.json(await pipeline.retry(c.req.param("runId"), actorOf(c))));
  app.post("/runs/:runId/cancel", async (c) => {
    const body = await readBody(c, CancelBody, { invalidStatus: 422 });
    return c.json(await pipeline.cancel(c.req.param("runId"), body.reason, actorOf(c)));
  });

  app.post("/runs/:runId/artifacts", async (c) => {
    const body = await readBody(c, StoreArtifactBody, { invalidStatus: 422 });
    return c.json(await pipeline.storeArtifact(c.req.param("runId"), body.artifact_type, { content: body.content, metadata: body.metadata ?? null }));
  });
  app.get("/runs/:runId/artifacts", async (c) => c.json(await pipeline.listArtifacts(c.req.param("runId"))));
  app.get("/runs/:runId/artifacts/latest", async (c) => {
    const type = c.req.query("artifact_type") ?? c.req.query("type");
    if (!type) throw new HttpError(422, "invalid_query", "artifact_type: required query parameter (legacy name: type)");
    return c.json(await pipeline.latestArtifact(c.req.param("runId"), type));
  });
  app.get("/runs/:runId/artifacts/export", async (c) => {
    const runId = c.req.param("runId");
    const payload = await pipeline.exportRun(runId);
    if (c.req.query("download") !== undefined) c.header("content-disposition", `attachment; filename="${runId}-export.json"`);
    return c.json(payload);
  });
  app.get("/runs/:runId/artifacts/bundle", async (c) => {
    const runId = c.req.param("runId");
    const zip = await pipeline.bundle(runId);
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${runId}-artifacts.zip"`,
    });
  });
  return app;
}
