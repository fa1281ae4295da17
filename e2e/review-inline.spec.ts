/**
 * Inline review through the real server and the built-in agents, in Chromium, as a reviewer signed in with her own
 * account (invited by the bootstrap operator, who starts the run): she comments on a capability and on a user story,
 * requests changes with no other feedback, reads what each revision changed, resolves her comments, fixes a typo by
 * editing the output and approves her edited version, which the export holds. From the keyboard, every part's comment
 * button is reached in reading order; on a phone's width nothing scrolls sideways. (Named to run after people.spec.ts,
 * which needs a server with no account yet: this spec invites people.) A Stitch review gate and a YAML approval are
 * reviewed the same way: comments on parts and on selected text, and a YAML approval's edit read by the step after it.
 */
import { type APIRequestContext, type Locator, type Page, expect, test } from "@playwright/test";
import { echoWorker, startWorkerServer, type WorkerServer } from "../server/testing/workerServer";
import { snapshot } from "./helpers";

let worker: WorkerServer;
test.beforeAll(async () => {
  worker = await startWorkerServer(echoWorker(() => ({ summary: "Members reserve tools for a weekend.", steps: ["Pick a tool", "Pick a weekend"] })));
});
test.afterAll(async () => worker.close());

const brief =
  "A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly, and operations staff handle disputes.";

/** A procedure of the app's tRPC API (people are invited there, not over REST). */
async function trpc<T>(request: APIRequestContext, procedure: string, input: unknown): Promise<T> {
  const answer = await request.post(`/trpc/${procedure}`, { data: input });
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { result: { data: T } }).result.data;
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** The accessible names of the comment buttons reached by pressing Tab from `start` until focus leaves `region`. */
async function tabThrough(page: Page, start: Locator, region: Locator): Promise<string[]> {
  await start.focus();
  const reached: string[] = [];
  for (let i = 0; i < 400; i += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return { label: element?.getAttribute("aria-label") ?? "", marked: element?.closest("[data-e2e-region]") != null };
    });
    if (!focused.marked) break;
    if (focused.label.startsWith("Comment on ")) reached.push(focused.label);
  }
  await region.evaluate((element) => element.removeAttribute("data-e2e-region"));
  return reached;
}

