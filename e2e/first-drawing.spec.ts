/**
 * The page comes drawn (web/src/serverRender.tsx, server/http/webAppRoutes.ts): a conversation is on screen before the
 * app's script has run, as an inert picture the app then replaces. With JavaScript off, the reviewer still reads the
 * brief and the output waiting for review, and nothing in the picture can be used; with it on, the app takes over the
 * same page and the review can be sent.
 */
import { expect, test } from "@playwright/test";

const brief = "A lending library for tools </script><b>bold?</b>: neighbours borrow drills and ladders, and give them back within a week.";

test("a conversation is readable from the page itself, then the app takes it over", async ({ browser, page, request }) => {
  const created = await request.post("/runs", { data: { domain: "drawn", brief } });
  expect(created.status()).toBe(200);
  const runId = ((await created.json()) as { run_id: string }).run_id;
  await expect
    .poll(async () => ((await (await request.get(`/runs/${runId}`)).json()) as { is_waiting_for_user: boolean }).is_waiting_for_user, { timeout: 60_000 })
    .toBe(true);

  // JavaScript off: the server's picture of the conversation, the brief as written (as text), nothing to click.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    const still = await noScript.newPage();
    await still.goto(`/app/runs/${encodeURIComponent(runId)}`);
    const drawn = still.locator("#root > .server-drawn[inert]");
    await expect(drawn).toHaveCount(1);
    await expect(drawn.locator('article[aria-label="Requirements output, version 1"]')).toBeVisible();
    await expect(drawn).toContainText(brief);
    await expect(drawn.locator("b")).toHaveCount(0);
    await expect(drawn.getByText("Awaiting your review")).toBeVisible();
  } finally {
    await noScript.close();
  }

  // JavaScript on: the app replaces the picture with itself, the same conversation, and the review works.
  await page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  await expect(page.locator(".server-drawn")).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Requirements output, version 1" })).toContainText("Awaiting your review");
  const composer = page.getByRole("region", { name: "Review Requirements" });
  await composer.getByRole("textbox").first().fill("Say who may borrow what.");
  await expect(composer.getByRole("textbox").first()).toHaveValue("Say who may borrow what.");
  await request.post(`/runs/${runId}/cancel`, { data: {} });
});
