/**
 * The flow designer, as an operator with the keyboard alone (issue 42): a Worker, a review gate over it, a Splitter,
 * a Worker per path and a Collector drawn from the palette; a problem shown on a node and fixed; saved with a
 * message; run against a worker on loopback; the gate approved from its conversation; the paths watched complete on
 * the canvas; a second version saved from another browser context, and the first one's save refused with who saved
 * what and the diff, then saved on top; undo and redo; Tidy up; export and re-import into a new flow. At 390 px the
 * designer opens read-only with the inspector usable.
 */
import { readFile } from "node:fs/promises";
import { type Locator, type Page, expect, test } from "@playwright/test";
import { echoWorker, startWorkerServer, type WorkerServer } from "../server/testing/workerServer";
import { snapshot } from "./helpers";

let worker: WorkerServer;
test.beforeAll(async () => {
  // The first Worker lists three orders; the Worker per path ships the order it gets.
  worker = await startWorkerServer(echoWorker((payload) => (payload.nodeId === "worker-1" ? { items: ["A-1", "A-2", "A-3"] } : { shipped: payload.input })));
});
test.afterAll(async () => worker.close());

/** Focuses a control as Tab would reach it and presses a key on it: no mouse. */
async function press(target: Locator, key = "Enter"): Promise<void> {
  await target.focus();
  await target.press(key);
}

async function typeInto(target: Locator, text: string): Promise<void> {
  await target.focus();
  await target.press("ControlOrMeta+a");
  await target.page().keyboard.type(text);
}

const palette = (page: Page, kind: string) => page.getByRole("region", { name: "Palette" }).getByRole("button", { name: new RegExp(`^Add ${kind}`) });
const canvasNode = (page: Page, label: string) => page.locator(".react-flow__node").filter({ hasText: label });

async function drawFlow(page: Page): Promise<void> {
  await press(palette(page, "Worker"));
  // A Worker without its webhook URL: the check's problem on the node and in the list.
  await expect(page.getByRole("region", { name: "Palette" })).toBeVisible();
  await expect(canvasNode(page, "Worker").locator(".designer-node-problems")).toContainText(/webhookUrl/);
  await expect(page.getByRole("heading", { name: /problem/ })).toBeVisible();
  await typeInto(page.getByRole("textbox", { name: "Name", exact: true }), "List orders");
  await typeInto(page.getByRole("textbox", { name: "Webhook URL" }), `${worker.url}/orders`);
  await expect(page.getByRole("heading", { name: "No problems" })).toBeVisible();
  await press(palette(page, "Review gate"));
  await press(palette(page, "Splitter"));
  await press(palette(page, "Worker"));
  await typeInto(page.getByRole("textbox", { name: "Name", exact: true }), "Ship order");
  await typeInto(page.getByRole("textbox", { name: "Webhook URL" }), `${worker.url}/ship`);
  await press(palette(page, "Collector"));
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  await expect(page.locator(".react-flow__edge")).toHaveCount(4);
  await expect(page.getByRole("heading", { name: "No problems" })).toBeVisible();
}

