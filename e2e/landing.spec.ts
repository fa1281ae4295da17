/**
 * Each person lands where their work is (web/src/lib/landing.ts), signing in at the root address on a 390 px phone,
 * in a browser context of their own: a reviewer with decisions waiting lands on them, the first one on the first
 * screen; an analyst on the new brief; an operator on the decisions nobody can take, each saying why with its fix. On a
 * server of its own: the accounts it makes would otherwise meet people.spec.ts's "Create the first account".
 */
import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect, request as requests, test } from "@playwright/test";
import { bootstrapHeaders } from "./auth";
import { snapshot } from "./helpers";
import { type OwnServer, startOwnServer } from "./ownServer";

const phone = { width: 390, height: 844 };
let serial = 0;

/** Invites someone as the bootstrap operator; answers their email and password, their invitation accepted. */
async function account(request: APIRequestContext, name: string, role: "analyst" | "reviewer" | "operator") {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}.${++serial}@example.com`;
  const password = `${name} correct horse`;
  const invited = await request.post("/trpc/accounts.invite", { data: { name, email, role } });
  expect(invited.ok()).toBe(true);
  const token = ((await invited.json()) as { result: { data: { invitationPath: string } } }).result.data.invitationPath.split("/").pop()!;
  expect((await request.post("/trpc/auth.acceptInvitation", { data: { token, password } })).ok()).toBe(true);
  return { name, email, password };
}

/** Opens the root address on a phone and signs in there, as a person would. */
const contexts: BrowserContext[] = [];

async function signInAtRoot(browser: Browser, baseURL: string | undefined, person: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: {}, viewport: phone });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return page;
}

/** Whether the element is wholly on the first screen, without scrolling. */
async function onFirstScreen(page: Page, selector: ReturnType<Page["locator"]>): Promise<boolean> {
  const box = await selector.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= phone.height;
}

let server: OwnServer | undefined;
test.beforeAll(async () => {
  server = await startOwnServer();
});
test.afterAll(async () => {
  // Its people's pages go before their server does: left open, they would poll a server that is gone.
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await server?.stop();
});

test("a reviewer with decisions waiting lands on them; an analyst on the new brief; an operator on the decisions nobody can take", async ({ browser }, testInfo) => {
  const baseURL = server!.baseURL;
  // Automation, as the bootstrap operator token.
  const request = await requests.newContext({ baseURL, extraHTTPHeaders: bootstrapHeaders });

  // Something waits for every reviewer: a pipeline output to review.
  const run = await request.post("/runs", { data: { domain: `landing-${Date.now()}`, brief: "A tool library where neighbours lend drills, ladders and saws to each other." } });
  expect(run.status()).toBe(200);
  const runId = ((await run.json()) as { run_id: string }).run_id;
  await expect.poll(async () => ((await (await request.get(`/runs/${runId}`)).json()) as { is_waiting_for_user: boolean }).is_waiting_for_user, { timeout: 60_000 }).toBe(true);

  const reviewer = await signInAtRoot(browser, baseURL, await account(request, "Lena Reviewer", "reviewer"));
  await expect(reviewer).toHaveURL(/\/app\/reviews$/);
  const first = reviewer.getByRole("list", { name: "Reviews" }).getByRole("listitem").first();
  await expect(first).toBeVisible();
  expect(await onFirstScreen(reviewer, first.getByRole("link").first())).toBe(true);
  await snapshot(reviewer, testInfo, "01-reviewer-lands-on-reviews");

  const analyst = await signInAtRoot(browser, baseURL, await account(request, "Lars Analyst", "analyst"));
  await expect(analyst).toHaveURL(/\/app$/);
  await expect(analyst.getByRole("textbox", { name: "Brief" })).toBeVisible();

  // A decision nobody can take: an approval that needs more people than there are.
  const workflow = `landing-quorum-${Date.now()}`;
  const yaml = `name: ${workflow}\ndescription: more approvals than people\nnodes:\n  - id: ok\n    approval:\n      message: "Ship it?"\n      approvals: 20\n`;
  expect((await request.post("/api/workflows", { data: { yaml } })).status()).toBe(201);
  const started = await request.post(`/api/workflows/${workflow}/runs`, { data: { message: "release 1.2" } });
  expect(started.status()).toBe(201);
  const workflowRunId = ((await started.json()) as { id: string }).id;
  await expect.poll(async () => ((await (await request.get(`/api/decisions?view=undecidable&run_id=${workflowRunId}`)).json()) as { items: unknown[] }).items.length, { timeout: 60_000 }).toBe(1);

  const operator = await signInAtRoot(browser, baseURL, await account(request, "Omar Operator", "operator"));
  await expect(operator).toHaveURL(/\/app\/reviews\?view=undecidable$/);
  await expect(operator.getByRole("button", { name: "Nobody can decide" })).toHaveAttribute("aria-pressed", "true");
  const stuck = operator.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ has: operator.locator(`a[href*="${workflowRunId}"]`) });
  await expect(stuck).toContainText("Nobody can take this decision");
  await expect(stuck).toContainText("it needs");
  await expect(stuck.getByRole("link", { name: "Invite someone who can decide" })).toBeVisible();
  await snapshot(operator, testInfo, "02-operator-lands-on-nobody-can-decide");

  // Left as the other specs expect: nothing that nobody can take, nothing waiting from this spec.
  expect((await request.post(`/api/workflows/runs/${workflowRunId}/cancel`, { data: { reason: "landing spec done" } })).ok()).toBe(true);
  expect((await request.post(`/runs/${runId}/cancel`, { data: { reason: "landing spec done" } })).ok()).toBe(true);
  await request.dispose();
});
