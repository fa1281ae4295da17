/**
 * The README's quick start, followed word for word by a newcomer, in Chromium: a server on a fresh database of its
 * own (as `npm start` on a fresh clone: nobody has an account yet); "open http://localhost:3000" (the root address):
 * the app asks to create the first account, an operator; then "submit a brief and review each agent's output" as that
 * same account, alone (on a desktop, where the brief box is the widest thing in its form): with the install's default policy (self-approval allowed) every output is approved by the
 * brief's own submitter, and the bundle is downloaded with the account's session.
 */
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { snapshot, submitBrief } from "./helpers";
import { type OwnServer, startOwnServer } from "./ownServer";

const newcomer = { name: "Nora Newcomer", email: "nora@example.com", password: "nora-correct-horse" };
const brief = "A tool library for a neighbourhood: members borrow drills, ladders and saws, return them within a week, and volunteers check the tools.";

let server: OwnServer | undefined;
let baseURL = "";

// The app was built by the suite's own server (playwright.config.ts); this one serves the same build on a fresh database.
test.beforeAll(async () => {
  server = await startOwnServer();
  baseURL = server.baseURL;
});

test.afterAll(async () => {
  await server?.stop();
});

test("the README's quick start: the first account, made in the app, submits a brief, approves every output itself and downloads the bundle", async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  // A newcomer's browser: no bootstrap token, only what the app gives it.
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: {} });
  const page = await context.newPage();

  // "Open http://localhost:3000: on first start the app asks you to create the first account, which is an operator."
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Create the first account" })).toBeVisible();
  await page.getByLabel("Name").fill(newcomer.name);
  await page.getByLabel("Email").fill(newcomer.email);
  await page.getByLabel("Password", { exact: true }).fill(newcomer.password);
  await page.getByLabel("Password again").fill(newcomer.password);
  await page.getByRole("button", { name: "Create the account" }).click();
  await expect(page.getByRole("button", { name: new RegExp(`^${newcomer.name}`) })).toContainText("operator");

  // "Then submit a brief": nothing waits for a new operator, so she lands on the new brief.
  await expect(page).toHaveURL(/\/app$/);
  // On a desktop the brief box is the widest thing in the form: the guidance sits under it without narrowing it.
  const briefBox = await page.getByRole("textbox", { name: "Brief" }).boundingBox();
  const widths = await page.locator("form.brief-composer").locator("input, textarea, select, aside").evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().width));
  expect(briefBox!.width).toBeGreaterThanOrEqual(Math.max(...widths) - 1);
  await page.getByRole("textbox", { name: "Domain" }).fill("tool-library");
  await page.getByRole("textbox", { name: "Brief" }).fill(brief);
  await submitBrief(page);
  await snapshot(page, testInfo, "01-brief-submitted");

  // "... and review each agent's output": the same account approves each one, as the install's policy allows.
  const agents = ["Requirements", "Inception", "User stories", "Diagrams", "Pseudocode", "QA"];
  for (const agent of agents) {
    const composer = page.getByRole("region", { name: `Review ${agent}` });
    await expect(composer).toBeVisible({ timeout: 90_000 });
    await composer.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("article", { name: `Approved ${agent}` })).toContainText(`by ${newcomer.name}`);
  }
  await expect(page.getByText("All agents approved · run completed")).toBeVisible({ timeout: 60_000 });
  await snapshot(page, testInfo, "02-completed");

  // The bundle, downloaded with the account's session: one Markdown document per output.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download bundle" }).click()]);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(Object.keys(files).filter((name) => name.endsWith(".md")).length).toBeGreaterThanOrEqual(agents.length);
  await context.close();
});
