/**
 * Every page of the app scanned by axe-core (@axe-core/playwright, axe's default rules: WCAG 2 A and AA and best
 * practices), on a desktop screen and on a 390 px phone, in Chromium against the real server. The spec fails on any
 * serious or critical violation and names each one with its page and elements. It runs last (after people.spec.ts has
 * made accounts: the sign-in page is scanned too) on data it makes itself: a pipeline run through all six agents and
 * one waiting for review, a YAML workflow run waiting for an approval, a step workflow and its run, a plain flow's run
 * waiting at a UX node, a YAML approval nobody can take, a webhook subscription, and an API token.
 */
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";

interface Data {
  finishedRun: string;
  waitingRun: string;
  stitchRun: string;
  workflowRun: string;
  stepWorkflow: string;
  stepRun: string;
  flowRun: string;
  flow: string;
}

const brief = "A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly.";

async function ok<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

type PipelineRun = { run_id: string; status: string; is_waiting_for_user: boolean };

async function waitForRun(request: APIRequestContext, runId: string, done: (run: PipelineRun) => boolean): Promise<PipelineRun> {
  let run: PipelineRun | undefined;
  await expect
    .poll(async () => {
      run = (await (await request.get(`/runs/${runId}`)).json()) as PipelineRun;
      return done(run);
    }, { timeout: 90_000, intervals: [200] })
    .toBe(true);
  return run!;
}

async function makeData(request: APIRequestContext): Promise<Data> {
  // A pipeline run through all six agents, each output approved.
  const finishedRun = (await ok<PipelineRun>(await request.post("/runs", { data: { domain: "a11y-mobility", brief } }))).run_id;
  for (;;) {
    const run = await waitForRun(request, finishedRun, (r) => r.status === "COMPLETED" || r.is_waiting_for_user);
    if (run.status === "COMPLETED") break;
    await ok(await request.post(`/runs/${finishedRun}/approve`, { data: {} }));
    // Moved on from the output approved (the next agent may answer before the first look, so not "no longer waiting").
    await waitForRun(request, finishedRun, (r) => r.status !== run.status);
  }
  // One waiting for its first review, with a comment on its output.
  const waitingRun = (await ok<PipelineRun>(await request.post("/runs", { data: { domain: "a11y-libraries", brief } }))).run_id;
  await waitForRun(request, waitingRun, (r) => r.is_waiting_for_user);
  const conversation = await ok<{ stitch_run_id: string }>(await request.get(`/trpc/pipeline.conversation?input=${encodeURIComponent(JSON.stringify({ runId: waitingRun }))}`)).then(
    (answer) => (answer as unknown as { result: { data: { stitch_run_id: string } } }).result.data,
  );
  const decisions = await ok<{ items: { id: string }[] }>(await request.get(`/api/decisions?run_id=${waitingRun}&state=open&view=all`));
  await ok(await request.post(`/api/decisions/${decisions.items[0]!.id}/comments`, { data: { anchor: "", text: "Say who pays the drivers." } }));

  // A YAML workflow run (the example release-notes, offline) waiting for its approval.
  const workflowRun = (await ok<{ id: string }>(await request.post("/api/workflows/release-notes/runs", { data: { message: "feat: export runs as CSV (#412)\nfix: cancel kept no reason (#418)" } }))).id;

  // A step workflow and a finished run of it.
  const stepWorkflow = "a11y-greeting";
  await ok(
    await request.post("/api/workflows", {
      data: {
        id: stepWorkflow, name: "Greeting", version: "1.0.0", description: "Greets someone.",
        inputs: [{ name: "who", type: "string" }],
        steps: [{ id: "greet", tool: "utils.echo", params: { text: "Hello, {{inputs.who}}!" } }],
        outputs: { greeting: "{{greet.text}}" },
      },
    }),
  );
  const stepRun = (await ok<{ run_id: string }>(await request.post("/api/workflows/execute", { data: { workflow: stepWorkflow, inputs: { who: "Ada" }, wait: true } }))).run_id;

  // A plain flow's run waiting at its UX node.
  const flow = await ok<{ id: string }>(
    await request.post("/api/stitch/flows", {
      data: { name: "A11y sign-off", graph: { nodes: [{ id: "ask", type: "UX", position: { x: 0, y: 0 }, data: { label: "Sign-off", prompt: "Is the text clear?" } }], edges: [] } },
    }),
  );
  const flowRun = (await ok<{ id: string }>(await request.post(`/api/stitch/flows/${flow.id}/runs`, { data: { input: { topic: "tides" } } }))).id;

  // A decision nobody can take (more approvals than people), marked with its fix in Reviews and its conversation.
  const quorum = "name: a11y-quorum\ndescription: more approvals than people\nnodes:\n  - id: ok\n    approval:\n      message: \"Ship it?\"\n      approvals: 20\n";
  await ok(await request.post("/api/workflows", { data: { yaml: quorum } }));
  await ok(await request.post("/api/workflows/a11y-quorum/runs", { data: { message: "release 2.0" } }));

  await ok(await request.post("/api/subscriptions", { data: { url: "http://127.0.0.1:9/a11y-hook", events: ["decision.waiting"] } }));
  return { finishedRun, waitingRun, stitchRun: conversation.stitch_run_id, workflowRun, stepWorkflow, stepRun, flowRun, flow: flow.id };
}

