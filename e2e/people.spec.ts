/**
 * People, roles and the audit trail, in Chromium against the real server, each person in a browser context of their
 * own and without the bootstrap token the other specs send: the first start asks for the first account, an operator;
 * the operator invites an analyst and a reviewer, who open their links and choose passwords. The analyst submits a
 * brief and finds no Approve, and the API refuses an approve forged from the analyst's page (with the session cookie
 * and its CSRF token) with 403. The reviewer requests changes, then approves each output; the conversation names
 * them, and the analyst downloads the export with their session. The analyst creates an API token, shown once,
 * which works until it is revoked, then signs out and back in. The operator reads the decisions and the refused
 * approve in the audit trail, filtered by the run and by the person.
 */
import { type Browser, type BrowserContext, type Page, expect, test } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { snapshot, submitBrief } from "./helpers";

// Nobody here is the bootstrap operator: every request carries only what a person's browser carries.
test.use({ extraHTTPHeaders: {} });

const operator = { name: "Olga Operator", email: "olga@example.com", password: "olga-correct-horse" };
const analyst = { name: "Anna Analyst", email: "anna@example.com", password: "anna-correct-horse" };
const reviewer = { name: "Rita Reviewer", email: "rita@example.com", password: "rita-correct-horse" };
const brief = "A clinic booking app: patients book and cancel appointments, doctors publish their hours, reception confirms walk-ins.";
const feedback = "Add a capability for reminders by text message the day before.";

interface Person {
  context: BrowserContext;
  page: Page;
}

async function newPerson(browser: Browser, baseURL: string | undefined): Promise<Person> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: {} });
  return { context, page: await context.newPage() };
}

/** The signed-in person's button in the top bar, which opens what their role may reach and "Sign out". */
const accountButton = (page: Page, name: string) => page.getByRole("button", { name: new RegExp(`^${name}`) });

async function openAccountPage(page: Page, name: string, link: "People" | "API tokens" | "Audit"): Promise<void> {
  await accountButton(page, name).click();
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: link }).click();
}

