/**
 * A 390 px wide phone: every section one tap away in the menu (a button with aria-expanded, Escape closes it), no page
 * wider than the screen (tables scroll inside their frame), a diagram opened full screen to zoom and move, and
 * pseudocode wrapped inside its block. Acts as the bootstrap operator (e2e/auth.ts), so every page is open to it.
 */
import { type Page, expect, test } from "@playwright/test";
import { snapshot } from "./helpers";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The page is no wider than the screen: nothing scrolls the page sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  expect(widths.page, `${what} is ${widths.page} px wide on a ${widths.screen} px screen`).toBeLessThanOrEqual(widths.screen);
}

// "Reviews" carries the count of decisions waiting for this person ("Reviews3 waiting for you") once earlier specs left some.
const destinations: { name: string | RegExp; url: RegExp }[] = [
  { name: /^Reviews( ?\d+ waiting for you)?$/, url: /\/app\/reviews$/ },
  { name: "Briefs", url: /\/app$/ },
  { name: "Workflows", url: /\/app\/workflows$/ },
  { name: "Step workflows", url: /\/app\/steps$/ },
  { name: "Flows", url: /\/app\/flows$/ },
  { name: "Engine runs", url: /\/app\/engine$/ },
];

test("the sections are a menu on a phone, and no page is wider than the screen", async ({ page }, testInfo) => {
  await page.goto("/app");
  const menu = page.getByRole("button", { name: "Menu" });
  const sections = page.getByRole("navigation", { name: "Sections" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections.getByRole("link", { name: "Engine runs" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Stitch, home: where your work is" })).toBeVisible();

  // By keyboard: Enter opens it, Escape closes it and leaves focus on the button.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  for (const { name } of destinations) await expect(sections.getByRole("link", { name, exact: true })).toBeInViewport();
  await snapshot(page, testInfo, "01-menu-open");
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();

  // Every destination is reachable, and the menu closes on the way.
  for (const { name, url } of destinations) {
    await menu.click();
    await sections.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expectNoSidewaysScroll(page, String(name));
  }
  for (const path of ["/app/people", "/app/audit", "/app/tokens", "/app/subscriptions"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
  }
  // The people table scrolls inside its own frame, never the page.
  await page.goto("/app/people");
  const people = page.getByRole("region", { name: "Account list" });
  if (await people.count()) {
    const frame = await people.evaluate((region) => ({ overflow: getComputedStyle(region).overflowX, width: region.getBoundingClientRect().width }));
    expect(frame.overflow).toBe("auto");
    expect(frame.width).toBeLessThanOrEqual(390);
  }
  await snapshot(page, testInfo, "02-people");
});

test("a diagram opens full screen to zoom and move, and pseudocode wraps inside its block", async ({ page, request }, testInfo) => {
  // A run approved up to its pseudocode (the built-in agents answer at once).
  const created = await request.post("/runs", { data: { domain: `phone-${Date.now()}`, brief: "A tool library where neighbours lend drills, ladders and saws to each other." } });
  expect(created.ok()).toBe(true);
  const runId = ((await created.json()) as { run_id: string }).run_id;
  for (const slug of ["requirements", "inception", "agile", "diagramacion", "pseudocodigo"]) {
    await expect
      .poll(async () => ((await (await request.get(`/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 })
      .toBe(`WAITING_APPROVAL_${slug.toUpperCase()}`);
    if (slug !== "pseudocodigo") expect((await request.post(`/runs/${runId}/approve`, { data: {} })).ok()).toBe(true);
  }
  await page.goto(`/app/runs/${runId}`);
  // Approved, the diagrams read as one line; the step bar opens them.
  await page.getByRole("list", { name: "Pipeline progress" }).getByRole("link", { name: /^Diagrams/ }).click();
  const diagram = page.getByRole("article", { name: "Diagrams output, version 1" });
  await expect(diagram).toBeFocused();
  const open = diagram.getByRole("button", { name: /^Open full screen: Sequence diagram/ });
  await expect(open).toBeVisible();
  await open.click();
  const viewer = page.getByRole("dialog", { name: "Sequence diagram" });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Close" })).toBeFocused();
  await viewer.getByRole("button", { name: "Zoom in" }).click();
  await expect(viewer.getByText("125%")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(viewer.locator(".diagram-viewer-content")).toHaveAttribute("style", /translate\(40px, 0px\) scale\(1\.25\)/);
  await snapshot(page, testInfo, "03-diagram-full-screen");
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
  await expect(open).toBeFocused();

  const pseudocode = page.locator("pre.code-wrap").first();
  await expect(pseudocode).toBeVisible();
  const fits = await pseudocode.evaluate((pre) => pre.scrollWidth <= pre.clientWidth + 1);
  expect(fits).toBe(true);
  await expectNoSidewaysScroll(page, "the conversation");
  await snapshot(page, testInfo, "04-pseudocode");
});

test("the runs' drawer opened on a phone closes when the window is widened, and stays closed once narrow again", async ({ page }) => {
  await page.goto("/app");
  const drawer = page.getByRole("button", { name: "Show runs" });
  await drawer.click();
  await expect(drawer).toHaveAttribute("aria-expanded", "true");
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(drawer).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator(".scrim")).toBeHidden();
});