/** The app's pages, each with what shows it has loaded. */
function pages(data: Data): { path: string; ready: (page: Page) => Promise<void> }[] {
  const heading = (name: string | RegExp) => async (page: Page) => {
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  };
  const outputs = (n: number) => async (page: Page) => {
    await expect(page.getByRole("article", { name: /output, version \d+$/ })).toHaveCount(n);
  };
  const graph = async (page: Page) => {
    await expect(page.locator(".react-flow__node").first()).toBeVisible();
  };
  return [
    { path: "/app", ready: heading("Start a new run") },
    { path: `/app/runs/${data.finishedRun}`, ready: async (page) => {
      await outputs(6)(page);
      // Decided outputs read as one line each; the step bar opens one, so its content (a drawn diagram) is scanned too.
      await page.getByRole("list", { name: "Pipeline progress" }).getByRole("link", { name: /^Diagrams/ }).click();
      await expect(page.getByRole("img", { name: "Sequence diagram" }).locator("svg")).toBeVisible();
    } },
    { path: `/app/runs/${data.waitingRun}`, ready: async (page) => {
      await outputs(1)(page);
      await expect(page.getByRole("textbox", { name: "Feedback" })).toBeVisible();
    } },
    { path: `/app/runs/${data.finishedRun}/graph`, ready: graph },
    { path: "/app/reviews", ready: heading(/Reviews/) },
    { path: "/app/engine", ready: heading(/Engine runs/) },
    { path: `/app/engine/runs/${data.stitchRun}`, ready: graph },
    { path: `/app/flows/runs/${data.flowRun}`, ready: async (page) => {
      await expect(page.getByText("Is the text clear?").first()).toBeVisible();
    } },
    { path: `/app/flows/runs/${data.flowRun}/graph`, ready: graph },
    { path: "/app/flows", ready: heading("Flows") },
    // The designer with its palette, canvas and inspector (a node selected), and a run drawn over its version.
    { path: `/app/flows/${data.flow}`, ready: async (page) => {
      await graph(page);
      await page.locator(".react-flow__node").first().focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("textbox", { name: "What the person is asked" })).toBeVisible();
    } },
    { path: `/app/flows/runs/${data.flowRun}/design`, ready: graph },
    { path: "/app/workflows", ready: heading("Workflows") },
    { path: "/app/workflows/new", ready: async (page) => {
      await expect(page.getByRole("textbox", { name: "Workflow YAML" })).toBeVisible();
    } },
    { path: "/app/workflows/release-notes", ready: heading(/release-notes/) },
    { path: `/app/workflows/runs/${data.workflowRun}`, ready: async (page) => {
      await expect(page.getByRole("button", { name: /^Approve/ }).first()).toBeVisible({ timeout: 60_000 });
    } },
    { path: `/app/workflows/runs/${data.workflowRun}/graph`, ready: graph },
    { path: "/app/steps", ready: heading(/Step workflows|Playbooks/) },
    { path: "/app/steps/new", ready: heading(/./) },
    { path: `/app/steps/${data.stepWorkflow}`, ready: heading(/Greeting|a11y-greeting/) },
    { path: `/app/steps/runs/${data.stepRun}`, ready: async (page) => {
      await expect(page.getByText("Hello, Ada!").first()).toBeVisible();
    } },
    { path: `/app/steps/runs/${data.stepRun}/graph`, ready: graph },
    { path: "/app/people", ready: heading("People") },
    { path: "/app/tokens", ready: heading(/API tokens/) },
    { path: "/app/audit", ready: async (page) => {
      await heading(/Audit/)(page);
      await expect(page.getByRole("table").first()).toBeVisible();
    } },
    { path: "/app/subscriptions", ready: async (page) => {
      await heading(/Subscriptions/)(page);
      await expect(page.getByText("http://127.0.0.1:9/a11y-hook").first()).toBeVisible();
    } },
    { path: "/app/settings", ready: heading(/settings/i) },
    { path: "/app/policies", ready: async (page) => {
      await heading("Policies")(page);
      await expect(page.getByRole("radio", { name: /Allow self-approval/ })).toBeVisible();
    } },
    { path: "/app/reviews?view=undecidable", ready: async (page) => {
      await expect(page.getByText("Nobody can take this decision").first()).toBeVisible();
    } },
    { path: "/app/no-such-page", ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    } },
  ];
}