async function invite(page: Page, person: { name: string; email: string }, role: string): Promise<string> {
  const form = page.getByRole("region", { name: "Invite someone" });
  await form.getByLabel("Name").fill(person.name);
  await form.getByLabel("Email").fill(person.email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Invite" }).click();
  const link = page.getByRole("textbox", { name: `Invitation link for ${person.name}` });
  await expect(link).toHaveValue(/\/app\/invite\/inv_/);
  return link.inputValue();
}

async function acceptInvitation(person: Person, link: string, password: string): Promise<void> {
  await person.page.goto(link);
  await expect(person.page.getByRole("heading", { name: "Accept your invitation" })).toBeVisible();
  await person.page.getByLabel("Password", { exact: true }).fill(password);
  await person.page.getByLabel("Password again").fill(password);
}

test("the first account invites an analyst and a reviewer; each does what their role may, and the audit trail tells it", async ({ browser, playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;

  // First start: no account yet, so the first one is made here, an operator.
  const olga = await newPerson(browser, baseURL);
  await olga.page.goto("/app");
  await expect(olga.page.getByRole("heading", { name: "Create the first account" })).toBeVisible();
  await expect(olga.page.getByText("operator", { exact: true })).toBeVisible();
  await olga.page.getByLabel("Name").fill(operator.name);
  await olga.page.getByLabel("Email").fill(operator.email);
  await olga.page.getByLabel("Password", { exact: true }).fill(operator.password);
  await olga.page.getByLabel("Password again").fill(operator.password);
  await snapshot(olga.page, testInfo, "01-first-account");
  await olga.page.getByRole("button", { name: "Create the account" }).click();
  await expect(accountButton(olga.page, operator.name)).toContainText("operator");
  await expect(olga.page.getByRole("navigation", { name: "Runs" })).toBeVisible();

  // The operator invites an analyst and a reviewer: each link is shown once, as a full address.
  await openAccountPage(olga.page, operator.name, "People");
  await expect(olga.page.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  const analystLink = await invite(olga.page, analyst, "analyst");
  expect(analystLink.startsWith(`${baseURL}/app/invite/`)).toBe(true);
  await snapshot(olga.page, testInfo, "02-invitation-link");
  await olga.page.getByRole("button", { name: "Done" }).click();
  const reviewerLink = await invite(olga.page, reviewer, "reviewer");
  const accounts = olga.page.getByRole("region", { name: "Account list" });
  await expect(accounts.getByRole("row", { name: analyst.name })).toContainText("Invited");
  await expect(accounts.getByRole("row", { name: reviewer.name })).toContainText("Invited");

  // The analyst opens the link and chooses a password: signed in, as an analyst.
  const anna = await newPerson(browser, baseURL);
  await acceptInvitation(anna, analystLink, analyst.password);
  await snapshot(anna.page, testInfo, "03-accept-invitation");
  await anna.page.getByRole("button", { name: "Accept and sign in" }).click();
  await expect(accountButton(anna.page, analyst.name)).toContainText("analyst");
  await expect(anna.page).toHaveURL(/\/app$/);
  // An analyst's menu has API tokens, but neither People nor Audit.
  await accountButton(anna.page, analyst.name).click();
  const annaMenu = anna.page.getByRole("navigation", { name: "Account" });
  await expect(annaMenu.getByRole("link", { name: "API tokens" })).toBeVisible();
  await expect(annaMenu.getByRole("link", { name: "People" })).toHaveCount(0);
  await expect(annaMenu.getByRole("link", { name: "Audit" })).toHaveCount(0);
  await anna.page.keyboard.press("Escape");

  // The reviewer too.
  const rita = await newPerson(browser, baseURL);
  await acceptInvitation(rita, reviewerLink, reviewer.password);
  await rita.page.getByRole("button", { name: "Accept and sign in" }).click();
  await expect(accountButton(rita.page, reviewer.name)).toContainText("reviewer");
  await olga.page.reload();
  await expect(accounts.getByRole("row", { name: analyst.name })).toContainText("Active");
  await expect(accounts.getByRole("row", { name: reviewer.name })).toContainText("Active");
  await snapshot(olga.page, testInfo, "04-people");

  // The analyst submits a brief: the output waits for a reviewer, and the analyst may not approve it.
  await anna.page.getByRole("textbox", { name: "Domain" }).fill("clinic");
  await anna.page.getByRole("textbox", { name: "Brief" }).fill(brief);
  await submitBrief(anna.page);
  await expect(anna.page).toHaveURL(/\/app\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(anna.page.url()).pathname.split("/").pop()!);
  await expect(anna.page.getByRole("article", { name: "Requirements output, version 1" })).toBeVisible({ timeout: 60_000 });
  await expect(anna.page.getByRole("status", { name: "Waiting for a reviewer on Requirements" })).toBeVisible();
  await expect(anna.page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(anna.page.getByRole("button", { name: "Request changes" })).toHaveCount(0);
  // Her own run: she may withdraw it, and edit its brief while nothing is approved.
  await expect(anna.page.getByRole("button", { name: "Cancel run", exact: true })).toBeVisible();
  await expect(anna.page.getByRole("button", { name: "Edit brief" })).toBeVisible();
  await snapshot(anna.page, testInfo, "05-analyst-waits-for-a-reviewer");

  // An approve forged from the analyst's page, with the session cookie and its CSRF token: refused, naming the role.
  const session = (await (await anna.page.request.get("/api/auth/session")).json()) as { me: { role: string }; csrfToken: string };
  expect(session.me.role).toBe("analyst");
  const forged = await anna.page.request.post(`/runs/${runId}/approve`, { headers: { "x-csrf-token": session.csrfToken }, data: {} });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("reviewer");
  // Without the CSRF token the session changes nothing either.
  expect((await anna.page.request.post(`/runs/${runId}/approve`, { data: {} })).status()).toBe(403);

  // The reviewer requests changes, then approves the revision.
  await rita.page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  const composer = rita.page.getByRole("region", { name: "Review Requirements" });
  await expect(composer).toBeVisible({ timeout: 60_000 });
  await composer.getByRole("textbox", { name: "Feedback" }).fill(feedback);
  await composer.getByRole("button", { name: "Request changes" }).click();
  const rejection = rita.page.getByRole("article", { name: "Requested changes to Requirements" });
  await expect(rejection).toContainText(`by ${reviewer.name}`);
  await expect(rita.page.getByRole("article", { name: "Requirements output, version 2" })).toBeVisible({ timeout: 60_000 });
  await expect(composer).toBeVisible();
  await snapshot(rita.page, testInfo, "06-reviewer-requested-changes");
  await expect(rita.page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);
  // ... and approves each output after it, to the end of the run.
  const agents = (await (await rita.page.request.get("/agents")).json()) as { name: string }[];
  for (const agent of agents) {
    const review = rita.page.getByRole("region", { name: `Review ${agent.name}` });
    await expect(review).toBeVisible({ timeout: 60_000 });
    await review.getByRole("button", { name: "Approve" }).click();
    await expect(rita.page.getByRole("article", { name: `Approved ${agent.name}` })).toContainText(`by ${reviewer.name}`);
  }
  await expect(rita.page.getByText("All agents approved · run completed")).toBeVisible({ timeout: 60_000 });

  // The analyst's conversation names the reviewer on the decisions, and the analyst downloads the export.
  await expect(anna.page.getByRole("article", { name: "Requested changes to Requirements" })).toContainText(`by ${reviewer.name}`);
  await expect(anna.page.getByRole("article", { name: "Approved Requirements" })).toContainText(`by ${reviewer.name}`);
  const downloadJson = anna.page.getByRole("link", { name: "Download JSON" });
  await expect(downloadJson).toBeVisible({ timeout: 60_000 });
  await snapshot(anna.page, testInfo, "07-conversation-names-the-reviewer");
  const [exported] = await Promise.all([anna.page.waitForEvent("download"), downloadJson.click()]);
  const payload = JSON.parse(await readFile(await exported.path(), "utf8")) as { run_id: string };
  expect(payload.run_id).toBe(runId);

  // The analyst's API token: shown once, it acts as the analyst until it is revoked.
  await openAccountPage(anna.page, analyst.name, "API tokens");
  await anna.page.getByRole("region", { name: "Create a token" }).getByLabel("Name").fill("nightly export");
  await anna.page.getByRole("button", { name: "Create token" }).click();
  const tokenBox = anna.page.getByRole("textbox", { name: "API token nightly export" });
  await expect(tokenBox).toHaveValue(/^stk_/);
  const token = await tokenBox.inputValue();
  await expect(anna.page.getByText("It will not be shown again.")).toBeVisible();
  await snapshot(anna.page, testInfo, "08-token-shown-once");
  const script = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await script.get(`/runs/${runId}`)).status()).toBe(200);
  expect((await script.post(`/runs/${runId}/approve`, { data: {} })).status()).toBe(403);
  await anna.page.getByRole("button", { name: "Done" }).click();
  const tokenRow = anna.page.getByRole("region", { name: "API tokens" }).getByRole("row", { name: "nightly export" });
  await expect(tokenRow).toContainText(token.slice(0, 10));
  await tokenRow.getByRole("button", { name: "Revoke nightly export" }).click();
  await tokenRow.getByRole("button", { name: "Revoke nightly export for good" }).click();
  await expect(tokenRow).toContainText("Revoked");
  expect((await script.get(`/runs/${runId}`)).status()).toBe(401);
  await script.dispose();

  // The analyst signs out, is refused a wrong password, and signs back in.
  await accountButton(anna.page, analyst.name).click();
  await anna.page.getByRole("button", { name: "Sign out" }).click();
  await expect(anna.page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await anna.page.getByLabel("Email").fill(analyst.email);
  await anna.page.getByLabel("Password").fill("not-the-password");
  await anna.page.getByRole("button", { name: "Sign in" }).click();
  await expect(anna.page.getByRole("alert")).toContainText("invalid credentials");
  await snapshot(anna.page, testInfo, "09-sign-in-refused");
  await anna.page.getByLabel("Password").fill(analyst.password);
  await anna.page.getByRole("button", { name: "Sign in" }).click();
  await expect(accountButton(anna.page, analyst.name)).toBeVisible();

  // The operator reads the run's entries in the audit trail: both decisions, and the analyst's refused approve.
  await openAccountPage(olga.page, operator.name, "Audit");
  await expect(olga.page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  await olga.page.getByLabel("Run or target").fill(runId);
  await olga.page.getByRole("button", { name: "Filter" }).click();
  const entries = olga.page.getByRole("region", { name: "Audit entries" });
  // Accepted approvals (the app's and REST's share the action's name): the reviewer's, one per agent.
  const approved = entries.getByRole("row").filter({ hasText: "pipeline.approve" }).filter({ hasText: "Accepted" });
  await expect(approved).toHaveCount(agents.length);
  for (const row of await approved.all()) await expect(row).toContainText(reviewer.name);
  const rejected = entries.getByRole("row").filter({ hasText: "pipeline.reject" });
  await expect(rejected).toContainText(reviewer.name);
  await expect(rejected).toContainText("Accepted");
  const refused = entries.getByRole("row").filter({ hasText: "pipeline.approve" }).filter({ hasText: "this needs the reviewer role" });
  await expect(refused.first()).toContainText(analyst.name);
  await expect(refused.first()).toContainText("Refused · 403");
  // And the approve sent without the session's CSRF token.
  await expect(entries.getByRole("row").filter({ hasText: "x-csrf-token" }).first()).toContainText("Refused · 403");
  await snapshot(olga.page, testInfo, "10-audit-by-run");

  // Filtered by person: the analyst's refusals.
  await olga.page.getByLabel("Person").selectOption({ label: analyst.name });
  await olga.page.getByLabel("Outcome").selectOption("refused");
  await olga.page.getByRole("button", { name: "Filter" }).click();
  await expect(entries.getByRole("row").filter({ hasText: "pipeline.approve" }).first()).toContainText(analyst.name);
  await expect(entries.getByRole("row").filter({ hasText: reviewer.name })).toHaveCount(0);
  await snapshot(olga.page, testInfo, "11-audit-by-person");

  for (const person of [olga, anna, rita]) await person.context.close();
});
