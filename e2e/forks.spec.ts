/**
 * Re-run from here: an operator re-runs a failed flow from its failed Worker with an edited input, by keyboard; the
 * fork opens, runs only from that Worker on, and names its parent; the comparison shows exactly the node that
 * changed, with "Show unchanged" for the rest, and fits a 390 px screen. An operator forks a flow's failed runs from its page
 * (counted first); a YAML workflow run and its fork are compared from the fork's header; a step run is forked from a
 * step's turn with edited inputs.
 */
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { postJson, startWorkerServer, type WorkerServer } from "../server/testing/workerServer";
import { snapshot } from "./helpers";

/** axe's serious and critical findings on the page as it is now (what e2e/zz-accessibility.spec.ts fails on). */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

let worker: WorkerServer;
test.beforeAll(async () => {
  // "fetch" answers what it was given; "publish" fails on a title it cannot publish, and answers the rest.
  worker = await startWorkerServer((dispatch, res) => {
    res.writeHead(200).end("{}");
    const input = dispatch.payload.input as { published?: { title?: string } } | null;
    const failed = dispatch.path?.startsWith("/publish") && input?.published?.title === "TODO";
    const answer = failed ? { status: "failed", error: "cannot publish a title of TODO" } : { status: "completed", output: { published: input } };
    void postJson(dispatch.payload.callbackUrl, answer).catch(() => undefined);
  });
});
test.afterAll(async () => worker.close());

