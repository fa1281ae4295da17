/** Errors from the server reach the person as messages they can act on, never swallowed. */
import { expect, test } from "@playwright/test";
import { snapshot, submitBrief } from "./helpers";

test("a run that does not exist says so", async ({ page }) => {
  await page.goto("/app/runs/RUN_does_not_exist");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("This run could not be opened");
  await expect(alert).toContainText("RUN_does_not_exist");
});

test("a lost connection pauses updates and refuses decisions visibly, and the conversation catches up when it returns", async ({ page }, testInfo) => {
  await page.goto("/app");
  await page.getByRole("textbox", { name: "Domain" }).fill("flaky network");
  await page.getByRole("textbox", { name: "Brief" }).fill("A reviewer on a train loses the connection while deciding on an output.");
  await submitBrief(page);
  const composer = page.getByRole("region", { name: /^Review / });
  await expect(composer).toBeVisible({ timeout: 60_000 });
  const output = page.getByRole("article", { name: /output, version 1$/ });
  await expect(output).toBeVisible();

  // The connection drops: polling fails and the decision cannot be sent; both are said, and nothing on screen is lost.
  const offline = /\/trpc\//;
  await page.route(offline, (route) => route.abort("internetdisconnected"));
  await expect(page.getByRole("alert").filter({ hasText: "Updates paused" })).toContainText("The server could not be reached");
  await composer.getByRole("button", { name: "Approve" }).click();
  await expect(composer.getByRole("alert")).toContainText("Your decision was not recorded");
  await expect(composer.getByRole("alert")).toContainText("The server could not be reached");
  await expect(output).toBeVisible();
  await snapshot(page, testInfo, "01-connection-lost");

  // Back online: the same decision goes through and the conversation moves on.
  await page.unroute(offline);
  await composer.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("article", { name: /^Approved / })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Updates paused" })).toHaveCount(0);
});
