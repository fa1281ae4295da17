/**
 * Re-run from here in the agent pipeline, in Chromium: a reviewer signed in with her own session forks a run at
 * Inception (whose review waits for her) with another first feedback. The fork opens: it says where it came from, the
 * requirements are the parent's (copied, their approval decided in the parent), and only Inception is drafted again
 * and waits for her review; compared with its parent, exactly Inception's output differs; the parent is untouched and
 * names its fork; the graph view offers the same on an agent.
 */
import { expect, test } from "@playwright/test";
import { person, snapshot } from "./helpers";

const BRIEF = "A tool library where neighbours lend drills, ladders and saws to each other, with deposits and reminders.";

interface RunView {
  run_id: string;
  state: { phase: string; agent: string | null };
  forks: { run_id: string }[];
}

test("a reviewer forks a pipeline run at Inception with another first feedback and reviews only from Inception on", async ({ browser, request }, testInfo) => {
  // The run, as the bootstrap operator's automation would: requirements approved, Inception waiting for a reviewer.
  const started = await request.post("/runs", { data: { domain: `forks-${Date.now()}`, brief: BRIEF } });
  expect(started.ok(), await started.text()).toBe(true);
  const parentId = ((await started.json()) as RunView).run_id;
  const stateOf = async (runId: string) => ((await (await request.get(`/runs/${runId}`)).json()) as RunView).state;
  await expect.poll(() => stateOf(parentId), { timeout: 60_000 }).toEqual({ phase: "waiting_approval", agent: "requirements" });
  expect((await request.post(`/runs/${parentId}/approve`, { data: { comment: "a clear scope" } })).ok()).toBe(true);
  await expect.poll(() => stateOf(parentId), { timeout: 60_000 }).toEqual({ phase: "waiting_approval", agent: "inception" });

  const rita = await person(browser, request, testInfo.project.use.baseURL, "Rita Ramos", "reviewer");
  const { page } = rita;
  await page.goto(`/app/runs/${parentId}`);
  const inception = page.getByRole("article", { name: "Inception output, version 1" });
  await expect(inception).toBeVisible({ timeout: 30_000 });

  // Re-run from here, under Inception's output: a first feedback, and the brief prefilled as the run has it.
  await page.locator(".flow-turn-with-fork", { has: inception }).getByText("Re-run from here").click();
  const form = page.getByRole("form", { name: "Re-run from Inception" });
  await expect(form.getByRole("textbox", { name: "The brief the fork's agents read" })).toHaveValue(BRIEF);
  await form.getByRole("textbox", { name: "First feedback to Inception (optional)" }).fill("Try a mobile-first scope.");
  await form.getByRole("button", { name: "Start the fork" }).click();

  // The fork opens: where it came from, the requirements copied with their approval, Inception revised, her review.
  await page.waitForURL((url) => /^\/app\/runs\/RUN_/.test(url.pathname) && !url.pathname.endsWith(parentId));
  const forkId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  const forked = page.getByRole("article", { name: `Forked from Inception of ${parentId}` });
  await expect(forked).toContainText("Try a mobile-first scope.");
  await expect(forked).toContainText("by Rita Ramos");
  await expect(page.getByRole("article", { name: "Requirements output, version 1" })).toContainText(`Copied from ${parentId} v1`);
  await expect(page.getByRole("article", { name: "Approved Requirements" })).toContainText(`decided in ${parentId}`);
  const revised = page.getByRole("article", { name: "Inception output, version 2" });
  await expect(revised).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("region", { name: "Review Inception" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Review Requirements" })).toHaveCount(0);
  await snapshot(page, testInfo, "01-the-fork");

  // Compared with its parent: exactly Inception's output differs; the requirements are the same, shown on request.
  await page.locator(".run-lineage").getByRole("link", { name: "Compare with parent" }).click();
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Inception: differs", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: /: differs$/ })).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Requirements: the same", exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: /^Show unchanged/ }).click();
  await expect(page.getByRole("region", { name: "Requirements: the same", exact: true })).toBeVisible();
  await snapshot(page, testInfo, "02-compared-with-parent");
  await page.goto(`/app/runs/${forkId}`);

  // The parent is untouched, still at Inception's review, and names its fork.
  expect(await stateOf(parentId)).toEqual({ phase: "waiting_approval", agent: "inception" });
  const parent = (await (await request.get(`/runs/${parentId}`)).json()) as RunView;
  expect(parent.forks.map((f) => f.run_id)).toEqual([forkId]);
  await page.goto(`/app/runs/${parentId}`);
  await expect(page.getByText(new RegExp(`Forked at Inception by Rita Ramos into ${forkId}`))).toBeVisible();

  // The graph view offers it on an agent's details too, the brief prefilled.
  await page.getByRole("link", { name: "Flow graph" }).click();
  await page.getByRole("region", { name: "Nodes" }).getByRole("button", { name: "Details of Requirements" }).click();
  await page.locator(".inspector").getByText("Re-run from here").click();
  await expect(page.locator(".inspector").getByRole("textbox", { name: "The brief the fork's agents read" })).toHaveValue(BRIEF);

  // Her review of the fork moves the fork alone.
  await page.goto(`/app/runs/${forkId}`);
  await page.getByRole("region", { name: "Review Inception" }).getByRole("button", { name: /^Approve/ }).click();
  await expect.poll(() => stateOf(forkId), { timeout: 60_000 }).toEqual({ phase: "waiting_approval", agent: "agile" });
  expect(await stateOf(parentId)).toEqual({ phase: "waiting_approval", agent: "inception" });
  await page.context().close();
});