test("a reviewer comments on parts, requests changes, reads each revision's diff, edits and approves her version", async ({ browser, request }, testInfo) => {
  const stamp = Date.now();
  const password = "a long password for inline review";
  const rita = await trpc<{ invitationPath: string }>(request, "accounts.invite", { name: "Rita Ramos", email: `rita.inline.${stamp}@example.com`, role: "reviewer" });
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, extraHTTPHeaders: {} });
  const page = await context.newPage();
  await trpc(context.request, "auth.acceptInvitation", { token: rita.invitationPath.split("/").pop(), password });

  // The bootstrap operator starts the run: Rita reviews what someone else asked for.
  const started = await request.post("/runs", { data: { domain: "city-rides", brief } });
  expect(started.ok(), await started.text()).toBe(true);
  const runId = ((await started.json()) as { run_id: string }).run_id;

  await page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  const v1 = page.getByRole("article", { name: "Requirements output, version 1" });
  await expect(v1).toBeVisible({ timeout: 60_000 });
  const capButton = v1.getByRole("button", { name: "Comment on CAP-001" });
  await expect(capButton).toBeVisible();
  await expect(v1.getByRole("button", { name: "Comment on Problem statement" })).toBeVisible();

  // From the keyboard: every comment button of the output, in reading order.
  const names = await v1.locator("button[aria-label^='Comment on ']").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")!));
  expect(names.length).toBeGreaterThan(5);
  await v1.evaluate((element) => element.setAttribute("data-e2e-region", ""));
  expect(await tabThrough(page, v1.getByRole("button", { name: "Collapse Requirements version 1" }), v1)).toEqual(names);

  // A comment on CAP-001, stored at once.
  await capButton.click();
  const box = v1.getByRole("textbox", { name: "Comment on CAP-001" });
  await expect(box).toBeFocused();
  await box.fill("A trip must be paid by card before it starts.");
  await v1.getByRole("button", { name: "Add comment" }).click();
  const thread = v1.getByRole("article", { name: "Comment by Rita Ramos on Core capabilities › CAP-001" });
  await expect(thread).toContainText("A trip must be paid by card before it starts.");
  await snapshot(page, testInfo, "01-comment-on-cap-001");

  // Changes requested with no other feedback: the open comment goes.
  const composer = page.getByRole("region", { name: "Review Requirements" });
  await expect(composer).toContainText("1 open comment will be sent");
  await composer.getByRole("button", { name: "Request changes" }).click();

  const v2 = page.getByRole("article", { name: "Requirements output, version 2" });
  await expect(v2).toBeVisible({ timeout: 60_000 });
  const diff = v2.getByRole("region", { name: "What changed since v1" });
  await expect(diff).toBeVisible();
  // The agent changed exactly the commented capability, nothing else.
  const changes = diff.getByRole("list", { name: "Changes from v1 to v2" }).getByRole("listitem");
  await expect(changes).toHaveCount(1);
  await expect(changes.first()).toContainText("CAP-001");
  await expect(changes.first().locator("ins")).toContainText("paid by card");
  await snapshot(page, testInfo, "02-diff-of-v2");

  // Her thread is on v2 too, sent with v1; she resolves it.
  const onV2 = v2.getByRole("article", { name: /^Comment by Rita Ramos on / }).first();
  await expect(onV2).toContainText("Sent with v1");
  await onV2.getByRole("button", { name: /^Resolve / }).click();
  await expect(onV2).toContainText("Resolved by Rita Ramos");
  await expect(composer).not.toContainText("open comment will be sent");

  // She fixes a word of the problem statement herself and saves it as version 3.
  await v2.getByRole("button", { name: "Edit v2" }).click();
  const editor = v2.getByRole("region", { name: "Edit version 2" });
  // As JSON, a required field taken out: the artifact type's schema says so as she types, and Save stays off.
  await editor.getByRole("button", { name: "Edit as JSON" }).click();
  const jsonBox = editor.getByRole("textbox", { name: "Output as JSON" });
  const asJson = await jsonBox.inputValue();
  const { assumptions: _dropped, ...withoutAssumptions } = JSON.parse(asJson) as Record<string, unknown>;
  await jsonBox.fill(JSON.stringify(withoutAssumptions, null, 2));
  await expect(editor.getByRole("status")).toContainText("assumptions:");
  await expect(editor.getByRole("button", { name: "Save as v3" })).toBeDisabled();
  await jsonBox.fill(asJson);
  await editor.getByRole("button", { name: "Edit field by field" }).click();
  const statement = editor.getByRole("textbox", { name: "Problem statement refined" });
  const before = await statement.inputValue();
  expect(before).toContain("mid-sized city");
  await statement.fill(before.replace("mid-sized city", "medium-sized city"));
  await snapshot(page, testInfo, "03-editing-v2");
  await editor.getByRole("button", { name: "Save as v3" }).click();
  const v3 = page.getByRole("article", { name: "Requirements output, version 3" });
  await expect(v3).toContainText("Edited by Rita Ramos");
  await expect(v3).toContainText("medium-sized city");
  const editDiff = v3.getByRole("region", { name: "What changed since v2" });
  await expect(editDiff.getByRole("list", { name: "Changes from v2 to v3" }).getByRole("listitem")).toHaveCount(1);
  await expect(editDiff.locator("ins")).toHaveText("medium");
  await expect(editDiff.locator("del")).toHaveText("mid");

  // Approve approves the edited version; the export holds it.
  await expect(composer.getByText("v3")).toBeVisible();
  await composer.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("article", { name: "Approved Requirements" })).toContainText("by Rita Ramos");
  const exported = (await (await request.get(`/runs/${encodeURIComponent(runId)}/artifacts/export`)).json()) as { artifacts: { artifact_type: string; version: number; artifact: { problem_statement_refined: string } }[] };
  const requirements = exported.artifacts.find((a) => a.artifact_type === "requirements")!;
  expect(requirements.version).toBe(3);
  expect(requirements.artifact.problem_statement_refined).toContain("medium-sized city");

  // Inception as it is; then a comment on a user story, on a phone's width.
  await page.getByRole("region", { name: "Review Inception" }).getByRole("button", { name: "Approve" }).click({ timeout: 60_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  const stories = page.getByRole("article", { name: "User stories output, version 1" });
  await expect(stories).toBeVisible({ timeout: 60_000 });
  await stories.getByRole("button", { name: "Comment on US-001" }).click();
  await stories.getByRole("textbox", { name: "Comment on US-001" }).fill("Add a criterion that the fare is shown before booking.");
  await stories.getByRole("button", { name: "Add comment" }).click();
  const storyThread = stories.getByRole("article", { name: /^Comment by Rita Ramos on Epics › .* › US-001$/ });
  await expect(storyThread).toBeVisible();
  await expectNoSidewaysScroll(page);
  await storyThread.locator("xpath=ancestor::li[contains(@class,'story')]").screenshot({ path: testInfo.outputPath("04-phone-comment-on-us-001.png") });

  const storiesComposer = page.getByRole("region", { name: "Review User stories" });
  await expect(storiesComposer).toContainText("1 open comment will be sent");
  await storiesComposer.getByRole("button", { name: "Request changes" }).click();
  const stories2 = page.getByRole("article", { name: "User stories output, version 2" });
  await expect(stories2).toBeVisible({ timeout: 60_000 });
  const storiesDiff = stories2.getByRole("region", { name: "What changed since v1" });
  const storyChanges = storiesDiff.getByRole("list", { name: "Changes from v1 to v2" }).getByRole("listitem");
  await expect(storyChanges).toHaveCount(1);
  await expect(storyChanges.first()).toContainText("US-001");
  await expectNoSidewaysScroll(page);
  await storiesDiff.screenshot({ path: testInfo.outputPath("05-phone-diff-of-user-stories.png") });
  const storyThread2 = stories2.getByRole("article", { name: /^Comment by Rita Ramos on Epics › .* › US-001$/ });
  await storyThread2.getByRole("button", { name: /^Resolve / }).click();
  await expect(storyThread2).toContainText("Resolved by Rita Ramos");

  await context.close();
});

