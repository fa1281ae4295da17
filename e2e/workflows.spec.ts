/**
 * A YAML workflow from the editor to a finished run, in Chromium against the real server (no LLM: AI nodes are
 * answered by the offline responder). The definition is first typed with a mistake, which the server's check marks
 * at its line; fixed and saved, it gets its page. A run is started with a message: one approval is approved with a
 * comment, the other rejected with feedback (its on_reject prompt revises, and it asks again), a node whose `when` is
 * false is skipped with its reason, and a command node naming a missing command file fails with its error, Retry and
 * Resume. While the run waits, only its change marker is read; polling stops once the run has failed, the run's graph shows its nodes, and an edit saves version 2. On a
 * run of version 2, rejecting the approval that has no on_reject cancels the run with the reason; Resume asks again,
 * and "Cancel run" stops it for good.
 */
import { expect, test } from "@playwright/test";
import { bootstrapName } from "./auth";
import { snapshot, trpcReads } from "./helpers";

// Decisions are recorded as the caller: these specs act with the bootstrap token (e2e/auth.ts).
const reviewer = bootstrapName;
const name = "e2e-release-notes";
const message = "version 2.1 of the booking app";

const definition = (legalDependsOn: string) => `name: ${name}
description: Drafts release notes, asks legal and style for sign-off, then publishes them.
tags: [e2e, release]
nodes:
  - id: draft
    prompt: Draft release notes for $ARGUMENTS
    output_type: release-notes
  - id: translate
    depends_on: [draft]
    when: "$draft.output == 'never'"
    prompt: Translate the notes into French
  - id: legal
    depends_on: [${legalDependsOn}]
    approval:
      message: "Legal sign-off for: $draft.output"
  - id: style
    depends_on: [draft]
    approval:
      message: Do the notes read well?
      on_reject:
        prompt: "Revise the notes: $REJECTION_REASON"
        max_attempts: 3
  - id: publish
    depends_on: [legal, style]
    command: no-such-command
`;

