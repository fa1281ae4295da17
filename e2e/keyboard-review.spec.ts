/**
 * A review from the keyboard alone, counted: opened from the inbox, the conversation lands on the output that waits
 * (focused, with "Reviews" still lit in the top bar); "Skip to the decision" passes over its comment buttons; Approve
 * is a few keys on. After the decision focus is on the run's status, never the page's body, and moves on to the next
 * output once it waits. The count is the requirement: a handful of keys, where 94 Tabs were needed before.
 */
import { type Page, expect, test } from "@playwright/test";

const brief = "A tool library where neighbours lend drills, ladders and saws to each other, with a deposit and a late fee.";

/** Presses Tab until `done` holds for the focused element; how many Tabs it took (at most `limit`). */
async function tabUntil(page: Page, done: (element: { text: string; label: string; inComposer: boolean }) => boolean, limit = 200): Promise<number> {
  for (let tabs = 0; tabs <= limit; tabs++) {
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return { text: element?.textContent?.trim() ?? "", label: element?.getAttribute("aria-label") ?? "", inComposer: element?.closest("#decision") != null };
    });
    if (done(focused)) return tabs;
    await page.keyboard.press("Tab");
  }
  throw new Error(`not reached in ${limit} Tabs`);
}

test("a keyboard-only review of one output takes a handful of keys, and focus follows the run after it", async ({ page }) => {
  const domain = `keyboard-${Date.now()}`;
  const created = await page.request.post("/runs", { data: { domain, brief } });
  expect(created.ok(), await created.text()).toBe(true);

  // Arriving from the inbox: at the output that waits, focused; "Reviews" is the section lit.
  await page.goto("/app/reviews");
  const item = page.getByRole("link", { name: `Review Requirements v1 of ${domain}` });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.focus();
  await page.keyboard.press("Enter");
  const output = page.getByRole("article", { name: "Requirements output, version 1" });
  await expect(output).toBeFocused();
  await expect(output).toBeInViewport();
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /^Reviews/ })).toHaveAttribute("aria-current", "page");

  // Reading it, then deciding: Tab to "Skip to the decision", Enter, Tab to Approve, Enter.
  let keys = 1; // the Enter that opened it from the inbox
  keys += await tabUntil(page, (f) => f.text === "Skip to the decision");
  await page.keyboard.press("Enter");
  keys += 1;
  await expect(page.getByRole("region", { name: "Review Requirements" }).getByRole("textbox", { name: "Feedback" })).toBeFocused();
  keys += await tabUntil(page, (f) => f.inComposer && f.text === "Approve");
  await page.keyboard.press("Enter");
  keys += 1;
  console.log(`keystrokes from the inbox to an approval: ${keys}`);
  expect(keys).toBeLessThanOrEqual(6);

  // After the decision: the run's status, not the body; then the next output that waits for this person.
  await expect(page.getByRole("article", { name: "Approved Requirements" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
  const inception = page.getByRole("article", { name: "Inception output, version 1" });
  await expect(inception).toBeVisible({ timeout: 60_000 });
  await expect(inception).toBeFocused();
  await expect(output).toContainText(/Approved by .* · /);
});
