/**
 * The YAML workflows' REST surface. A definition is sent as YAML text (`Content-Type: application/yaml` or
 * `text/yaml`) or as `{"yaml": "..."}`; refusals are the engine's shape, plus `issues` for a definition.
 * Handlers parse and delegate: commands decide, queries read.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { ApproveBody, CancelBody, InputBody, RejectBody, StartRunBody } from "../workflows/yaml/schemas";
import type { YamlWorkflows } from "../workflows/yaml/workflows";
import { actorOf } from "./actor";
import { HttpError, readBody } from "./errors";
import { workflowPaths as paths } from "./paths";

const YamlBody = z.object({ yaml: z.string().min(1, "yaml must not be empty") });

/** The YAML text of a request: the raw body for YAML content types, `yaml` of a JSON body otherwise. */
async function yamlOf(c: Context): Promise<string> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/yaml" || type === "text/yaml" || type === "application/x-yaml") {
    const text = await c.req.text();
    if (text.trim() === "") throw new HttpError(400, "invalid_body", "body: the YAML text must not be empty");
    return text;
  }
  return (await readBody(c, YamlBody)).yaml;
}

export function workflowRoutes({ commands, queries }: YamlWorkflows): Hono {
  const app = new Hono();

  app.post(paths.workflows.pattern, async (c) => c.json(await commands.register(await yamlOf(c)), 201));
  app.post(paths.validate.pattern, async (c) => c.json(commands.validate(await yamlOf(c))));
  app.get(paths.workflows.pattern, async (c) => c.json(await queries.listWorkflows()));

  app.get(paths.runs.pattern, async (c) => c.json(await queries.listRuns({ workflow: c.req.query("workflow") })));
  app.get(paths.run.pattern, async (c) => c.json(await queries.getRun(c.req.param("runId"))));
  app.post(paths.runCancel.pattern, async (c) => {
    const body = await readBody(c, CancelBody);
    return c.json(await commands.cancel(c.req.param("runId"), body.reason, actorOf(c)));
  });
  app.post(paths.runResume.pattern, async (c) => c.json(await commands.resume(c.req.param("runId"), actorOf(c))));
  app.post(paths.approve.pattern, async (c) => {
    const body = await readBody(c, ApproveBody);
    return c.json(await commands.approve(c.req.param("runId"), c.req.param("nodeId"), body.comment, actorOf(c)));
  });
  app.post(paths.reject.pattern, async (c) => {
    const body = await readBody(c, RejectBody);
    return c.json(await commands.reject(c.req.param("runId"), c.req.param("nodeId"), body.reason, actorOf(c)));
  });
  app.post(paths.input.pattern, async (c) => {
    const body = await readBody(c, InputBody);
    return c.json(await commands.input(c.req.param("runId"), c.req.param("nodeId"), body.text, actorOf(c)));
  });
  app.post(paths.retry.pattern, async (c) => c.json(await commands.retry(c.req.param("runId"), c.req.param("nodeId"), actorOf(c))));

  app.get(paths.workflow.pattern, async (c) => c.json(await queries.getWorkflow(c.req.param("name"))));
  app.post(paths.workflowRuns.pattern, async (c) => c.json(await commands.startRun(c.req.param("name"), await readBody(c, StartRunBody)), 201));
  return app;
}
