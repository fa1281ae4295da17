/**
 * The engine's REST surface for workers and integrators (plain JSON: n8n and edge functions call these).
 * Handlers only parse and delegate: changes to the flows' front door (which refuses runs another front door owns),
 * reads to the engine's queries, and a run's conversation to the flows' queries.
 */
import { Hono } from "hono";
import { z } from "zod";
import { presentedToken } from "../engine/callbackToken";
import type { Engine } from "../engine/engine";
import type { FlowCommands } from "../flows/commands";
import type { Flows } from "../flows/flows";
import type { FlowQueries } from "../flows/queries";
import { CheckGraphBody, DiffQuery, FlowDraftBody, RestoreVersionBody, SaveVersionBody, StartFlowRunBody } from "../flows/versionSchemas";
import { CallbackBody, CancelBody, CreateFlowBody, ReviewBody } from "../engine/schemas";
import { actorOf, callerOf, starterOf } from "./actor";
import { readBody, readQuery } from "./errors";
import { auditScopeOf } from "./guard";
import { pageAnswer, pageQuery } from "./paging";
import { stitchPaths as paths } from "./paths";

const AnyJson = z.unknown();

/** A version's number in a path: a whole number from 1, else 404 (no version is called that). */
const versionParam = z.coerce.number().int().positive();

export function stitchRoutes(engine: Engine, flows: FlowCommands, flowQueries: FlowQueries, designer: Flows["versions"]): Hono {
  const app = new Hono();
  const { commands: versions, queries: versionQueries } = designer;
  const versionOf = (c: { req: { param(name: "version"): string } }) => {
    const n = versionParam.safeParse(c.req.param("version"));
    return n.success ? n.data : Number.NaN;
  };

  app.post(paths.flows.pattern, async (c) => {
    const body = await readBody(c, CreateFlowBody);
    return c.json(await versions.createFlow(body.name, body.graph, callerOf(c)), 201);
  });
  app.get(paths.flows.pattern, async (c) => c.json(await versionQueries.listFlows()));
  // The check of a graph as it is drawn: exactly what storing it would refuse; nothing is stored.
  app.post(paths.flowCheck.pattern, async (c) => c.json(versionQueries.check((await readBody(c, CheckGraphBody)).graph)));
  app.get(paths.drafts.pattern, async (c) => c.json(await versionQueries.drafts(callerOf(c))));
  app.get(paths.flow.pattern, async (c) => c.json(await engine.getFlow(c.req.param("id"))));
  app.post(paths.flowRuns.pattern, async (c) => {
    const body = await readBody(c, StartFlowRunBody);
    return c.json(await flows.startRun(c.req.param("id"), body.input, starterOf(c), auditScopeOf(c), body.version), 201);
  });
  app.get(paths.flowVersions.pattern, async (c) => c.json(await versionQueries.versions(c.req.param("id"))));
  app.post(paths.flowVersions.pattern, async (c) => {
    const body = await readBody(c, SaveVersionBody);
    return c.json(await versions.saveVersion(c.req.param("id"), body, callerOf(c)), 201);
  });
  app.get(paths.flowVersion.pattern, async (c) => c.json(await versionQueries.version(c.req.param("id"), versionOf(c))));
  app.post(paths.flowRestore.pattern, async (c) => {
    const body = await readBody(c, RestoreVersionBody);
    return c.json(await versions.restoreVersion(c.req.param("id"), versionOf(c), body, callerOf(c)), 201);
  });
  app.get(paths.flowDiff.pattern, async (c) => c.json(await versionQueries.diff(c.req.param("id"), readQuery(c, DiffQuery))));
  app.get(paths.flowDraft.pattern, async (c) => c.json(await versionQueries.draft(c.req.param("id"), callerOf(c))));
  app.put(paths.flowDraft.pattern, async (c) => c.json(await versions.saveDraft(c.req.param("id"), await readBody(c, FlowDraftBody), callerOf(c))));
  app.delete(paths.flowDraft.pattern, async (c) => c.json(await versions.discardDraft(c.req.param("id"), callerOf(c))));
  app.get(paths.runs.pattern, async (c) => pageAnswer(c, await engine.listRuns({ flowId: c.req.query("flow_id"), ...pageQuery(c) })));
  app.get(paths.run.pattern, async (c) => c.json(await engine.getRun(c.req.param("id"))));
  app.get(paths.runEvents.pattern, async (c) => c.json(await engine.runEvents(c.req.param("id"))));
  // A plain flow run told as a conversation: its input, each node starting and ending, each gate waiting and decided.
  app.get(paths.runConversation.pattern, async (c) => c.json(await flowQueries.conversation(c.req.param("id"))));
  // The whole run stops: unfinished nodes become cancelled and nothing more is sent.
  app.post(paths.runCancel.pattern, async (c) => {
    const body = await readBody(c, CancelBody);
    return c.json(await flows.cancel(c.req.param("id"), body.reason, actorOf(c)));
  });

  // A worker reports completion or failure; with a callback secret, only with its callback URL's token.
  app.post(paths.callback.pattern, async (c) => {
    const { runId, nodeId } = c.req.param();
    const token = presentedToken(c.req.query("token"), c.req.header("authorization"));
    engine.authorizeCallback(runId, nodeId, token);
    const body = await readBody(c, CallbackBody);
    return c.json(await flows.callback(runId, nodeId, token, body));
  });
  // A person completes a UX node; the body is their input and becomes the node's output.
  app.post(paths.complete.pattern, async (c) => {
    const output = await readBody(c, AnyJson, { emptyAs: null });
    const { runId, nodeId } = c.req.param();
    return c.json(await flows.complete(runId, nodeId, output, callerOf(c)));
  });
  // A failed node is fired again.
  app.post(paths.retry.pattern, async (c) => {
    const { runId, nodeId } = c.req.param();
    return c.json(await flows.retry(runId, nodeId, actorOf(c)));
  });
  // A review gate: approve the reviewed output, or reject it with feedback so its worker runs again.
  app.post(paths.review.pattern, async (c) => {
    const body = await readBody(c, ReviewBody);
    const { runId, nodeId } = c.req.param();
    return c.json(await flows.review(runId, nodeId, body, callerOf(c)));
  });
  return app;
}