test("a workflow is written in the editor, registered, run, reviewed, and shows its skipped and failed nodes", async ({ page }, testInfo) => {
  const reads = trpcReads(page);
  /** What the run's page reads: its change marker, and what it reads again when the marker moves. */
  const runReads = /^(workflows\.(changes|conversation|run)|decisions\.activity|review\.\w+|engine\.runs\.get)$/;

  await page.goto("/app/workflows");
  await expect(page.getByRole("heading", { name: "Workflows", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Workflows", exact: true })).toHaveAttribute("aria-current", "page");
  await snapshot(page, testInfo, "01-workflows");

  // The editor, with a definition whose legal node depends on a node that does not exist.
  await page.getByRole("link", { name: "New workflow" }).click();
  await expect(page).toHaveURL(/\/app\/workflows\/new$/);
  const editor = page.getByRole("textbox", { name: "Workflow YAML" });
  await expect(editor).toBeVisible();
  const broken = definition("draftt");
  await editor.fill(broken);
  const lines = broken.split("\n");
  const line = lines.findIndex((text) => text.includes("[draftt]")) + 1;
  const column = lines[line - 1]!.indexOf("draftt") + 1;
  const problems = page.getByRole("region", { name: "Problems (1)" });
  await expect(problems).toContainText(`line ${line}, column ${column}: depends_on names unknown node "draftt"`);
  // The same problem at its line in the editor: underlined in the text, marked in the gutter.
  await expect(page.locator(".cm-line").nth(line - 1).locator(".cm-lintRange-error")).toHaveText("draftt");
  await expect(page.locator(".cm-gutter-lint .cm-gutterElement").filter({ has: page.locator(".cm-lint-marker-error") })).toHaveCount(1);
  // Its message reads $draft.output without depending on draft: a warning at its own line.
  await expect(page.getByRole("region", { name: "Warnings (1)" })).toContainText("does not depend on");
  await expect(page.getByRole("status").filter({ hasText: "1 problem and 1 warning" })).toBeVisible();
  await snapshot(page, testInfo, "02-editor-problem-at-its-line");

  // A problem in the list puts the cursor on its place.
  await problems.getByRole("button", { name: /depends_on names unknown node/ }).click();
  await expect(editor).toBeFocused();

  // Fixed, checked clean, saved: the workflow's page.
  await editor.fill(definition("draft"));
  await expect(page.getByText("No problems: the workflow can be saved.")).toBeVisible();
  await expect(page.locator(".cm-lintRange-error")).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Problems/ })).toHaveCount(0);
  await snapshot(page, testInfo, "03-editor-fixed");
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/workflows/${name}$`));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByRole("textbox", { name: /Workflow YAML, version 1/ })).toContainText("no-such-command");
  await expect(page.getByRole("list", { name: "Nodes" }).getByRole("listitem")).toHaveCount(5);

  // Listed with its description, version, node count and tags.
  await page.getByRole("link", { name: "Workflows", exact: true }).first().click();
  const row = page.getByRole("region", { name: "Workflows" }).getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Drafts release notes");
  await expect(row).toContainText("v1");
  await expect(row.getByRole("cell").nth(3)).toHaveText("5");
  await expect(row.getByRole("list", { name: "Tags" })).toContainText("release");
  await row.getByRole("link", { name }).click();

  // A run with a message.
  await page.getByRole("textbox", { name: "Message" }).fill(message);
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/workflows\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await expect(page.getByRole("article", { name: "Message" })).toContainText(message);
  const draft = page.getByRole("article", { name: "Output of draft" });
  await expect(draft).toContainText("offline responder");
  await expect(draft).toContainText("release-notes");
  await expect(draft).toContainText(`Draft release notes for ${message}`);
  await expect(page.getByText("draft (prompt) started")).toBeVisible();
  const legalReview = page.getByRole("region", { name: "Review legal" });
  const styleReview = page.getByRole("region", { name: "Review style" });
  await expect(legalReview).toBeVisible();
  await expect(styleReview).toBeVisible();
  await expect(page.getByRole("article", { name: "legal asks for approval" })).toContainText(`Legal sign-off for: [offline responder`);
  await expect(page.locator(".run-header")).toContainText("Waiting for a person");
  await snapshot(page, testInfo, "04-run-waiting-for-two-approvals");

  // While it waits for two people nothing moves: only its change marker is read (every 5 s while it waits for people
  // only), not the conversation, its decisions' activity nor the comments on its outputs.
  const whileWaiting = await reads.during(10_500, runReads);
  expect(whileWaiting.filter((procedure) => procedure === "workflows.changes").length).toBeGreaterThanOrEqual(1);
  expect(whileWaiting.filter((procedure) => procedure === "workflows.changes").length).toBeLessThanOrEqual(3);
  expect(whileWaiting.filter((procedure) => procedure !== "workflows.changes")).toEqual([]);

  // Legal approves with a comment.
  await legalReview.getByRole("textbox", { name: "Feedback" }).fill("Cleared by legal.");
  await legalReview.getByRole("button", { name: "Approve" }).click();
  const legalApproved = page.getByRole("article", { name: "Approved legal" });
  await expect(legalApproved).toContainText("Cleared by legal.");
  await expect(legalApproved).toContainText(`by ${reviewer}`);
  await expect(legalReview).toHaveCount(0);

  // Style requests changes: the rejection, the on_reject prompt's revision, and the approval asked again.
  await styleReview.getByRole("textbox", { name: "Feedback" }).fill("Shorter, please: one line per change.");
  await styleReview.getByRole("button", { name: "Request changes" }).click();
  const rejection = page.getByRole("article", { name: "Requested changes to style" });
  await expect(rejection).toContainText("Shorter, please: one line per change.");
  await expect(rejection).toContainText(`by ${reviewer}`);
  const revision = page.getByRole("article", { name: "Output of style" });
  await expect(revision).toContainText("Revised after the feedback");
  await expect(revision).toContainText("Revise the notes: Shorter, please: one line per change.");
  await expect(revision).toContainText("offline responder");
  await expect(page.getByText("style (approval) started a revision")).toBeVisible();
  await expect(page.getByRole("article", { name: "style asks for approval" })).toHaveCount(2);
  await expect(styleReview).toBeVisible();
  await expect(styleReview.getByRole("textbox", { name: "Feedback" })).toHaveValue("");
  await snapshot(page, testInfo, "05-rejected-revised-asked-again");

  // Approved now: publish runs, and fails on its missing command file.
  await styleReview.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("article", { name: "Approved style" })).toBeVisible();
  const failure = page.getByRole("article", { name: "publish failed" });
  await expect(failure).toContainText('command "no-such-command": no file');
  await expect(failure.getByRole("button", { name: "Retry" })).toBeVisible();
  await expect(page.getByText("Run failed")).toBeVisible();
  await expect(page.locator(".run-header")).toContainText("Failed");
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);

  // The skipped node, folded, with its reason.
  const skipped = page.locator("details.turn-skipped", { hasText: "translate (prompt) skipped" });
  await expect(skipped).not.toHaveAttribute("open");
  await skipped.locator("summary").click();
  await expect(skipped).toContainText("when: $draft.output == 'never' was false");
  await snapshot(page, testInfo, "06-skipped-and-failed");

  // Polling stops once the run has failed: after the marker's last read (which says the run is over), nothing is read again.
  await page.waitForTimeout(2500);
  expect(await reads.during(4000, runReads)).toEqual([]);

  // Retry fires the node again (it fails again), and so does Resume.
  await failure.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(`publish retried by ${reviewer}`)).toBeVisible();
  await expect(page.getByRole("article", { name: "publish failed" })).toHaveCount(2);
  await expect(page.getByRole("article", { name: "publish failed" }).first().getByRole("button", { name: "Retry" })).toHaveCount(0);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByText(`Run resumed by ${reviewer}`)).toBeVisible();
  await expect(page.getByRole("article", { name: "publish failed" })).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await snapshot(page, testInfo, "07-retried-and-resumed");

  // The same run as a graph.
  await page.getByRole("link", { name: "Flow graph" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/workflows/runs/${runId}/graph$`));
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  await expect(page.getByRole("region", { name: "Nodes" }).getByRole("row", { name: /publish/ })).toContainText("Failed");
  await snapshot(page, testInfo, "08-run-graph");

  // Edited on its page into version 2, which the next run uses.
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("region", { name: `Runs of ${name}` })).toContainText(message);
  await page.getByRole("button", { name: "Edit" }).click();
  const versionEditor = page.getByRole("textbox", { name: "Workflow YAML" });
  await versionEditor.fill(definition("draft").replace("then publishes them.", "then publishes them on the blog."));
  await expect(page.getByText("No problems: the workflow can be saved.")).toBeVisible();
  await page.getByRole("button", { name: "Save new version" }).click();
  // The new description shows in the page's header (and in the editor's text, hence the first).
  await expect(page.getByText("Drafts release notes, asks legal and style for sign-off, then publishes them on the blog.").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Start a run of v2" })).toBeVisible();
  await snapshot(page, testInfo, "09-workflow-v2");

  // A run of version 2: rejecting legal, which has no on_reject, cancels the run with the reason.
  await page.getByRole("textbox", { name: "Message" }).fill("version 2.2");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/workflows\/runs\/[^/]+$/);
  await expect(page.locator(".run-header")).toContainText("v2");
  const legalAgain = page.getByRole("region", { name: "Review legal" });
  await legalAgain.getByRole("textbox", { name: "Feedback" }).fill("The pricing line is not cleared.");
  // The button says what it does, and asks first: the dialog's own button confirms.
  await legalAgain.getByRole("button", { name: "Reject and cancel run" }).click();
  const confirm = legalAgain.getByRole("alertdialog", { name: "Reject and cancel this run?" });
  await expect(confirm.getByRole("button", { name: "Keep the run" })).toBeFocused();
  await confirm.getByRole("button", { name: "Reject and cancel run" }).click();
  const cancelled = page.getByRole("article", { name: "Run cancelled" });
  await expect(cancelled).toContainText("rejected at legal: The pricing line is not cleared.");
  await expect(page.locator(".run-header")).toContainText("Cancelled");
  await expect(page.getByRole("region", { name: "Review style" })).toHaveCount(0);
  await snapshot(page, testInfo, "10-rejection-cancelled-the-run");

  // Resume asks legal again; "Cancel run" then stops the run for good.
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByText(`Run resumed by ${reviewer}`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Review legal" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByRole("textbox", { name: "Reason" }).fill("Release postponed.");
  await page.getByRole("button", { name: "Cancel this run" }).click();
  await expect(page.getByRole("article", { name: "Run cancelled" }).last()).toContainText("Release postponed.");
  await expect(page.getByRole("article", { name: "Run cancelled" }).last()).toContainText(`by ${reviewer}`);
  await expect(page.getByRole("button", { name: "Resume" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Review / })).toHaveCount(0);
  await snapshot(page, testInfo, "11-cancelled");
});
