import { type APIRequestContext, type Browser, type Page, type TestInfo, expect } from "@playwright/test";

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

/**
 * Sends the brief composer's brief: "Submit brief", and when the composer checks a thin brief first (it says what the
 * brief lacks), "Start anyway". Resolves once the run's conversation opens.
 */
export async function submitBrief(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Submit brief" }).click();
  await page.waitForFunction(
    () => /^\/app\/runs\/[^/]+$/.test(location.pathname) || [...document.querySelectorAll("button")].some((b) => b.textContent?.includes("Start anyway")),
    undefined,
    { timeout: 15_000 },
  );
  const anyway = page.getByRole("button", { name: "Start anyway" });
  if (await anyway.isVisible()) await anyway.click();
  await page.waitForURL(/\/app\/runs\/[^/]+$/);
}

/**
 * The app's tRPC reads from now on, by procedure (a batched request counts once for each it asks for): how a spec
 * checks what a page polls. `during` waits and answers the reads made meanwhile of the procedures `pattern` matches.
 */
export function trpcReads(page: Page) {
  const reads: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === "GET" && pathname.startsWith("/trpc/")) reads.push(...decodeURIComponent(pathname.slice("/trpc/".length)).split(","));
  });
  return {
    /** How many times the procedures `pattern` matches were read so far. */
    count: (pattern: RegExp) => reads.filter((procedure) => pattern.test(procedure)).length,
    async during(ms: number, pattern: RegExp): Promise<string[]> {
      const from = reads.length;
      await page.waitForTimeout(ms);
      return reads.slice(from).filter((procedure) => pattern.test(procedure));
    },
  };
}

let serial = 0;

export interface Person {
  name: string;
  page: Page;
}

/** Invites someone (as the bootstrap operator) and signs them in, in a browser context of their own. */
export async function person(browser: Browser, request: APIRequestContext, baseURL: string | undefined, name: string, role: "analyst" | "reviewer"): Promise<Person> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}.${++serial}@example.com`;
  const invited = await request.post("/trpc/accounts.invite", { data: { name, email, role } });
  expect(invited.ok()).toBe(true);
  const token = ((await invited.json()) as { result: { data: { invitationPath: string } } }).result.data.invitationPath.split("/").pop()!;
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: {} });
  expect((await context.request.post("/trpc/auth.acceptInvitation", { data: { token, password: `${name} correct horse` } })).ok()).toBe(true);
  const page = await context.newPage();
  await page.goto("/app");
  await expect(page.getByRole("button", { name: new RegExp(`^${name}`) })).toBeVisible();
  return { name, page };
}

