/**
 * A reviewer stops a run while its first output waits for review: "Cancel run", a reason, "Cancel this run".
 * The conversation ends with the cancellation recorded under the caller's name and its reason, nothing is left to
 * approve, the sidebar says Cancelled, polling stops, and the flow graph shows the stopped node. While the run waits,
 * the sidebar reads only its list's change marker, not the runs.
 */
import { expect, test } from "@playwright/test";
import { bootstrapName } from "./auth";
import { snapshot, submitBrief, trpcReads } from "./helpers";

// Decisions are recorded as the caller: these specs act with the bootstrap token (e2e/auth.ts).
const reviewer = bootstrapName;
const reason = "The client withdrew the brief.";

test("a run waiting for review is cancelled with a reason, and nothing can be decided on it afterwards", async ({ page }, testInfo) => {
  // The conversation's reads: its change marker (polled) and the conversation (read again when the marker moves).
  const conversationPolls: string[] = [];
  page.on("request", (r) => /pipeline\.(changes|conversation)/.test(r.url()) && conversationPolls.push(r.url()));

  await page.goto("/app");
  await page.getByRole("textbox", { name: "Domain" }).fill("withdrawn");
  await page.getByRole("textbox", { name: "Brief" }).fill("A booking tool for a client who may still change their mind about the whole project.");
  await submitBrief(page);
  await expect(page).toHaveURL(/\/app\/runs\/[^/]+$/);

  // The requirements output waits for review.
  const composer = page.getByRole("region", { name: "Review Requirements" });
  await expect(composer).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("article", { name: "Requirements output, version 1" })).toContainText("Awaiting your review");
  const runs = page.getByRole("navigation", { name: "Runs" });
  const runLink = runs.getByRole("link", { name: /withdrawn/ });
  await expect(runLink).toContainText("Waiting for a reviewer");

  // Nothing moves while the output waits: the sidebar reads its list's change marker (every 10 s while runs wait only
  // for people), not the runs again.
  const sidebarReads = await trpcReads(page).during(10_500, /^pipeline\.(listRuns|listChanges)$/);
  expect(sidebarReads.filter((procedure) => procedure === "pipeline.listChanges").length).toBeGreaterThanOrEqual(1);
  expect(sidebarReads.filter((procedure) => procedure === "pipeline.listRuns")).toEqual([]);

  // Backing out changes nothing.
  const cancelRun = page.getByRole("button", { name: "Cancel run", exact: true });
  await cancelRun.click();
  await expect(page.getByRole("textbox", { name: "Reason" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("form", { name: "Cancel this run?" })).toHaveCount(0);
  await expect(cancelRun).toBeFocused();
  await expect(composer).toBeVisible();

  // Cancelled with a reason.
  await cancelRun.click();
  await page.getByRole("textbox", { name: "Reason" }).fill(reason);
  await snapshot(page, testInfo, "01-cancel-confirmation");
  await page.getByRole("button", { name: "Cancel this run" }).click();

  const cancelled = page.getByRole("article", { name: "Run cancelled" });
  await expect(cancelled).toContainText(`Run cancelled by ${reviewer}`);
  await expect(cancelled).toContainText(reason);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Review / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);
  // What was drafted before the cancellation can still be taken away: the downloads stay in the run's header.
  await expect(page.getByRole("link", { name: "Download bundle" })).toHaveCount(1);
  await expect(page.locator(".run-header")).toContainText("Cancelled");
  await expect(runLink).toContainText("Cancelled");
  await expect(runLink).not.toContainText("Review");
  await snapshot(page, testInfo, "02-cancelled");

  // Polling stops once the run is CANCELLED: after the marker's last read (which says the run is over, and has the
  // conversation read once more), nothing is read again.
  await page.waitForTimeout(2500);
  const pollsAtCancellation = conversationPolls.length;
  await page.waitForTimeout(4000);
  expect(conversationPolls.length).toBe(pollsAtCancellation);

  // The flow graph shows the node that was waiting as cancelled.
  await page.getByRole("link", { name: "Flow graph" }).click();
  const nodes = page.getByRole("region", { name: "Nodes" });
  await expect(nodes).toContainText("Cancelled");
  await expect(page.getByLabel("Node counts")).toContainText("cancelled");
  await snapshot(page, testInfo, "03-cancelled-flow-graph");
});

test("any flow's engine run is cancelled from its graph: the waiting node stops and the run stops polling", async ({ page, request }, testInfo) => {
  const flowResponse = await request.post("/api/stitch/flows", {
    data: {
      name: "Approve refund",
      graph: { nodes: [{ id: "approve", type: "UX", position: { x: 0, y: 0 }, data: { label: "Approve refund" } }], edges: [] },
    },
  });
  expect(flowResponse.ok(), await flowResponse.text()).toBe(true);
  const flow = (await flowResponse.json()) as { id: string };
  const runResponse = await request.post(`/api/stitch/flows/${flow.id}/runs`, { data: { input: { amount: 42 } } });
  expect(runResponse.ok(), await runResponse.text()).toBe(true);
  const run = (await runResponse.json()) as { id: string };

  const runPolls: string[] = [];
  page.on("request", (r) => r.url().includes("runs.get") && runPolls.push(r.url()));
  await page.goto(`/app/engine/runs/${run.id}`);
  const nodes = page.getByRole("region", { name: "Nodes" });
  await expect(nodes.getByRole("row", { name: /Approve refund/ })).toContainText("Needs input");
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByRole("textbox", { name: "Reason" }).fill("Refund handled by phone.");
  await page.getByRole("button", { name: "Cancel this run" }).click();

  await expect(page.locator(".run-header")).toContainText("Cancelled");
  await expect(nodes.getByRole("row", { name: /Approve refund/ })).toContainText("Cancelled");
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);
  await nodes.getByRole("button", { name: "Details of Approve refund" }).click();
  await expect(page.getByRole("complementary", { name: "Approve refund" })).toContainText("Refund handled by phone.");
  await expect(page.getByRole("button", { name: "Complete node" })).toHaveCount(0);
  await snapshot(page, testInfo, "01-engine-run-cancelled");

  const pollsAtCancellation = runPolls.length;
  await page.waitForTimeout(4000);
  expect(runPolls.length).toBe(pollsAtCancellation);

  const stopped = (await (await request.get(`/api/stitch/runs/${run.id}`)).json()) as { status: string };
  expect(stopped.status).toBe("cancelled");
});
