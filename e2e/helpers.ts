import type { Page, TestInfo } from "@playwright/test";

/** A full-page screenshot of the current stage, saved under the test's output folder. */
export async function snapshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  // From the top, so the sticky bar and sidebar sit where a person sees them; after fonts have loaded.
  await page.evaluate(async () => {
    window.scrollTo(0, 0);
    await document.fonts.ready;
  });
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