/** The serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page, where: string): Promise<string[]> {
  // Loaded: no skeleton or busy region left, no spinner.
  await expect(page.locator("[aria-busy=true], .skeleton")).toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  // The current axe-core (pinned as `axe-core` under the Playwright wrapper, package.json `overrides`), not the wrapper's own.
  expect(results.testEngine.version).toMatch(/^4\.14\./);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) on ${v.nodes.length} element(s): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`);
}

const viewports = [
  { name: "desktop", size: { width: 1280, height: 860 } },
  { name: "phone", size: { width: 390, height: 844 } },
];

let data: Data;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(300_000);
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: test.info().project.use.extraHTTPHeaders });
  try {
    data = await makeData(request);
  } finally {
    await request.dispose();
  }
});

for (const viewport of viewports) {
  test(`every page has no serious or critical accessibility violation (${viewport.name}, ${viewport.size.width} px)`, async ({ page, browser }) => {
    test.setTimeout(600_000);
    await page.setViewportSize(viewport.size);
    const found: string[] = [];
    for (const { path, ready } of pages(data)) {
      await page.goto(path);
      // A page that does not load is a finding too; the others are still scanned.
      const loaded = await ready(page).then(() => null, (error: unknown) => `${path}: did not load: ${String(error).split("\n")[0]}`);
      found.push(...(loaded ? [loaded] : await violations(page, path)));
    }
    // The sign-in page, as someone without a session sees it (accounts exist once people.spec.ts has run; alone, this
    // spec meets the first account's page instead).
    const stranger = await browser.newContext({ extraHTTPHeaders: {}, viewport: viewport.size });
    try {
      const signIn = await stranger.newPage();
      await signIn.goto("/app");
      await expect(signIn.getByRole("button", { name: /^(Sign in|Create the account)$/ })).toBeVisible();
      found.push(...(await violations(signIn, "sign-in")));
    } finally {
      await stranger.close();
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}