/** A flow of two Workers, "Fetch draft" then "Publish" (which fails on a title of TODO). */
async function createPublishFlow(request: APIRequestContext, name: string): Promise<{ id: string }> {
  const created = await request.post("/api/stitch/flows", {
    data: {
      name,
      graph: {
        nodes: [
          { id: "fetch", type: "Worker", position: { x: 0, y: 0 }, data: { label: "Fetch draft", webhookUrl: `${worker.url}/fetch` } },
          { id: "publish", type: "Worker", position: { x: 260, y: 0 }, data: { label: "Publish", webhookUrl: `${worker.url}/publish` } },
        ],
        edges: [{ id: "e1", source: "fetch", target: "publish" }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const flow = (await created.json()) as { id: string };
  return flow;
}

test("an operator re-runs a failed flow from its failed Worker with an edited input, then compares the two", async ({ page, request }, testInfo) => {
  const flow = await createPublishFlow(request, "Publish a post");
  // A run whose publish fails: the input the failed Worker received is { published: { title: "TODO" } }.
  const failing = await request.post(`/api/stitch/flows/${flow.id}/runs`, { data: { input: { title: "TODO" } } });
  const failed = (await failing.json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/stitch/runs/${failed.id}`)).json()) as { status: string }).status).toBe("failed");

  await page.goto(`/app/flows/runs/${failed.id}`);
  const failure = page.getByRole("article", { name: "Publish failed" });
  await expect(failure).toContainText("cannot publish a title of TODO");
  // By keyboard: the disclosure under the failed turn opens with Enter, prefilled with what Publish received.
  const rerun = page.locator(".flow-turn-with-fork", { has: failure }).getByText("Re-run from here");
  await rerun.focus();
  await page.keyboard.press("Enter");
  const form = page.getByRole("form", { name: "Re-run from Publish" });
  const input = form.getByRole("textbox", { name: "Input of Publish (JSON)" });
  await expect(input).toHaveValue(/"TODO"/);
  await input.fill('{ "published": { "title": "Ladders for everyone" } }');
  await snapshot(page, testInfo, "00-rerun-form");
  expect(await violations(page)).toEqual([]);
  await form.getByRole("button", { name: "Start the fork" }).focus();
  await page.keyboard.press("Enter");

  await page.waitForURL((url) => /\/app\/flows\/runs\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(failed.id));
  const forkId = page.url().split("/").pop()!;
  await expect(page.locator(".run-header")).toContainText("Completed");
  await expect(page.locator(".run-lineage")).toContainText(`Forked from run ${failed.id.slice(0, 8)} at publish`);
  await expect(page.getByRole("article", { name: "Forked from Publish" })).toBeVisible();
  await snapshot(page, testInfo, "01-fork-completed");
  expect(await violations(page)).toEqual([]);
  // Only the failed Worker ran again, with the edited input; Fetch draft was copied, not called.
  const calls = worker.received.filter((d) => d.payload.runId === forkId);
  expect(calls.map((d) => [d.payload.nodeId, d.payload.input])).toEqual([["publish", { published: { title: "Ladders for everyone" } }]]);

  // The parent tells the fork too.
  await page.locator(".run-lineage").getByRole("link", { name: `run ${failed.id.slice(0, 8)}` }).click();
  await expect(page.getByText(/Forked at Publish into/)).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.goBack();
  await expect(page.getByRole("article", { name: "Forked from Publish" })).toBeVisible();

  // The graph view offers it too, on the node's details.
  await page.getByRole("link", { name: "Flow graph" }).click();
  await page.getByRole("region", { name: "Nodes" }).getByRole("button", { name: "Details of Publish" }).click();
  await expect(page.locator(".inspector").getByText("Re-run from here")).toBeVisible();
  await page.getByRole("link", { name: "Conversation" }).click();

  await page.locator(".run-lineage").getByRole("link", { name: "Compare with parent" }).click();
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByText("B was forked from A")).toBeVisible();
  await expect(page.getByText("1 of 2 nodes differ.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Publish: differs" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Fetch draft: the same" })).toHaveCount(0);
  await page.getByRole("button", { name: "Show unchanged (1)" }).click();
  await expect(page.getByRole("region", { name: "Fetch draft: the same" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole("region", { name: "Publish: differs" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snapshot(page, testInfo, "02-compare-390");
  expect(await violations(page)).toEqual([]);

  // Any two runs of one flow, chosen in the engine runs' list, are compared the same way.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto("/app/engine");
  const compareChosen = page.getByRole("button", { name: "Compare the two chosen runs" });
  await expect(compareChosen).toBeDisabled();
  await page.getByRole("checkbox", { name: new RegExp(`^Compare Publish a post.* run ${failed.id.slice(0, 8)}$`) }).check();
  await page.getByRole("checkbox", { name: new RegExp(`^Compare Publish a post.* run ${forkId.slice(0, 8)}$`) }).check();
  expect(await violations(page)).toEqual([]);
  await compareChosen.click();
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Publish: differs" })).toBeVisible();
});

test("an operator forks a flow's failed runs from the flow's page, counted first, and follows a link to a fork", async ({ page, request }, testInfo) => {
  const flow = await createPublishFlow(request, "Publish the backlog");
  // Two runs fail at Publish (a title of TODO); a third completes and is not counted.
  const failed: string[] = [];
  for (const title of ["TODO", "TODO", "Ladders"]) {
    const run = (await (await request.post(`/api/stitch/flows/${flow.id}/runs`, { data: { input: { title } } })).json()) as { id: string };
    await expect.poll(async () => ((await (await request.get(`/api/stitch/runs/${run.id}`)).json()) as { status: string }).status).toBe(title === "TODO" ? "failed" : "completed");
    if (title === "TODO") failed.push(run.id);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/app/flows/${flow.id}`);
  // By keyboard: the panel opens with Enter, the time is the last 24 hours, and the runs are counted before anything is forked.
  await page.getByRole("button", { name: "Re-run failed runs…" }).focus();
  await page.keyboard.press("Enter");
  const panel = page.getByRole("region", { name: "Re-run failed runs" });
  await expect(panel.getByLabel("Failed since")).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  await panel.getByRole("button", { name: "Find the failed runs" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByText(/^2 runs failed since .*: they will be forked at their failed node\.$/)).toBeVisible();
  for (const id of failed) await expect(panel.getByRole("listitem").filter({ hasText: `run ${id.slice(0, 8)}` })).toContainText("at publish");
  expect((await request.get(`/api/runs/${failed[0]}/lineage`).then((r) => r.json())) as { forks: unknown[] }).toMatchObject({ forks: [] });
  expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await snapshot(page, testInfo, "03-failed-runs-counted-390");
  expect(await violations(page)).toEqual([]);

  await panel.getByRole("button", { name: "Fork 2 failed runs" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("heading", { name: "Forks made" })).toBeFocused();
  await expect(panel.getByText("Forked 2 runs.")).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await snapshot(page, testInfo, "04-failed-runs-forked-390");
  const forkLink = panel.getByRole("link", { name: /^Fork [0-9a-f]{8}$/ }).first();
  const href = (await forkLink.getAttribute("href"))!;
  await forkLink.click();
  await page.waitForURL((url) => url.pathname === href);
  await expect(page.locator(".run-lineage")).toContainText(/Forked from run [0-9a-f]{8} at publish/);
  await expect(page.getByRole("article", { name: "Forked from Publish" })).toBeVisible();
});

test("a YAML workflow run and its fork are compared from the fork's header, what differs first and the rest with Show unchanged", async ({ page, request }, testInfo) => {
  const yaml = `name: e2e-forked-notes
description: Outlines, then drafts release notes for the message.
nodes:
  - id: outline
    prompt: Outline release notes in three parts
  - id: draft
    depends_on: [outline]
    prompt: Draft release notes for $ARGUMENTS
`;
  expect((await request.post("/api/workflows", { data: { yaml } })).status()).toBe(201);
  const status = async (id: string) => ((await (await request.get(`/api/workflows/runs/${id}`)).json()) as { status: string }).status;
  const parent = ((await (await request.post("/api/workflows/e2e-forked-notes/runs", { data: { message: "the spring release" } })).json()) as { id: string }).id;
  await expect.poll(() => status(parent)).toBe("completed");
  const forked = await request.post(`/api/runs/${parent}/fork`, { data: { node_id: "draft", input: { message: "the autumn release" } } });
  expect(forked.status(), await forked.text()).toBe(201);
  const fork = ((await forked.json()) as { run: { id: string } }).run.id;
  await expect.poll(() => status(fork)).toBe("completed");

  await page.goto(`/app/workflows/runs/${fork}`);
  const lineage = page.locator(".run-lineage");
  await expect(lineage).toContainText(`Forked from run ${parent.slice(0, 8)} at draft`);
  await lineage.getByRole("link", { name: "Compare with parent" }).click();
  await page.waitForURL(`**/app/runs/${parent}/compare/${fork}`);
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByText("B was forked from A")).toBeVisible();
  await expect(page.getByText("1 of 2 nodes differ.")).toBeVisible();
  const draft = page.getByRole("region", { name: "prompt · draft: differs" });
  await expect(draft.locator("ins").filter({ hasText: "autumn" }).first()).toBeVisible();
  await expect(draft.locator("del").filter({ hasText: "spring" }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "prompt · outline: the same" })).toHaveCount(0);
  await page.getByRole("button", { name: "Show unchanged (1)" }).click();
  await expect(page.getByRole("region", { name: "prompt · outline: the same" })).toBeVisible();
  // Each run links to its own page in the workflows.
  await expect(page.getByRole("link", { name: `run ${parent.slice(0, 8)}` })).toHaveAttribute("href", `/app/workflows/runs/${parent}`);
  await snapshot(page, testInfo, "05-yaml-compare");
  expect(await violations(page)).toEqual([]);
  // The parent lists the fork, with its comparison.
  await page.getByRole("link", { name: `run ${parent.slice(0, 8)}` }).click();
  await expect(page.locator(".run-lineage").getByRole("link", { name: `Compare with run ${fork.slice(0, 8)}` })).toHaveAttribute("href", `/app/runs/${parent}/compare/${fork}`);
});

test("re-run from here on a step workflow run: the fork starts from the step with the edited inputs, opens, and links its parent", async ({ page, request }, testInfo) => {
  const definition = {
    id: "e2e-forked-steps",
    inputs: [{ name: "who", type: "string" }],
    steps: [
      { id: "greet", tool: "utils.echo", params: { text: "Hello, {{inputs.who}}!" } },
      { id: "report", tool: "utils.echo", params: { line: "{{greet.text}}" } },
    ],
  };
  const registered = await request.post("/api/workflows", { data: definition });
  expect(registered.ok(), await registered.text()).toBe(true);
  const started = await request.post(`/api/workflows/${definition.id}/runs`, { data: { inputs: { who: "Ada" } } });
  const run = (await started.json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/workflows/runs/${run.id}`)).json()) as { status: string }).status).toBe("completed");

  await page.goto(`/app/steps/runs/${run.id}`);
  const report = page.getByRole("article", { name: "Step report" });
  await expect(report).toContainText("Hello, Ada!");
  await page.locator(".flow-turn-with-fork", { has: report }).getByText("Re-run from here").click();
  const form = page.getByRole("form", { name: "Re-run from report" });
  const inputs = form.getByRole("textbox", { name: "The run's inputs (JSON)" });
  await expect(inputs).toHaveValue(/"Ada"/);
  await inputs.fill('{ "inputs": { "who": "Grace" } }');
  expect(await violations(page)).toEqual([]);
  await form.getByRole("button", { name: "Start the fork" }).click();

  await page.waitForURL((url) => /\/app\/steps\/runs\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(run.id));
  const forked = page.getByRole("article", { name: "Forked from report" });
  await expect(forked).toContainText(`Forked from report of run ${run.id.slice(0, 8)}`);
  await expect(forked).toContainText("Grace");
  // greet was copied (Ada's greeting), report ran again with it: the edited inputs reach only what reads them.
  await expect(page.getByRole("article", { name: "Step report" })).toContainText("Hello, Ada!");
  await expect(page.getByRole("article", { name: "Step greet" })).toHaveCount(0);
  await snapshot(page, testInfo, "03-step-fork");
  expect(await violations(page)).toEqual([]);
  // The header names its parent, with the comparison.
  await expect(page.locator(".run-lineage")).toContainText(`Forked from run ${run.id.slice(0, 8)} at report`);
  await expect(page.locator(".run-lineage").getByRole("link", { name: "Compare with parent" })).toBeVisible();
  await forked.getByRole("link", { name: `run ${run.id.slice(0, 8)}` }).click();
  await expect(page.getByText(/Forked at report into/)).toBeVisible();
});
