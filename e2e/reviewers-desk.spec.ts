/**
 * The reviewer's desk for a plain flow run: its UX gate waiting is a decision in Reviews, which opens the run's
 * conversation (the input, the gate asking, its composer); what is typed there is kept while the person looks at the
 * graph, and completing the gate lets the flow go on to its worker and the end, each turn in the conversation; while
 * it waits, the conversation and the graph read only the run's change marker, and nothing once it has ended. An
 * analyst who starts such a run reads, in its conversation and in its graph, who it waits for and since when, never
 * a decision to take: on a phone's width, with the keyboard. (Named to run after people.spec.ts, which needs a server
 * with no account yet: this spec invites people.)
 */
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { echoWorker, startWorkerServer, type WorkerServer } from "../server/testing/workerServer";
import { bootstrapName } from "./auth";
import { snapshot, trpcReads } from "./helpers";

let worker: WorkerServer;
test.beforeAll(async () => {
  worker = await startWorkerServer(echoWorker((payload) => ({ shipped_with: payload.input })));
});
test.afterAll(async () => worker.close());

/** A flow that asks a person which carrier ships an order, then ships it through the worker. */
async function createFlow(request: APIRequestContext, name: string): Promise<string> {
  const created = await request.post("/api/stitch/flows", {
    data: {
      name,
      graph: {
        nodes: [
          { id: "carrier", type: "UX", position: { x: 0, y: 0 }, data: { label: "Carrier", prompt: "Which carrier ships this order?" } },
          { id: "ship", type: "Worker", position: { x: 260, y: 0 }, data: { label: "Ship", webhookUrl: `${worker.url}/ship` } },
        ],
        edges: [{ id: "e1", source: "carrier", target: "ship" }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { id: string }).id;
}

/** A procedure of the app's tRPC API, called as the bootstrap operator (people are invited there, not over REST). */
async function trpc<T>(request: APIRequestContext, procedure: string, input: unknown, headers: Record<string, string> = {}): Promise<T> {
  const answer = await request.post(`/trpc/${procedure}`, { data: input, headers });
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { result: { data: T } }).result.data;
}

/** Nothing on the page is wider than the screen: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("a plain flow run's UX gate is opened from Reviews and completed in its conversation, what was typed kept meanwhile", async ({ page, request }, testInfo) => {
  const flowId = await createFlow(request, `Ship orders ${Date.now()}`);
  const started = await request.post(`/api/stitch/flows/${flowId}/runs`, { data: { input: { order: "A-1", weight_kg: 3 } } });
  const run = (await started.json()) as { id: string };
  const reads = trpcReads(page);
  /** What the run's pages read: its change marker, and what they read again when it moves. */
  const runReads = /^(engine\.runs\.(changes|conversation|get)|decisions\.activity|review\.\w+)$/;

  await page.goto("/app/reviews");
  const item = page.getByRole("link", { name: `Complete "Carrier" of flow run ${run.id.slice(0, 8)}` });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/app/flows/runs/${run.id}$`));

  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.getByRole("article", { name: "Input", exact: true })).toContainText('"order": "A-1"');
  await expect(log.getByRole("article", { name: "Carrier asks for input" })).toContainText("Which carrier ships this order?");
  const composer = page.getByRole("region", { name: "Complete Carrier" });
  await expect(composer).toContainText(/Waiting for a reviewer since/);
  await composer.getByRole("textbox", { name: "Output" }).fill('{"carrier": "DHL"}');
  await snapshot(page, testInfo, "01-flow-gate-waiting");

  // While it waits for a person nothing moves: only its change marker is read, every 5 s (every 1.5 s while a worker
  // is at work).
  const whileWaiting = await reads.during(10_500, runReads);
  expect(whileWaiting.filter((procedure) => procedure === "engine.runs.changes").length).toBeGreaterThanOrEqual(1);
  expect(whileWaiting.filter((procedure) => procedure === "engine.runs.changes").length).toBeLessThanOrEqual(3);
  expect(whileWaiting.filter((procedure) => procedure !== "engine.runs.changes")).toEqual([]);

  // To the graph and back: the input typed is still there, and the graph links back to the conversation.
  await page.getByRole("navigation", { name: "Run views" }).getByRole("link", { name: "Flow graph" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/flows/runs/${run.id}/graph$`));
  await expect(page.locator(".react-flow__node")).toHaveCount(2);
  // The graph of the waiting run does not poll the engine run either: the marker alone.
  const onTheGraph = await reads.during(3500, runReads);
  expect(onTheGraph.filter((procedure) => procedure !== "engine.runs.changes")).toEqual([]);
  await page.getByRole("navigation", { name: "Run views" }).getByRole("link", { name: "Conversation" }).click();
  const output = page.getByRole("region", { name: "Complete Carrier" }).getByRole("textbox", { name: "Output" });
  await expect(output).toHaveValue('{"carrier": "DHL"}');

  // Sent from the keyboard.
  await output.focus();
  await page.keyboard.press("Control+Enter");
  await expect(log.getByRole("article", { name: "Completed Carrier" })).toContainText(`by ${bootstrapName}`);
  await expect(log.getByRole("article", { name: "Output of Ship" })).toContainText('"carrier": "DHL"');
  await expect(log.getByText(/Run completed/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Complete Carrier" })).toHaveCount(0);
  await snapshot(page, testInfo, "02-flow-run-completed");
  // Once the run has completed, after the marker's last read (which says so), nothing is read again.
  await page.waitForTimeout(2500);
  expect(await reads.during(4000, runReads)).toEqual([]);

  // The decision is closed, by whom, in Reviews.
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /^Reviews/ }).click();
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Complete "Carrier" of flow run ${run.id.slice(0, 8)}` }) })).toContainText(
    `Completed by ${bootstrapName}`,
  );
});

test("an analyst reads who her run waits for and since when, in its conversation and its graph, on a phone, never a decision to take", async ({ browser, playwright, request }, testInfo) => {
  const stamp = Date.now();
  const password = "a long password for the desk";
  const invite = (name: string, role: string) =>
    trpc<{ account: { id: string }; invitationPath: string }>(request, "accounts.invite", { name, email: `${name.split(" ")[0]!.toLowerCase()}.${stamp}@example.com`, role });
  const [ana, rita] = [await invite("Ana Analyst", "analyst"), await invite("Rita Ramos", "reviewer")];
  const tokenOf = (invited: { invitationPath: string }) => invited.invitationPath.split("/").pop();
  // Rita accepts hers (a decision is assigned only to an active account).
  const ritas = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL, extraHTTPHeaders: {} });
  await trpc(ritas, "auth.acceptInvitation", { token: tokenOf(rita), password });
  await ritas.dispose();

  // Ana accepts her invitation in a browser of her own (no bootstrap token), on a phone's width.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, extraHTTPHeaders: {}, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const session = await trpc<{ csrfToken: string }>(context.request, "auth.acceptInvitation", { token: tokenOf(ana), password });

  const flowId = await createFlow(request, `Ana's orders ${stamp}`);
  const started = await context.request.post(`/api/stitch/flows/${flowId}/runs`, { data: { input: { order: "B-7" } }, headers: { "x-csrf-token": session.csrfToken } });
  expect(started.status(), await started.text()).toBe(201);
  const run = (await started.json()) as { id: string };
  // An operator assigns the gate's decision to Rita.
  const decisions = (await (await request.get(`/api/decisions?view=all&run_id=${run.id}`)).json()) as { items: { id: string }[] };
  const assigned = await request.post(`/api/decisions/${decisions.items[0]!.id}/assign`, { data: { account_id: rita.account.id } });
  expect(assigned.ok(), await assigned.text()).toBe(true);

  await page.goto(`/app/flows/runs/${run.id}`);
  await expect(page.getByRole("heading", { name: `Ana's orders ${stamp}`, level: 1 })).toBeVisible();
  await expect(page.getByText("started by Ana Analyst", { exact: false })).toBeVisible();
  const waiting = page.getByRole("status", { name: "Waiting for Rita Ramos on Carrier" });
  await expect(waiting).toContainText(/Waiting for Rita Ramos since \S/);
  await expect(page.getByRole("log", { name: "Conversation" }).getByText("Awaiting a person's input")).toBeVisible();
  await expect(page.getByRole("button", { name: "Complete" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Output" })).toHaveCount(0);
  await expect(page.getByText(/your (review|input)/i)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await snapshot(page, testInfo, "03-analyst-waits-for-rita");

  // The graph says the same, its node's details opened from the keyboard.
  await page.getByRole("navigation", { name: "Run views" }).getByRole("link", { name: "Flow graph" }).click();
  const details = page.getByRole("region", { name: "Nodes" }).getByRole("button", { name: "Details of Carrier" });
  await details.focus();
  await page.keyboard.press("Enter");
  const inspector = page.getByRole("complementary", { name: "Carrier" });
  await expect(inspector).toContainText(/Waiting for Rita Ramos since \S/);
  await expect(inspector.getByRole("button", { name: "Complete node" })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await snapshot(page, testInfo, "04-analyst-graph-waits-for-rita");
  await context.close();
});
