/**
 * The workflows' REST surface, for both formats: handlers parse and delegate to the workflows' door
 * (server/workflows/commands.ts and queries.ts), which decides which front door a request belongs to, so REST and tRPC
 * answer alike. A definition sent as YAML text (`Content-Type: application/yaml` or `text/yaml`) or as
 * `{"yaml": "..."}` is a YAML workflow's; any other JSON object is a step workflow's definition (`{ id, steps, ... }`).
 * Refusals are the engine's shape, plus `issues` for a definition.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { WorkflowDoor } from "../workflows/door";
import { type GivenDefinition, StartAnyRunBody } from "../workflows/schemas";
import { DEFAULT_WAIT_MS, ExecuteBody } from "../workflows/steps/schemas";
import { ApproveBody, CancelBody, InputBody, RejectBody } from "../workflows/yaml/schemas";
import { actorOf, callerOf } from "./actor";
import { HttpError, readBody } from "./errors";
import { pageAnswer, pageQuery } from "./paging";
import { workflowPaths as paths } from "./paths";
import { isPlainObject } from "../lib/json";

const YamlBody = z.object({ yaml: z.string().min(1, "yaml must not be empty") });
const YAML_TYPES = new Set(["application/yaml", "text/yaml", "application/x-yaml"]);

/** A request's definition: YAML text (the raw body, or `yaml` of a JSON body), or a step workflow's JSON definition. */
async function definitionOf(c: Context): Promise<GivenDefinition> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (YAML_TYPES.has(type)) {
    const text = await c.req.text();
    if (text.trim() === "") throw new HttpError(400, "invalid_body", "body: the YAML text must not be empty");
    return { yaml: text };
  }
  const json = await readBody(c, z.unknown(), { emptyAs: null });
  if (isPlainObject(json) && !("yaml" in json)) return { definition: json };
  return readBody(c, YamlBody);
}

export function workflowRoutes({ commands, queries }: WorkflowDoor): Hono {
  const app = new Hono();

  app.post(paths.workflows.pattern, async (c) => c.json(await commands.register(await definitionOf(c)), 201));
  app.post(paths.validate.pattern, async (c) => c.json(await commands.validate(await definitionOf(c))));
  app.get(paths.workflows.pattern, async (c) => c.json(await queries.listWorkflows()));

  app.post(paths.execute.pattern, async (c) => {
    const body = await readBody(c, ExecuteBody);
    const started = await commands.execute(body.workflow, body.inputs, callerOf(c));
    if (!body.wait) return c.json(started, 201);
    const { run, ended } = await queries.waitForEnd(started.id, body.timeout_ms ?? DEFAULT_WAIT_MS);
    return c.json(run, ended ? 200 : 202);
  });
  app.get(paths.tools.pattern, (c) => c.json(queries.listTools()));

  app.get(paths.runs.pattern, async (c) => pageAnswer(c, await queries.runsPage({ workflow: c.req.query("workflow"), ...pageQuery(c) })));
  app.get(paths.run.pattern, async (c) => c.json(await queries.getRun(c.req.param("runId"))));
  app.post(paths.runCancel.pattern, async (c) => c.json(await commands.cancel(c.req.param("runId"), (await readBody(c, CancelBody)).reason, callerOf(c))));
  app.post(paths.runResume.pattern, async (c) => c.json(await commands.resume(c.req.param("runId"), actorOf(c))));
  app.post(paths.approve.pattern, async (c) => {
    const body = await readBody(c, ApproveBody);
    return c.json(await commands.approve(c.req.param("runId"), c.req.param("nodeId"), body.comment, callerOf(c)));
  });
  app.post(paths.reject.pattern, async (c) => {
    const body = await readBody(c, RejectBody);
    return c.json(await commands.reject(c.req.param("runId"), c.req.param("nodeId"), body.reason, callerOf(c)));
  });
  app.post(paths.input.pattern, async (c) => {
    const body = await readBody(c, InputBody);
    return c.json(await commands.input(c.req.param("runId"), c.req.param("nodeId"), body.text, callerOf(c)));
  });
  app.post(paths.retry.pattern, async (c) => c.json(await commands.retry(c.req.param("runId"), c.req.param("nodeId"), actorOf(c))));

  app.get(paths.workflow.pattern, async (c) => c.json(await queries.getWorkflow(c.req.param("name"))));
  app.post(paths.workflowRuns.pattern, async (c) => c.json(await commands.startRun(c.req.param("name"), await readBody(c, StartAnyRunBody), callerOf(c)), 201));
  return app;
}
