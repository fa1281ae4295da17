/**
 * The analyst's own brief, in Chromium, signed in as herself (invited by the bootstrap operator): the composer's prompts
 * and its check of a thin brief, which she may start anyway; her name on the brief; the sidebar saying whom the review
 * waits for, never "your review"; "Edit brief", which asks before discarding the first agent's draft and keeps the first
 * version in the conversation; and "Cancel run" on her own run, recorded as hers: a pipeline run, and the YAML and
 * step workflow runs she starts, never on a run someone else started. (Named to run after people.spec.ts, which needs
 * a server without accounts.)
 */
import { expect, test } from "@playwright/test";
import { person, snapshot } from "./helpers";

const THIN = "Tool library app for neighbours";
const BETTER =
  "A tool library for neighbours in one building: members lend drills and ladders, book them for a day and get a reminder to return them. " +
  "One item per person at a time, and a deposit is required. Card payments by Stripe and email reminders.";

test("the analyst is guided, starts a thin brief anyway, edits it to restart the first agent, and cancels her own run", async ({ browser, request }, testInfo) => {
  const { page } = await person(browser, request, testInfo.project.use.baseURL, "Sara Submitter", "analyst");
  const domain = `tool-library-${Date.now()}`;

  // The prompts beside the box; a one-liner is checked once, saying what it lacks, and may start anyway.
  const prompts = page.getByRole("complementary", { name: "A brief the agents can work from says" });
  await expect(prompts).toContainText("Who is it for?");
  await page.getByRole("textbox", { name: "Domain" }).fill(domain);
  await page.getByRole("textbox", { name: "Brief" }).fill(THIN);
  await expect(prompts).toContainText("Who is it for? (your brief says this)");
  await page.getByRole("button", { name: "Submit brief" }).click();
  const check = page.getByRole("alert").filter({ hasText: "too thin" });
  await expect(check).toContainText("does not say what people do with it, its rules and constraints or the systems it connects to");
  await snapshot(page, testInfo, "01-thin-brief-check");
  await expect(page).toHaveURL(/\/app$/);
  await page.getByRole("button", { name: "Start anyway" }).click();
  await expect(page).toHaveURL(/\/app\/runs\/[^/]+$/);

  // Her brief, under her name and initials.
  const first = page.getByRole("article", { name: "Brief", exact: true });
  await expect(first).toContainText("by Sara Submitter");
  await expect(first.locator(".avatar-human")).toHaveText("SS");
  await expect(page.locator(".run-header")).toContainText("submitted by Sara Submitter");

  // The sidebar says whom her run waits for, never that it waits for her review.
  const runLink = page.getByRole("navigation", { name: "Runs" }).getByRole("link", { name: new RegExp(domain) });
  await expect(runLink).toContainText(/Waiting for a reviewer|agent drafting/);
  await expect(runLink).toContainText("Waiting for a reviewer · Requirements", { timeout: 60_000 });
  await expect(runLink).not.toContainText("Review ");
  await expect(runLink.locator(".badge")).toHaveCount(0);

  // "Edit brief": the text is kept while she backs out, and restarting asks first.
  await first.getByRole("button", { name: "Edit brief" }).click();
  const box = page.getByRole("textbox", { name: "New brief" });
  await expect(box).toHaveValue(THIN);
  await box.fill(BETTER);
  await page.getByRole("button", { name: "Restart with this brief" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Restart with the new brief?" });
  await expect(confirm).toContainText("is discarded");
  await expect(confirm.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await snapshot(page, testInfo, "02-edit-brief-confirm");
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(box).toHaveValue(BETTER);
  await page.getByRole("button", { name: "Restart with this brief" }).click();
  await page.getByRole("button", { name: "Discard and restart" }).click();

  const second = page.getByRole("article", { name: "Brief, version 2" });
  await expect(second).toContainText(BETTER);
  await expect(second).toContainText("by Sara Submitter");
  await expect(first).toContainText(THIN);
  await expect(page.getByRole("article", { name: "Requirements output, version 1" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await snapshot(page, testInfo, "03-brief-version-2");

  // She cancels her own run: recorded as hers.
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByRole("textbox", { name: "Reason" }).fill("Wrong building.");
  await page.getByRole("button", { name: "Cancel this run" }).click();
  const cancelled = page.getByRole("article", { name: "Run cancelled" });
  await expect(cancelled).toContainText("Run cancelled by Sara Submitter");
  await expect(page.getByRole("button", { name: "Edit brief" })).toHaveCount(0);
  await expect(runLink).toContainText("Cancelled");
  await snapshot(page, testInfo, "04-cancelled-by-her");
});

test("the analyst cancels the YAML and step workflow runs she started, after confirming, and is not offered it on another's", async ({ browser, request }, testInfo) => {
  const yamlName = `wendy-gate-${Date.now()}`;
  const gate = `name: ${yamlName}\ndescription: waits for a person at once\nnodes:\n  - id: gate\n    approval:\n      message: "Go on?"\n`;
  expect((await request.post("/api/workflows", { data: gate, headers: { "content-type": "application/yaml" } })).ok()).toBe(true);
  const stepsName = `wendy-pause-${Date.now()}`;
  const pause = { id: stepsName, steps: [{ id: "pause", tool: "utils.delay", params: { ms: 60_000 } }] };
  expect((await request.post("/api/workflows", { data: pause })).ok()).toBe(true);
  // A run someone else (the bootstrap operator) started.
  const others = (await (await request.post(`/api/workflows/${yamlName}/runs`, { data: { message: "not hers" } })).json()) as { id: string };

  const { page } = await person(browser, request, testInfo.project.use.baseURL, "Wendy Workflow", "analyst");
  await page.goto(`/app/workflows/runs/${others.id}`);
  await expect(page.locator(".run-header")).toContainText("Waiting for a person");
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);

  // Her YAML run: "Cancel run" asks first, then the run is cancelled, recorded as hers.
  await page.goto(`/app/workflows/${yamlName}`);
  await page.getByRole("textbox", { name: "Message" }).fill("mine");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/workflows\/runs\/[^/]+$/);
  await expect(page.locator(".run-header")).toContainText("started by Wendy Workflow");
  await expect(page.locator(".run-header")).toContainText("Waiting for a person");
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByRole("textbox", { name: "Reason" }).fill("Started it by mistake.");
  await snapshot(page, testInfo, "05-her-workflow-run-cancel-confirmation");
  await page.getByRole("button", { name: "Cancel this run" }).click();
  const cancelled = page.getByRole("article", { name: "Run cancelled" });
  await expect(cancelled).toContainText("Run cancelled by Wendy Workflow");
  await expect(cancelled).toContainText("Started it by mistake.");
  await expect(page.locator(".run-header")).toContainText("Cancelled");
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);

  // Her step workflow run, likewise.
  await page.goto(`/app/steps/${stepsName}`);
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/steps\/runs\/[^/]+$/);
  await expect(page.locator(".run-header")).toContainText("started by Wendy Workflow");
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByRole("textbox", { name: "Reason" }).fill("Not needed.");
  await page.getByRole("button", { name: "Cancel this run" }).click();
  await expect(page.getByRole("article", { name: "Run cancelled" })).toContainText("Run cancelled by Wendy Workflow");
  await expect(page.locator(".run-header")).toContainText("Cancelled");
  await snapshot(page, testInfo, "06-her-step-run-cancelled");

  expect((await request.post(`/api/workflows/runs/${others.id}/cancel`, { data: {} })).ok()).toBe(true);
});
