/**
 * The reviewer's inbox: a brief's first output waiting for review is a decision; "Reviews" counts what waits for
 * the reviewer, in the navigation and in the tab title, lists it with what it asks and whose run it is, and one click
 * opens the run's conversation at the output to review. Once approved, the decision shows under "All" as approved.
 */
import { expect, test } from "@playwright/test";
import { bootstrapName } from "./auth";
import { snapshot } from "./helpers";

test("a waiting output is counted in the navigation and the tab title, listed in Reviews, and opens its conversation", async ({ page }, testInfo) => {
  const domain = `inbox-${Date.now()}`;
  const created = await page.request.post("/runs", { data: { domain, brief: "A tool library where neighbours lend drills, ladders and saws to each other." } });
  expect(created.ok()).toBe(true);
  const runId = (await created.json()).run_id as string;

  await page.goto("/app/reviews");
  const title = `Review Requirements v1 of ${domain}`;
  const item = page.getByRole("link", { name: title });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /Reviews\s*\d+ waiting for you/ })).toBeVisible();
  await expect(page).toHaveTitle(/^\(\d+\) Reviews · Stitch$/);
  await expect(page.getByRole("listitem").filter({ has: item })).toContainText(`Started by ${bootstrapName}`);

  await page.getByRole("searchbox", { name: "Search reviews" }).fill(domain);
  await expect(page.getByRole("list", { name: "Reviews" }).getByRole("listitem")).toHaveCount(1);
  await snapshot(page, testInfo, "inbox");

  await item.click();
  await expect(page).toHaveURL(new RegExp(`/app/runs/${runId}$`));
  await page.getByRole("region", { name: "Review Requirements" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("article", { name: "Inception output, version 1" })).toBeVisible({ timeout: 60_000 });

  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /^Reviews/ }).click();
  await page.getByRole("button", { name: "All" }).click();
  await page.getByRole("searchbox", { name: "Search reviews" }).fill(domain);
  await expect(page.getByRole("list", { name: "Reviews" })).toContainText(`Approved by ${bootstrapName}`);
});
