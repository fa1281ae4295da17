/**
 * The reviewer's journey through the real server and the built-in agents, in Chromium, as the bootstrap operator
 * token: submit a brief, watch the requirements output appear, reject it with feedback and see version 2 with its
 * changes, approve through all six agents (each decision recorded under the caller's name), then download the bundle
 * and the export JSON and check their files.
 */
import { expect, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { bootstrapName } from "./auth";
import { snapshot, submitBrief } from "./helpers";

interface Agent {
  slug: string;
  name: string;
  artifact_type: string;
}

const brief =
  "A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly, and operations staff handle disputes.";
const feedback = "Add a capability to export trip reports as PDF.";
// Decisions are recorded as the caller: these specs act with the bootstrap token (e2e/auth.ts).
const reviewer = bootstrapName;

test("an analyst's brief goes through six reviewed agents to a downloadable bundle", async ({ page, request }, testInfo) => {
  const agents = (await (await request.get("/agents")).json()) as Agent[];
  expect(agents.map((a) => a.slug)).toEqual(["requirements", "inception", "agile", "diagramacion", "pseudocodigo", "qa"]);
  const conversationPolls: string[] = [];
  page.on("request", (r) => r.url().includes("pipeline.conversation") && conversationPolls.push(r.url()));

  await page.goto("/app");
  await expect(page.getByRole("navigation", { name: "Runs" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
  // Who is signed in, in the top bar: decisions are recorded as them.
  await expect(page.getByRole("button", { name: new RegExp(reviewer) })).toContainText("operator");
  await snapshot(page, testInfo, "01-new-brief");

  // The brief.
  await page.getByRole("textbox", { name: "Domain" }).fill("mobility");
  await page.getByRole("textbox", { name: "Brief" }).fill(brief);
  await submitBrief(page);
  await expect(page).toHaveURL(/\/app\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await expect(page.getByRole("article", { name: "Brief" })).toContainText(brief);
  const runs = page.getByRole("navigation", { name: "Runs" });
  await expect(runs.getByRole("link", { name: /mobility/ })).toBeVisible();

  // The requirements output, then the composer under it.
  const [requirements] = agents;
  const v1 = page.getByRole("article", { name: `${requirements!.name} output, version 1` });
  await expect(v1).toBeVisible();
  await expect(v1.getByRole("heading", { name: "Problem statement" })).toBeVisible();
  await expect(v1.getByRole("table", { name: "Core capabilities" })).toBeVisible();
  await expect(page.getByRole("region", { name: `Review ${requirements!.name}` })).toBeVisible();
  await expect(runs.getByRole("link", { name: /mobility/ })).toContainText("Review");
  await snapshot(page, testInfo, "02-requirements-v1");

  // Rejected with feedback: the rejection turn, then version 2 with what changed.
  await page.getByRole("textbox", { name: "Feedback" }).fill(feedback);
  await page.getByRole("button", { name: "Request changes" }).click();
  const rejection = page.getByRole("article", { name: `Requested changes to ${requirements!.name}` });
  await expect(rejection).toContainText(feedback);
  await expect(rejection).toContainText(`by ${reviewer}`);
  const v2 = page.getByRole("article", { name: `${requirements!.name} output, version 2` });
  await expect(v2).toBeVisible();
  const changes = v2.getByRole("region", { name: "What changed in version 2" });
  await expect(changes).toBeVisible();
  await expect(changes).toContainText(/export trip reports as PDF/i);
  await expect(v2.getByRole("table", { name: "Core capabilities" })).toContainText(/export trip reports as PDF/i);
  await expect(v1).toContainText("Superseded");
  await snapshot(page, testInfo, "03-requirements-v2");

  // Approve through all six agents.
  for (const [index, agent] of agents.entries()) {
    const output = page.getByRole("article", { name: new RegExp(`^${agent.name} output, version \\d+$`) }).last();
    await expect(output).toBeVisible({ timeout: 60_000 });
    const composer = page.getByRole("region", { name: `Review ${agent.name}` });
    await expect(composer).toBeVisible();
    if (agent.slug === "diagramacion") {
      // The sequence diagram is drawn by Mermaid, not shown as source.
      await expect(output.getByRole("img", { name: "Sequence diagram" }).locator("svg")).toBeVisible();
      await expect(output.getByRole("img", { name: "Entity-relationship diagram" }).locator("svg")).toBeVisible();
    }
    if (index > 0) await snapshot(page, testInfo, `${String(index + 3).padStart(2, "0")}-${agent.slug}`);
    await composer.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("article", { name: `Approved ${agent.name}` })).toContainText(`by ${reviewer}`);
  }

  // Completed: the export at the end of the conversation.
  await expect(page.getByText("All agents approved · run completed")).toBeVisible({ timeout: 60_000 });
  const bundleLink = page.getByRole("link", { name: "Download bundle" });
  await expect(bundleLink).toBeVisible();
  await expect(page.getByRole("region", { name: /Review / })).toHaveCount(0);
  await expect(runs.getByRole("link", { name: /mobility/ })).toContainText("Completed");
  await snapshot(page, testInfo, "09-completed");

  // Polling stops once the run is COMPLETED.
  const pollsAtCompletion = conversationPolls.length;
  await page.waitForTimeout(4000);
  expect(conversationPolls.length).toBe(pollsAtCompletion);

  // The bundle: the brief, then one file per step numbered by its place in the pipeline, holding the approved versions. A person's
  // browser downloads it with their session cookie (people.spec.ts clicks a download); Chromium does not add this
  // spec's bootstrap token to a download's request, so the file is fetched at the link's address with it.
  const download = async (name: string) => {
    const link = page.getByRole("link", { name });
    await expect(link).toHaveAttribute("download");
    const response = await request.get((await link.getAttribute("href"))!);
    expect(response.ok(), await response.text()).toBe(true);
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename=/);
    return response.body();
  };
  const files = unzipSync(new Uint8Array(await download("Download bundle")));
  const names = Object.keys(files);
  expect(names.slice(0, 7)).toEqual(["00-brief.md", "01-requirements.md", "02-inception.md", "03-user-stories.md", "04-diagrams.md", "05-pseudocode.md", "06-test-cases.md"]);
  expect(names).toEqual(expect.arrayContaining(["report.html", "backlog/jira.csv", "schema.sql", "export.json", "manifest.json"]));
  expect(strFromU8(files["01-requirements.md"]!)).toMatch(/export trip reports as PDF/i);

  // The export JSON: the latest version of each of the six artifacts.
  const payload = JSON.parse((await download("Download JSON")).toString("utf8")) as { run_id: string; artifacts: { artifact_type: string; version: number }[] };
  expect(payload.run_id).toBe(runId);
  expect(payload.artifacts.map((a) => a.artifact_type).sort()).toEqual(agents.map((a) => a.artifact_type).sort());
  expect(payload.artifacts.find((a) => a.artifact_type === "requirements")!.version).toBe(2);

  // The same run as a flow graph.
  await page.getByRole("link", { name: "Flow graph" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/runs/${runId}/graph$`));
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Nodes" })).toBeVisible();
  await snapshot(page, testInfo, "10-flow-graph");

  // A phone-width view of the conversation.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: "Conversation" }).click();
  await expect(page.getByRole("link", { name: "Download bundle" })).toBeVisible();
  await snapshot(page, testInfo, "11-phone-conversation");
  await page.getByRole("button", { name: "Show runs" }).click();
  await expect(page.getByRole("navigation", { name: "Runs" })).toBeVisible();
  await expect(page.locator("#sidebar")).toHaveCSS("transform", "none");
  await page.screenshot({ path: testInfo.outputPath("12-phone-runs.png") });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("navigation", { name: "Runs" })).toBeHidden();

  // The same conversation for someone whose system asks for a dark theme.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: "dark" });
  await snapshot(page, testInfo, "13-dark-conversation");
});
