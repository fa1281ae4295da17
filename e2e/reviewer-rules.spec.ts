/**
 * The reviewer's desk in Chromium, each person in a browser context of their own (invited by the bootstrap operator,
 * signed in with their own session): an analyst submits a brief; the reviewer's navigation and tab title count one
 * more decision; she claims it in the inbox and approves it in the conversation. With the policy set to separation of
 * duties, a reviewer who submitted a brief himself is refused his own decision, and his conversation says why and who can. A YAML approval that needs two approvers waits after
 * the first and passes with the second. An operator reassigns an overdue decision to a reviewer by name.
 */
import { type Page, expect, test } from "@playwright/test";
import { person, snapshot, submitBrief } from "./helpers";

const BRIEF = "A tool library where neighbours lend drills, ladders and saws to each other.";
const reviewsLink = (page: Page) => page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /^Reviews/ });

/** How many open decisions the person signed in on `page` may take, as the server counts them (what the navigation shows). */
async function openForMe(page: Page): Promise<number> {
  const answer = await page.request.get("/api/decisions?limit=1");
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { open_for_me: number }).open_for_me;
}

test("an analyst submits; the reviewer sees one more, claims it in the inbox and approves; a reviewer's own brief is not hers to decide", async ({ browser, request }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const anna = await person(browser, request, baseURL, "Anna Analyst", "analyst");
  const rita = await person(browser, request, baseURL, "Rita Reviewer", "reviewer");
  await rita.page.goto("/app/reviews");
  await expect(reviewsLink(rita.page)).toBeVisible();
  const before = await openForMe(rita.page);

  const domain = `desk-${Date.now()}`;
  await anna.page.goto("/app");
  await anna.page.getByRole("textbox", { name: "Domain" }).fill(domain);
  await anna.page.getByRole("textbox", { name: "Brief" }).fill(BRIEF);
  await submitBrief(anna.page);
  await expect(anna.page).toHaveURL(/\/app\/runs\/[^/]+$/);

  // The reviewer's navigation and tab title count it, within a refresh.
  await expect(reviewsLink(rita.page)).toContainText(String(before + 1), { timeout: 60_000 });
  await expect(rita.page).toHaveTitle(new RegExp(`^\\(${before + 1}\\) Reviews · Stitch$`));
  await rita.page.getByRole("searchbox", { name: "Search reviews" }).fill(domain);
  const title = `Review Requirements v1 of ${domain}`;
  const item = rita.page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: title });
  await expect(item).toContainText("Started by Anna Analyst");
  await item.getByRole("button", { name: /^Claim it/ }).click();
  await expect(item).toContainText("for Rita Reviewer");
  await expect(item.getByRole("button", { name: /^Release to the team/ })).toBeVisible();
  await snapshot(rita.page, testInfo, "01-claimed");
  await item.getByRole("link", { name: title }).click();
  await rita.page.getByRole("region", { name: "Review Requirements" }).getByRole("button", { name: "Approve" }).click();
  await expect(rita.page.getByRole("article", { name: "Inception output, version 1" })).toBeVisible({ timeout: 60_000 });

  // With the policy an operator sets to separation of duties, a reviewer who submits a brief may not decide its
  // outputs: his conversation says so in words and who can; the inbox refuses his claim, naming the rule.
  expect((await request.post("/trpc/policy.change", { data: { self_approval: false } })).ok()).toBe(true);
  const rex = await person(browser, request, baseURL, "Rex Reviewer", "reviewer");
  const own = `own-${Date.now()}`;
  await rex.page.goto("/app");
  await rex.page.getByRole("textbox", { name: "Domain" }).fill(own);
  await rex.page.getByRole("textbox", { name: "Brief" }).fill(BRIEF);
  await submitBrief(rex.page);
  await expect(rex.page).toHaveURL(/\/app\/runs\/[^/]+$/);
  await expect(rex.page.getByText("You submitted this brief; a colleague reviews it")).toContainText("anyone but you with the reviewer role", { timeout: 60_000 });
  await reviewsLink(rex.page).click();
  await rex.page.getByRole("button", { name: "All" }).click();
  await rex.page.getByRole("searchbox", { name: "Search reviews" }).fill(own);
  const ownTitle = `Review Requirements v1 of ${own}`;
  const ownItem = rex.page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: ownTitle });
  await ownItem.getByRole("button", { name: /^Claim it/ }).click({ timeout: 60_000 });
  await expect(ownItem.getByRole("alert")).toContainText("separation of duties");
  await snapshot(rex.page, testInfo, "02-own-brief-refused");
  expect((await request.post("/trpc/policy.change", { data: { self_approval: true } })).ok()).toBe(true);
});

