/**
 * An output that fits the screen it is read on, in Chromium at 1280 and 390 px: no word of the output's tables (nor of
 * People's) is broken across lines; the capabilities table shows every column or scrolls with its first column kept;
 * "Comment on CAP-..." opens its box level with the row on a desktop, and under it inside the screen on a phone.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

const brief =
  "A tool library for a housing cooperative: volunteers catalogue drills, ladders and saws; tenants reserve and borrow them; the coordinator sends a weekly overdue list.";

/** The words of `scope`'s text that the browser laid out over more than one line (a word broken in its middle). */
async function brokenWords(scope: Locator): Promise<string[]> {
  return scope.evaluateAll((elements) => {
    const broken: string[] = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

async function openWaitingRun(page: Page, width: number): Promise<Locator> {
  const created = await page.request.post("/runs", { data: { domain: `fits-${width}-${Date.now()}`, brief } });
  expect(created.ok(), await created.text()).toBe(true);
  const runId = ((await created.json()) as { run_id: string }).run_id;
  await page.setViewportSize({ width, height: width > 600 ? 860 : 844 });
  await page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  const output = page.getByRole("article", { name: "Requirements output, version 1" });
  await expect(output.getByRole("table", { name: "Core capabilities" })).toBeVisible({ timeout: 60_000 });
  // Settled: the output is drawn for review (its parts' comment buttons); before, it may be drawn again, and what was
  // measured is gone.
  await expect(output.getByRole("button", { name: /^Comment on CAP-\d+$/ }).first()).toBeVisible();
  return output;
}

for (const width of [1280, 390]) {
  test(`at ${width} px no word is broken mid-word, no column is cut off, and a row's comment box opens by the row on screen`, async ({ page }) => {
    const output = await openWaitingRun(page, width);
    const table = output.getByRole("table", { name: "Core capabilities" });
    expect(await brokenWords(output.locator("table td, table th"))).toEqual([]);

    // Every column is there: in view, or reached by scrolling the table's frame with its first column kept in place.
    const frame = output.getByRole("region", { name: "Core capabilities" });
    const firstCell = table.locator("tbody tr").first().locator("td").first();
    const before = (await firstCell.boundingBox())!;
    const lastHeader = table.locator("th").last();
    // Scrolled again until it holds: the conversation may draw the output once more as it arrives at what waits.
    await expect(async () => {
      await frame.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
      await expect(lastHeader).toBeInViewport({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    expect((await firstCell.boundingBox())!.x).toBeCloseTo(before.x, 0);
    await frame.evaluate((element) => element.scrollTo({ left: 0 }));

    // A comment on the last capability: its box opens by its row, inside the screen.
    const buttons = output.getByRole("button", { name: /^Comment on CAP-\d+$/ });
    const button = buttons.last();
    const name = (await button.getAttribute("aria-label"))!;
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const box = output.getByRole("textbox", { name });
    await expect(box).toBeFocused();
    const add = output.getByRole("button", { name: "Add comment" });
    const row = (await button.boundingBox())!;
    const added = (await add.boundingBox())!;
    expect(added.x).toBeGreaterThanOrEqual(0);
    expect(added.x + added.width).toBeLessThanOrEqual(width);
    const boxTop = (await box.boundingBox())!.y;
    if (width > 600) {
      // Beside the row: level with it, not at the top of the margin.
      expect(Math.abs(boxTop - row.y)).toBeLessThan(120);
    } else {
      // Under the row.
      expect(boxTop).toBeGreaterThan(row.y);
    }
    await expect(box).toBeInViewport();
  });
}

test("People's table keeps e-mail addresses whole at 390 px and its actions on screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const invited = await page.request.post("/trpc/accounts.invite", { data: { name: "Olga Operatorovna-Longname", email: `olga.operatorovna-longname.${Date.now()}@facilities.example.org`, role: "operator" } });
  expect(invited.ok(), await invited.text()).toBe(true);
  await page.goto("/app/people");
  const row = page.getByRole("row", { name: "Olga Operatorovna-Longname" });
  await expect(row).toBeVisible();
  expect(await brokenWords(page.getByRole("table").locator("td"))).toEqual([]);
  const action = row.getByRole("button", { name: /^(Disable|Send) / }).first();
  await action.scrollIntoViewIfNeeded();
  const place = (await action.boundingBox())!;
  expect(place.x + place.width).toBeLessThanOrEqual(390);
});
