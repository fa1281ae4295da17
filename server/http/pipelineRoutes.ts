/**
 * The agent pipeline's REST API at the paths its existing clients and n8n flows call, with their bodies and
 * answers. Validation failures answer 422 with `detail`, as the pipeline's original FastAPI backend did.
 * Handlers parse and delegate: commands decide, queries read.
 */
import { Hono } from "hono";
import { presentedToken } from "../engine/callbackToken";
import { CancelBody } from "../engine/schemas";
import type { Pipeline } from "../pipeline/pipeline";
import { AgentCallbackBody } from "../pipeline/protocol";
import { ApproveBody, CreateRunBody, EditBriefBody, RejectBody, StoreArtifactBody } from "../pipeline/schemas";
import { actorOf, callerOf, starterOf } from "./actor";
import { HttpError, readBody } from "./errors";
import { pageAnswer, pageQuery } from "./paging";
import { pipelinePaths as paths } from "./paths";

const invalid = { invalidStatus: 422 } as const;

export function pipelineRoutes({ commands, queries }: Pipeline): Hono {
  const app = new Hono();

  app.get(paths.agents.pattern, (c) => c.json(queries.listAgents()));

  app.post(paths.runs.pattern, async (c) => c.json(await commands.createRun(await readBody(c, CreateRunBody, invalid), starterOf(c))));
  app.get(paths.runs.pattern, async (c) => pageAnswer(c, await queries.listRuns(pageQuery(c))));
  app.get(paths.run.pattern, async (c) => c.json(await queries.getRun(c.req.param("run_id"))));

  // With PIPELINE_CALLBACK_SECRET, only with the token of the callback_url the agent was given (401 without one, before the body is read).
  app.post(paths.agentCallback.pattern, async (c) => {
    const token = presentedToken(c.req.query("token"), c.req.header("authorization"));
    commands.requireCallbackToken(token);
    const callback = await readBody(c, AgentCallbackBody, invalid);
    const call = c.req.query("call");
    if (call !== undefined && !/^[1-9]\d{0,8}$/.test(call)) throw new HttpError(422, "invalid_query", "call: the call's number from the callback_url (a positive integer)");
    return c.json(await commands.receiveCallback(c.req.param("agent_slug"), callback, token, call === undefined ? undefined : Number(call)));
  });

  app.post(paths.approve.pattern, async (c) => {
    const body = await readBody(c, ApproveBody, invalid);
    return c.json(await commands.approve(c.req.param("run_id"), callerOf(c), body.expected, body.comment));
  });
  app.post(paths.reject.pattern, async (c) => {
    const body = await readBody(c, RejectBody, invalid);
    return c.json(await commands.reject(c.req.param("run_id"), body.feedback, callerOf(c), body.expected));
  });
  app.post(paths.retry.pattern, async (c) => c.json(await commands.retry(c.req.param("run_id"), actorOf(c))));
  app.post(paths.cancel.pattern, async (c) => {
    const body = await readBody(c, CancelBody, invalid);
    return c.json(await commands.cancel(c.req.param("run_id"), body.reason, callerOf(c)));
  });
  app.post(paths.brief.pattern, async (c) => {
    const body = await readBody(c, EditBriefBody, invalid);
    return c.json(await commands.editBrief(c.req.param("run_id"), body.brief, callerOf(c)));
  });

  app.post(paths.artifacts.pattern, async (c) => {
    const body = await readBody(c, StoreArtifactBody, invalid);
    return c.json(await commands.storeArtifact(c.req.param("run_id"), body.artifact_type, { content: body.content, metadata: body.metadata ?? null }));
  });
  app.get(paths.artifacts.pattern, async (c) => c.json(await queries.listArtifacts(c.req.param("run_id"))));
  app.get(paths.latestArtifact.pattern, async (c) => {
    const type = c.req.query("artifact_type") ?? c.req.query("type");
    if (!type) throw new HttpError(422, "invalid_query", "artifact_type: required query parameter (legacy name: type)");
    return c.json(await queries.latestArtifact(c.req.param("run_id"), type));
  });
  app.get(paths.exportArtifacts.pattern, async (c) => {
    const runId = c.req.param("run_id");
    const payload = await queries.exportRun(runId);
    if (c.req.query("download") !== undefined) c.header("content-disposition", `attachment; filename="${runId}-export.json"`);
    return c.json(payload);
  });
  app.get(paths.bundle.pattern, async (c) => {
    const runId = c.req.param("run_id");
    const zip = await queries.bundle(runId);
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${runId}-artifacts.zip"`,
    });
  });
  return app;
}