test("a YAML approval that needs two approvers waits after the first and passes with the second", async ({ browser, request }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const name = `two-approvers-${Date.now()}`;
  const yaml = `name: ${name}\ndescription: a release two people approve\nnodes:\n  - id: release\n    approval:\n      message: "Release it?"\n      approvals: 2\n`;
  expect((await request.post("/api/workflows", { data: { yaml } })).status()).toBe(201);
  const started = await request.post(`/api/workflows/${name}/runs`, { data: { message: "1.2" } });
  const runId = ((await started.json()) as { id: string }).id;

  const sam = await person(browser, request, baseURL, "Sam Second", "reviewer");
  const tess = await person(browser, request, baseURL, "Tess Third", "reviewer");
  await sam.page.goto(`/app/workflows/runs/${runId}`);
  await sam.page.getByRole("region", { name: "Review release" }).getByRole("button", { name: "Approve" }).click({ timeout: 60_000 });
  await expect.poll(async () => {
    const page = (await (await request.get(`/api/decisions?run_id=${runId}&view=all`)).json()) as { items: { approvals: { by: string }[]; state: string }[] };
    return page.items.map((d) => [d.state, d.approvals.map((a) => a.by)]);
  }).toEqual([["open", ["Sam Second"]]]);
  expect(((await (await request.get(`/api/workflows/runs/${runId}`)).json()) as { status: string }).status).toBe("waiting_for_user");

  await tess.page.goto("/app/reviews");
  await tess.page.getByRole("searchbox", { name: "Search reviews" }).fill(name);
  const item = tess.page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText("1 of 2 approvals: approved by Sam Second");
  await snapshot(tess.page, testInfo, "03-one-of-two");
  await item.getByRole("link").first().click();
  await tess.page.getByRole("region", { name: "Review release" }).getByRole("button", { name: "Approve" }).click();
  await expect.poll(async () => ((await (await request.get(`/api/workflows/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe("completed");
});

test("an operator reassigns an overdue decision to a reviewer by name", async ({ page, browser, request }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const uma = await person(browser, request, baseURL, "Uma Urgent", "reviewer");
  const name = `overdue-${Date.now()}`;
  const yaml = `name: ${name}\ndescription: an approval due at once\nnodes:\n  - id: signoff\n    approval:\n      message: "Sign off?"\n      due_in: 1s\n`;
  expect((await request.post("/api/workflows", { data: { yaml } })).status()).toBe(201);
  expect((await request.post(`/api/workflows/${name}/runs`, { data: { message: "now" } })).status()).toBe(201);

  await page.goto("/app/reviews");
  await page.getByRole("button", { name: "Overdue" }).click();
  await page.getByRole("searchbox", { name: "Search reviews" }).fill(name);
  const title = new RegExp(`Approve "signoff" of ${name}`);
  const item = page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: title });
  await expect(item).toContainText("overdue since", { timeout: 60_000 });
  await item.getByLabel(/^Assign/).selectOption({ label: "Uma Urgent (reviewer)" });
  await item.getByRole("button", { name: "Assign to Uma Urgent" }).click();
  await expect(item).toContainText("for Uma Urgent");
  await snapshot(page, testInfo, "04-reassigned");

  await uma.page.goto("/app/reviews");
  await uma.page.getByRole("button", { name: "Assigned to me" }).click();
  await expect(uma.page.getByRole("list", { name: "Reviews" })).toContainText(name);
});
