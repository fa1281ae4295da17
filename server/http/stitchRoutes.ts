/**
 * The engine's REST surface for workers and integrators (plain JSON: n8n and edge functions call these).
 * Handlers only parse, call the engine and answer; every decision is the engine's.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Engine } from "../engine/engine";
import { CallbackBody, CancelBody, CreateFlowBody, ReviewBody, StartRunBody } from "../engine/schemas";
import { actorOf } from "./actor";
import { readBody } from "./errors";

const AnyJson = z.unknown();

export function stitchRoutes(engine: Engine): Hono {
  const app = new Hono();

  app.post("/flows", async (c) => {
    const body = await readBody(c, CreateFlowBody);
    return c.json(await engine.createFlow(body.name, body.graph), 201);
  });
  app.get("/flows", async (c) => c.json(await engine.listFlows()));
  app.get("/flows/:id", async (c) => c.json(await engine.getFlow(c.req.param("id"))));
  app.post("/flows/:id/runs", async (c) => {
    const body = await readBody(c, StartRunBody);
    return c.json(await engine.startRun(c.req.param("id"), body.input), 201);
  });
  app.get("/runs", async (c) => c.json(await engine.listRuns({ flowId: c.req.query("flow_id") })));
  app.get("/runs/:id", async (c) => c.json(await engine.getRun(c.req.param("id"))));
  app.get("/runs/:id/events", async (c) => c.json(await engine.runEvents(c.req.param("id"))));
  // The whole run stops: unfinished nodes become cancelled and nothing more is sent.
  app.post("/runs/:id/cancel", async (c) => {
    const body = await readBody(c, CancelBody);
    return c.json(await engine.cancel(c.req.param("id"), body.reason, actorOf(c)));
  });

  // Requirement 5: a worker reports completion or failure.
  app.post("/callback/:runId/:nodeId", async (c) => {
    const { runId, nodeId } = c.req.param();
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    engine.authorizeCallback(runId, nodeId, c.req.query("token") ?? bearer);
    const body = await readBody(c, CallbackBody);
    return c.json(await engine.handle(runId, { type: "callback", key: nodeId, ...body }));
  });
  // Requirement 8.3: a person completes a UX node; the body is their input and becomes the node's output.
  app.post("/complete/:runId/:nodeId", async (c) => {
    const output = await readBody(c, AnyJson, { emptyAs: null });
    const { runId, nodeId } = c.req.param();
    return c.json(await engine.handle(runId, { type: "complete", key: nodeId, output }, actorOf(c)));
  });
  // Requirement 10: a failed node is fired again.
  app.post("/retry/:runId/:nodeId", async (c) => {
    const { runId, nodeId } = c.req.param();
    return c.json(await engine.handle(runId, { type: "retry", key: nodeId }, actorOf(c)));
  });
  // A review gate: approve the reviewed output, or reject it with feedback so its worker runs again.
  app.post("/review/:runId/:nodeId", async (c) => {
    const body = await readBody(c, ReviewBody);
    const { runId, nodeId } = c.req.param();
    const feedback = body.decision === "reject" ? body.feedback : undefined;
    return c.json(await engine.handle(runId, { type: "review", key: nodeId, decision: body.decision, feedback }, body.actor ?? actorOf(c)));
  });
  return app;
}
