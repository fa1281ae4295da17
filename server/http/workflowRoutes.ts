/**
 * The workflows' REST surface, for both front doors, composed here (neither knows the other):
 * - a definition sent as YAML text (`Content-Type: application/yaml` or `text/yaml`) or as `{"yaml": "..."}` is a YAML
 *   workflow's; any other JSON object is a step workflow's definition (`{ id, steps, ... }`);
 * - a run, or a workflow by name, goes to the front door whose format it is (a step run answers `steps` and `outputs`);
 * - `execute` and `tools` are the step workflows' own; lists hold both formats, newest first.
 * Refusals are the engine's shape, plus `issues` for a definition. Handlers parse and delegate: commands decide, queries read.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { pageOf, pageRequest } from "../lib/paging";
import { DEFAULT_WAIT_MS, ExecuteBody, StartStepRunBody, StepCancelBody } from "../workflows/steps/schemas";
import type { StepWorkflows } from "../workflows/steps/steps";
import { ApproveBody, CancelBody, InputBody, RejectBody, StartRunBody } from "../workflows/yaml/schemas";
import type { YamlWorkflows } from "../workflows/yaml/workflows";
import { actorOf } from "./actor";
import { HttpError, readBody } from "./errors";
import { pageAnswer, pageQuery } from "./paging";
import { workflowPaths as paths } from "./paths";

const YamlBody = z.object({ yaml: z.string().min(1, "yaml must not be empty") });
const YAML_TYPES = new Set(["application/yaml", "text/yaml", "application/x-yaml"]);

/** A request's definition: YAML text (the raw body, or `yaml` of a JSON body), or a step workflow's JSON definition. */
type Definition = { format: "yaml"; yaml: string } | { format: "steps"; definition: Record<string, unknown> };

async function definitionOf(c: Context): Promise<Definition> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (YAML_TYPES.has(type)) {
    const text = await c.req.text();
    if (text.trim() === "") throw new HttpError(400, "invalid_body", "body: the YAML text must not be empty");
    return { format: "yaml", yaml: text };
  }
  const json = await readBody(c, z.unknown(), { emptyAs: null });
  if (json !== null && typeof json === "object" && !Array.isArray(json) && !("yaml" in json)) return { format: "steps", definition: json as Record<string, unknown> };
  return { format: "yaml", yaml: (await readBody(c, YamlBody)).yaml };
}

const newestFirst = <T extends { created_at: string }>(items: T[]) => items.sort((a, b) => b.created_at.localeCompare(a.created_at));

export function workflowRoutes(yaml: YamlWorkflows, steps: StepWorkflows): Hono {
  const app = new Hono();
  const { commands, queries } = yaml;
  const isStepRun = (c: Context) => steps.queries.ownsRun(c.req.param("runId")!);
  /** Step runs take no decisions on their steps but a retry. */
  const noDecisions = async (c: Context) => {
    if (await isStepRun(c)) throw new HttpError(409, "conflict", `run ${c.req.param("runId")} is a step workflow's: its steps take no approval, rejection or input`);
  };

  app.post(paths.workflows.pattern, async (c) => {
    const given = await definitionOf(c);
    return c.json(given.format === "steps" ? await steps.commands.register(given.definition) : await commands.register(given.yaml), 201);
  });
  app.post(paths.validate.pattern, async (c) => {
    const given = await definitionOf(c);
    return c.json(given.format === "steps" ? steps.commands.validate(given.definition) : commands.validate(given.yaml));
  });
  app.get(paths.workflows.pattern, async (c) => c.json(newestFirst([...(await queries.listWorkflows()), ...(await steps.queries.listWorkflows())])));

  app.post(paths.execute.pattern, async (c) => {
    const body = await readBody(c, ExecuteBody);
    const started = await steps.commands.execute(body.workflow, body.inputs, actorOf(c));
    if (!body.wait) return c.json(started, 201);
    const { run, ended } = await steps.queries.waitForEnd(started.id, body.timeout_ms ?? DEFAULT_WAIT_MS);
    return c.json(run, ended ? 200 : 202);
  });
  app.get(paths.tools.pattern, (c) => c.json(steps.queries.listTools()));

  // One page of both formats' runs: each front door reads its next `limit + 1` after the cursor, and the page merges them.
  app.get(paths.runs.pattern, async (c) => {
    const { limit, before } = pageRequest(pageQuery(c), "uuid");
    const wanted = { workflow: c.req.query("workflow"), limit: limit + 1, before };
    return pageAnswer(c, pageOf(await Promise.all([queries.keyedRuns(wanted), steps.queries.keyedRuns(wanted)]), limit));
  });
  app.get(paths.run.pattern, async (c) => {
    const runId = c.req.param("runId");
    return c.json((await isStepRun(c)) ? await steps.queries.getRun(runId) : await queries.getRun(runId));
  });
  app.post(paths.runCancel.pattern, async (c) => {
    const runId = c.req.param("runId");
    if (await isStepRun(c)) return c.json(await steps.commands.cancel(runId, (await readBody(c, StepCancelBody)).reason, actorOf(c)));
    const body = await readBody(c, CancelBody);
    return c.json(await commands.cancel(runId, body.reason, actorOf(c)));
  });
  app.post(paths.runResume.pattern, async (c) => {
    const runId = c.req.param("runId");
    return c.json((await isStepRun(c)) ? await steps.commands.resume(runId, actorOf(c)) : await commands.resume(runId, actorOf(c)));
  });
  app.post(paths.approve.pattern, async (c) => {
    await noDecisions(c);
    const body = await readBody(c, ApproveBody);
    return c.json(await commands.approve(c.req.param("runId"), c.req.param("nodeId"), body.comment, actorOf(c)));
  });
  app.post(paths.reject.pattern, async (c) => {
    await noDecisions(c);
    const body = await readBody(c, RejectBody);
    return c.json(await commands.reject(c.req.param("runId"), c.req.param("nodeId"), body.reason, actorOf(c)));
  });
  app.post(paths.input.pattern, async (c) => {
    await noDecisions(c);
    const body = await readBody(c, InputBody);
    return c.json(await commands.input(c.req.param("runId"), c.req.param("nodeId"), body.text, actorOf(c)));
  });
  app.post(paths.retry.pattern, async (c) => {
    const [runId, nodeId] = [c.req.param("runId"), c.req.param("nodeId")];
    return c.json((await isStepRun(c)) ? await steps.commands.retryStep(runId, nodeId, actorOf(c)) : await commands.retry(runId, nodeId, actorOf(c)));
  });

  app.get(paths.workflow.pattern, async (c) => {
    const name = c.req.param("name");
    return c.json((await steps.queries.ownsWorkflow(name)) ? await steps.queries.getWorkflow(name) : await queries.getWorkflow(name));
  });
  app.post(paths.workflowRuns.pattern, async (c) => {
    const name = c.req.param("name");
    if (await steps.queries.ownsWorkflow(name)) return c.json(await steps.commands.startRun(name, (await readBody(c, StartStepRunBody)).inputs, actorOf(c)), 201);
    return c.json(await commands.startRun(name, await readBody(c, StartRunBody)), 201);
  });
  return app;
}