test("an operator draws, checks, saves, runs and watches a flow with the keyboard alone, then meets another's save", async ({ page, browser }, testInfo) => {
  test.setTimeout(900_000);
  await page.goto("/app/flows");
  await press(page.getByRole("button", { name: "New flow" }));
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  const flowUrl = page.url();
  const flowId = flowUrl.split("/").at(-1)!;
  await typeInto(page.getByRole("textbox", { name: "Flow name" }), "Ship orders by hand");
  await drawFlow(page);

  // Undo and redo: the Collector goes and comes back.
  await press(page.getByRole("button", { name: "Undo" }));
  await expect(page.locator(".react-flow__node")).toHaveCount(4);
  await press(page.getByRole("button", { name: "Redo" }));
  await expect(page.locator(".react-flow__node")).toHaveCount(5);

  // Tidy up: the chain laid out left to right (read once the canvas has drawn the new positions).
  await press(page.getByRole("button", { name: "Tidy up" }));
  const xsInChainOrder = async () => {
    const xs: number[] = [];
    for (const label of ["List orders", "Review gate", "Splitter", "Ship order", "Collector"]) xs.push((await canvasNode(page, label).boundingBox())!.x);
    return xs.every((x, i) => i === 0 || x > xs[i - 1]!);
  };
  await expect.poll(xsInChainOrder, { message: "the tidied chain reads left to right" }).toBe(true);
  await snapshot(page, testInfo, "00-drawn");

  await press(page.getByRole("button", { name: /^Save as version 1/ }));
  await typeInto(page.getByRole("textbox", { name: "What changed" }), "First cut: list, review, ship each");
  await press(page.getByRole("button", { name: "Save version 1" }));
  await expect(page.getByRole("button", { name: /^Run version 1/ })).toBeVisible();

  // Run it: the input form, then the canvas as the run's live view.
  await press(page.getByRole("button", { name: /^Run version 1/ }));
  await typeInto(page.getByRole("textbox", { name: "Input (JSON)" }), '{"customer": "Ada"}');
  await press(page.getByRole("button", { name: "Start a run of version 1" }));
  await expect(page).toHaveURL(/\/app\/flows\/runs\/[^/]+\/design$/);
  await expect(canvasNode(page, "Review gate")).toContainText("Needs input");
  await snapshot(page, testInfo, "01-run-waiting");

  // The gate is approved in its conversation; back on the canvas, the paths complete.
  const runUrl = page.url();
  await press(page.getByRole("link", { name: "Open the conversation" }));
  await press(page.getByRole("button", { name: "Approve" }).first());
  // Taken once the conversation tells it: leaving before would abandon the approval on its way.
  await expect(page.getByRole("article", { name: "Approved Review gate" })).toBeVisible();
  await page.goto(runUrl);
  await expect(canvasNode(page, "Ship order")).toContainText("3 of 3 completed");
  await expect(canvasNode(page, "Collector")).toContainText("Completed");
  await snapshot(page, testInfo, "02-run-completed");

  // Someone else saves version 2 from another browser context meanwhile.
  await page.goto(`/app/flows/${flowId}`);
  await expect(page.getByText(/^version 1/)).toBeVisible();
  const other = await browser.newContext({ extraHTTPHeaders: testInfo.project.use.extraHTTPHeaders, baseURL: testInfo.project.use.baseURL });
  try {
    const theirs = await other.newPage();
    await theirs.goto(`/app/flows/${flowId}`);
    await press(canvasNode(theirs, "Collector"));
    await press(palette(theirs, "UX gate"));
    await expect(theirs.getByRole("heading", { name: "No problems" })).toBeVisible();
    await press(theirs.getByRole("button", { name: /^Save as version 2/ }));
    await typeInto(theirs.getByRole("textbox", { name: "What changed" }), "Sign-off at the end");
    await press(theirs.getByRole("button", { name: "Save version 2" }));
    await expect(theirs.getByRole("button", { name: /^Run version 2/ })).toBeVisible();
  } finally {
    await other.close();
  }

  // My change, saved on version 1: refused, with who saved what since and the diff; then saved on top after looking.
  await press(canvasNode(page, "Ship order"));
  await typeInto(page.getByRole("textbox", { name: "Timeout (ms)" }), "60000");
  await press(page.getByRole("button", { name: /^Save as version 2/ }));
  await typeInto(page.getByRole("textbox", { name: "What changed" }), "A minute per order");
  await press(page.getByRole("button", { name: "Save version 2" }));
  const stale = page.getByRole("alert").filter({ hasText: "since you opened version 1" });
  await expect(stale).toContainText("Version 2 was saved by");
  await expect(stale.getByRole("list", { name: /the changes/ })).toContainText('Added UX "UX gate"');
  await expect(stale.locator(".designer-node.mark-added")).toHaveCount(1);
  await snapshot(page, testInfo, "03-stale-save");
  await press(stale.getByRole("button", { name: "Save on top as version 3" }));
  await expect(page.getByRole("button", { name: /^Run version 3/ })).toBeVisible();

  // Export, and import the file into a new flow.
  const download = page.waitForEvent("download");
  await press(page.getByRole("button", { name: "Export JSON" }));
  const exported = await readFile(await (await download).path(), "utf8");
  expect(JSON.parse(exported).nodes).toHaveLength(5);
  await press(page.getByRole("button", { name: /^Import JSON/ }));
  await typeInto(page.getByRole("textbox", { name: "Flow JSON" }), exported);
  await press(page.getByRole("button", { name: "Start a new flow with it" }));
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
});

test("at 390 px the designer opens read-only, with the inspector usable", async ({ page, request }) => {
  const created = await request.post("/api/stitch/flows", {
    data: { name: "Phone look", graph: { nodes: [{ id: "ask", type: "UX", position: { x: 0, y: 0 }, data: { label: "Sign-off", prompt: "Ship it?" } }], edges: [] } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const flow = (await created.json()) as { id: string };
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/app/flows/${flow.id}`);
  await expect(page.getByText(/read-only on a small screen/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Palette" })).toHaveCount(0);
  await press(canvasNode(page, "Sign-off"));
  await expect(page.getByRole("textbox", { name: "What the person is asked" })).toHaveValue("Ship it?");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a node copied in one tab is pasted into another flow in another tab, through the clipboard", async ({ page, request, context }) => {
  const flowOf = async (name: string, nodes: unknown[]) => {
    const created = await request.post("/api/stitch/flows", { data: { name, graph: { nodes, edges: [] } } });
    expect(created.ok(), await created.text()).toBe(true);
    return ((await created.json()) as { id: string }).id;
  };
  const from = await flowOf("Copy from", [{ id: "ship", type: "Worker", position: { x: 0, y: 0 }, data: { label: "Ship order", webhookUrl: `${worker.url}/ship`, timeoutMs: 45_000 } }]);
  const to = await flowOf("Paste into", [{ id: "ask", type: "UX", position: { x: 0, y: 0 }, data: { label: "Sign-off" } }]);

  await page.goto(`/app/flows/${from}`);
  await press(canvasNode(page, "Ship order"));
  await page.keyboard.press("ControlOrMeta+c");
  await expect(page.getByText("Copied 1 node.")).toBeAttached();

  const other = await context.newPage();
  await other.goto(`/app/flows/${to}`);
  await press(canvasNode(other, "Sign-off"));
  await other.keyboard.press("ControlOrMeta+v");
  await expect(other.locator(".react-flow__node")).toHaveCount(2);
  // The pasted Worker keeps its fields, under an id of its own.
  await press(canvasNode(other, "Ship order"));
  await expect(other.getByRole("textbox", { name: "Webhook URL" })).toHaveValue(`${worker.url}/ship`);
  await expect(other.getByRole("textbox", { name: "Timeout (ms)" })).toHaveValue("45000");
});