test("a Stitch flow's review gate: comments on a field and on selected text of the output under review go with the request for changes", async ({ page, request }, testInfo) => {
  const created = await request.post("/api/stitch/flows", {
    data: {
      name: `Reserve tools ${Date.now()}`,
      graph: {
        nodes: [
          { id: "draft", type: "Worker", position: { x: 0, y: 0 }, data: { label: "Draft", webhookUrl: `${worker.url}/draft` } },
          { id: "check", type: "UX", position: { x: 260, y: 0 }, data: { label: "Check", gate: "review" } },
        ],
        edges: [{ id: "e1", source: "draft", target: "check" }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const flowId = ((await created.json()) as { id: string }).id;
  const started = await request.post(`/api/stitch/flows/${flowId}/runs`, { data: { input: { library: "north" } } });
  const run = (await started.json()) as { id: string };

  await page.goto(`/app/flows/runs/${run.id}`);
  const gate = page.getByRole("article", { name: "Check asks for a review" });
  await expect(gate.getByRole("button", { name: "Comment on Summary" })).toBeVisible();
  await gate.getByRole("button", { name: "Comment on Summary" }).click();
  await gate.getByRole("textbox", { name: "Comment on Summary" }).fill("Say how long a weekend lasts.");
  await gate.getByRole("button", { name: "Add comment" }).click();
  await expect(gate.getByRole("article", { name: /^Comment by .* on Summary$/ })).toContainText("Say how long a weekend lasts.");

  // Text selected in the output becomes a comment's quote.
  await gate.locator("pre code").evaluate((code) => {
    const text = code.firstChild!;
    const at = text.textContent!.indexOf("Pick a weekend");
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + "Pick a weekend".length);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
  });
  await gate.getByRole("button", { name: "Comment on selection" }).click();
  await gate.getByRole("textbox", { name: /^Comment on / }).fill("Which weekend, this one or the next?");
  await gate.getByRole("button", { name: "Add comment" }).click();
  await expect(gate.getByRole("article", { name: /^Comment by .* on Steps › item 2$/ })).toContainText("Pick a weekend");
  await snapshot(page, testInfo, "06-flow-gate-comments");

  const composer = page.getByRole("region", { name: "Review Check" });
  await expect(composer).toContainText("2 open comments will be sent");
  // A flow's review gate still asks for feedback words besides the comments (the runs route requires them).
  await composer.getByRole("textbox", { name: "Feedback" }).fill("Answer the two comments.");
  await composer.getByRole("button", { name: "Request changes" }).click();
  await expect(page.getByRole("article", { name: "Requested changes to Check" })).toBeVisible();
  const again = page.getByRole("article", { name: "Check asks for a review" }).last();
  await expect(again.getByRole("article", { name: /^Comment by .* on Summary$/ })).toContainText("Sent with v1");
});

test("a YAML approval: a reviewer comments on a line of the output before it, edits it, and approves her version, which the next step reads", async ({ page, request }, testInfo) => {
  const name = `court-rules-${Date.now()}`;
  const yaml = [
    `name: ${name}`, "description: drafts the rules, asks a person, publishes them", "nodes:",
    "  - id: draft", "    prompt: Write the court rules for $ARGUMENTS",
    "  - id: check", "    depends_on: [draft]", "    approval:", "      message: Publish these rules?",
    "  - id: publish", "    depends_on: [check]", '    prompt: "Publish: $draft.output"', "",
  ].join("\n");
  const registered = await request.post("/api/workflows", { data: yaml, headers: { "content-type": "application/yaml" } });
  expect(registered.ok(), await registered.text()).toBe(true);
  const started = await request.post(`/api/workflows/${name}/runs`, { data: { message: "the club's courts" } });
  expect(started.ok(), await started.text()).toBe(true);
  const runId = ((await started.json()) as { id: string }).id;

  await page.goto(`/app/workflows/runs/${runId}`);
  const wait = page.getByRole("article", { name: "check asks for approval" });
  // The offline responder's draft echoes the prompt; its fourth line quotes it.
  const lineButton = wait.getByRole("button", { name: "Comment on Line 4" });
  await expect(lineButton).toBeVisible({ timeout: 60_000 });
  await lineButton.click();
  await wait.getByRole("textbox", { name: "Comment on Line 4" }).fill("Say which courts, and until when they are open.");
  await wait.getByRole("button", { name: "Add comment" }).click();
  await expect(wait.getByRole("article", { name: /^Comment by .* on Line 4$/ })).toContainText("until when they are open");

  // She writes the rules herself: version 2, hers, with what changed.
  await wait.getByRole("button", { name: "Edit v1" }).click();
  const editor = wait.getByRole("region", { name: "Edit version 1" });
  await editor.getByRole("textbox", { name: "Edited text" }).fill("Courts 1 to 4 open at 8 and close at 22.\nBook a court for two hours at most.");
  await editor.getByRole("button", { name: "Save as v2" }).click();
  await expect(wait.getByRole("button", { name: "Edit v2" })).toBeVisible();
  await expect(wait.getByRole("region", { name: "What changed since v1" })).toBeVisible();
  await snapshot(page, testInfo, "07-yaml-approval-edited");

  const composer = page.getByRole("region", { name: "Review check" });
  await composer.getByRole("textbox", { name: "Feedback" }).fill("Rewritten as the club's rules.");
  await composer.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("article", { name: "Approved check with the reviewer's edits" })).toContainText("Rewritten as the club's rules.");
  // What it passed on stays readable: her version, with what she changed.
  const passed = page.getByRole("article", { name: "The version check approved" });
  await expect(passed.getByRole("region", { name: "What changed since v1" })).toBeVisible();
  await expect(passed).toContainText("Book a court for two hours at most.");
  await snapshot(page, testInfo, "08-yaml-approved-version");

  // The step after the approval read her version of the draft.
  await expect
    .poll(async () => ((await (await request.get(`/api/workflows/runs/${runId}`)).json()) as { nodes: { publish?: { output: string | null } } }).nodes.publish?.output ?? "", { timeout: 60_000 })
    .toContain("> Publish: Courts 1 to 4 open at 8 and close at 22.");
});
