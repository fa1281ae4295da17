/**
 * JSON step workflows in the app, in Chromium against the real server, offline (utils.echo and utils.delay only). A
 * definition is pasted with mistakes, which the server names at their JSON paths; fixed, it is registered and gets its
 * page with its steps and its JSON. A run is started from the form made of its inputs: a number that is not one is
 * refused beside its field, then the run's conversation shows the inputs, each step's tool, resolved params, result
 * and attempts, and the outputs, typed, once it completes (its change marker read while it runs, nothing once it has
 * completed); the graph view shows its steps. A second workflow reads a
 * field its first step never wrote: that step fails naming the template, the step behind it is skipped, an
 * independent branch completes, the run fails with its outputs' reasons, and Retry and Resume are offered.
 */
import { expect, test } from "@playwright/test";
import { bootstrapName } from "./auth";
import { snapshot, trpcReads } from "./helpers";

// Decisions are recorded as the caller: these specs act with the bootstrap token (e2e/auth.ts).
const reviewer = bootstrapName;
const name = "e2e-greeting";

const greeting = (tool: string, template: string) =>
  JSON.stringify(
    {
      id: name,
      name: "Greeting",
      version: "1.0.0",
      description: "Greets someone, waits a moment, and reports.",
      inputs: [
        { name: "who", type: "string" },
        { name: "times", type: "number" },
        { name: "loud", type: "boolean" },
        { name: "tags", type: "array", optional: true },
      ],
      steps: [
        { id: "greet", tool: "utils.echo", params: { text: `Hello, ${template}!`, times: "{{inputs.times}}", loud: "{{inputs.loud}}" } },
        { id: "pause", tool, params: { ms: 4000 } },
        { id: "report", tool: "utils.echo", params: { greeting: "{{greet.text}}", tags: "{{inputs.tags}}", waited: "{{pause.output.ms}}" } },
      ],
      outputs: { greeting: "{{report.greeting}}", times: "{{greet.output.times}}", waited_ms: "{{steps.pause.output.ms}}" },
    },
    null,
    2,
  );

const broken = {
  id: "e2e-broken-lookup",
  description: "Reads a field its lookup never wrote.",
  inputs: [{ name: "company", type: "string" }],
  steps: [
    { id: "lookup", tool: "utils.echo", params: { found: { name: "{{inputs.company}}" } } },
    { id: "use", tool: "utils.echo", params: { title: "{{lookup.output.found.title}}" } },
    { id: "report", tool: "utils.echo", params: { line: "{{use.title}}" } },
    { id: "side", tool: "utils.delay", depends_on: [], params: { ms: 10 } },
  ],
  outputs: { title: "{{use.title}}", company: "{{lookup.found.name}}" },
};

test("a step workflow is pasted, checked, registered, started from its form and reads as a conversation", async ({ page }, testInfo) => {
  await page.goto("/app/steps");
  await expect(page.getByRole("heading", { name: "Step workflows", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Step workflows", exact: true })).toHaveAttribute("aria-current", "page");
  await snapshot(page, testInfo, "01-step-workflows");

  // Pasted with an unknown tool and a template naming an undeclared input: every problem at its JSON path.
  await page.getByRole("link", { name: "New step workflow" }).click();
  await expect(page).toHaveURL(/\/app\/steps\/new$/);
  const editor = page.getByRole("textbox", { name: "Definition (JSON)" });
  await editor.fill('{ "id": "x", ');
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByRole("status").filter({ hasText: "This is not valid JSON" })).toBeVisible();
  await editor.fill(greeting("utils.sleep", "{{inputs.whom}}"));
  await page.getByRole("button", { name: "Check" }).click();
  const problems = page.getByRole("region", { name: "Problems (2)" });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole("listitem").filter({ hasText: "steps[0].params.text" })).toContainText('{{inputs.whom}}: no input "whom" is declared');
  await expect(problems.getByRole("listitem").filter({ hasText: "steps[1].tool" })).toContainText('unknown tool "utils.sleep"');
  await expect(page.getByText("2 problems, each at its JSON path. Nothing was stored.")).toBeVisible();
  await snapshot(page, testInfo, "02-problems-at-their-paths");

  // Registering refuses it the same way; fixed, it checks clean and is registered.
  await page.getByRole("button", { name: "Register workflow" }).click();
  await expect(page.getByRole("region", { name: "Problems (2)" })).toBeVisible();
  await expect(page).toHaveURL(/\/app\/steps\/new$/);
  await editor.fill(greeting("utils.delay", "{{ inputs.who }}"));
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByText("No problems: the definition can be registered.")).toBeVisible();
  await page.getByRole("button", { name: "Register workflow" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/steps/${name}$`));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("Greets someone, waits a moment, and reports.", { exact: true })).toBeVisible();
  const steps = page.getByRole("region", { name: "Steps" });
  await expect(steps.getByRole("row")).toHaveCount(4);
  // In the order written, each after the one before it.
  await expect(steps.getByRole("row").nth(2)).toContainText(/pause\s*utils\.delay\s*greet/);
  await expect(steps.getByRole("row").nth(3)).toContainText(/report\s*utils\.echo\s*pause/);
  await expect(page.getByLabel("Definition JSON, version 1 (read-only)")).toContainText('"tool": "utils.delay"');

  // The form made of its inputs: a number that is not one is refused beside its field, nothing is started.
  await page.getByRole("textbox", { name: "who" }).fill("Ada <b>Lovelace</b>");
  await page.getByRole("textbox", { name: "times" }).fill("twelve");
  await page.getByRole("checkbox", { name: "loud" }).check();
  await page.getByRole("textbox", { name: "tags" }).fill('{"not": "a list"}');
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("textbox", { name: "times" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText('"twelve" is not a number: write digits, such as 42 or 3.5.')).toBeVisible();
  await expect(page.getByText("Expected a JSON list ([...]), got an object.")).toBeVisible();
  await expect(page.getByText("2 inputs need fixing")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/steps/${name}$`));
  await snapshot(page, testInfo, "03-form-refuses-a-wrong-number");

  const reads = trpcReads(page);
  const runReads = /^(workflows\.changes|steps\.(conversation|run)|engine\.runs\.get)$/;
  await page.getByRole("textbox", { name: "times" }).fill("2");
  await page.getByRole("textbox", { name: "tags" }).fill('["vip", "new"]');
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/steps\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);

  // The conversation: the inputs, then each step's turn; the delay (4 s, long enough to be seen on a busy machine) is
  // seen at work, then everything completes.
  const inputs = page.getByRole("article", { name: "Inputs" });
  await expect(inputs).toContainText("Ada <b>Lovelace</b>");
  await expect(inputs).toContainText(`by ${reviewer}`);
  await expect(inputs.getByLabel("Inputs: tags")).toContainText('"vip"');
  const greet = page.getByRole("article", { name: "Step greet" });
  await expect(greet).toContainText("utils.echo");
  await expect(greet).toContainText("COMPLETED");
  await expect(greet).toContainText("1 attempt");
  // The params as resolved: the input in the text, the number and the boolean typed.
  await expect(greet.getByLabel("Params of greet")).toContainText('"text": "Hello, Ada <b>Lovelace</b>!"');
  await expect(greet.getByLabel("Params of greet")).toContainText('"times": 2');
  await expect(greet.getByLabel("Params of greet")).toContainText('"loud": true');
  // The result's text field read as text: the markup the analyst typed stays text.
  await expect(greet.locator(".step-text")).toHaveText("Hello, Ada <b>Lovelace</b>!");
  await expect(greet.locator("b")).toHaveCount(0);
  const pause = page.getByRole("article", { name: "Step pause" });
  await expect(pause.getByText("utils.delay is working")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toBeVisible();
  await snapshot(page, testInfo, "04-run-at-work");

  await expect(page.getByText(/^Run completed/)).toBeVisible();
  await expect(pause).toContainText("COMPLETED");
  await expect(pause.getByLabel("Result of pause as JSON")).toContainText('"ms": 4000');
  const report = page.getByRole("article", { name: "Step report" });
  await expect(report.getByLabel("Params of report")).toContainText('"waited": 4000');
  await expect(report.getByLabel("Params of report")).toContainText('"vip"');
  const outputs = page.getByRole("article", { name: "Outputs" });
  await expect(outputs).toContainText("Hello, Ada <b>Lovelace</b>!");
  await expect(outputs.getByRole("definition")).toHaveText(["Hello, Ada <b>Lovelace</b>!", "2", "4000"]);
  await expect(page.locator(".run-header")).toContainText("Completed");
  await expect(page.getByRole("button", { name: "Cancel run", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Resume" })).toHaveCount(0);
  await snapshot(page, testInfo, "05-run-completed-with-outputs");

  // While it ran, its change marker was read, and the conversation only when the marker moved; once it has completed,
  // after the marker's last read (which says so), nothing is read again.
  expect(reads.count(/^workflows\.changes$/)).toBeGreaterThanOrEqual(2);
  await page.waitForTimeout(2500);
  expect(await reads.during(4000, runReads)).toEqual([]);

  // The same run as a graph: a step run is an engine run under the same id.
  await page.getByRole("link", { name: "Flow graph" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/steps/runs/${runId}/graph$`));
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(page.getByRole("region", { name: "Nodes" }).getByRole("row", { name: /pause/ })).toContainText("Completed");
  await snapshot(page, testInfo, "06-run-graph");

  // Listed on the workflow's page and under the list.
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("region", { name: `Runs of ${name}` })).toContainText("who=Ada <b>Lovelace</b>");
  await page.getByRole("link", { name: "Step workflows", exact: true }).first().click();
  const row = page.getByRole("region", { name: "Step workflows" }).getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Greeting");
  await expect(row).toContainText("v1");
  await expect(row.getByRole("cell").nth(3)).toHaveText("3");
  await expect(page.getByRole("region", { name: "Recent step workflow runs" })).toContainText(name);
});

test("a step that reads a missing field fails by name, skips what depends on it, and its branch goes on", async ({ page }, testInfo) => {
  await page.goto("/app/steps/new");
  await page.getByRole("textbox", { name: "Definition (JSON)" }).fill(JSON.stringify(broken, null, 2));
  await page.getByRole("button", { name: "Register workflow" }).click();
  await expect(page).toHaveURL(/\/app\/steps\/e2e-broken-lookup$/);

  await page.getByRole("textbox", { name: "company" }).fill("ACME");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/app\/steps\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);

  await expect(page.getByText(/^Run failed/)).toBeVisible();
  await expect(page.locator(".run-header")).toContainText("Failed");
  await expect(page.getByRole("article", { name: "Step lookup" })).toContainText("COMPLETED");
  const use = page.getByRole("article", { name: "Step use" });
  await expect(use).toContainText("FAILED");
  await expect(use).toContainText('params.title: {{lookup.output.found.title}} cannot be resolved');
  await expect(use).toContainText("The params could not be resolved, so the tool did not run.");
  await expect(use.getByRole("button", { name: "Retry" })).toBeVisible();
  const skipped = page.getByRole("article", { name: "Step report skipped" });
  await expect(skipped).toContainText("SKIPPED");
  await expect(skipped).toContainText("use");
  await expect(page.getByRole("article", { name: "Step side" })).toContainText("COMPLETED");
  // The outputs: what the lookup wrote, and why the title is missing.
  const outputs = page.getByRole("article", { name: "Outputs" });
  await expect(outputs).toContainText("ACME");
  await expect(outputs.getByRole("definition").last()).toContainText("null");
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await snapshot(page, testInfo, "07-failed-and-skipped-steps");

  // Retry runs the step again (it fails again, by name); the earlier failure no longer offers Retry.
  await use.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(`use retried by ${reviewer}`)).toBeVisible();
  await expect(page.getByRole("article", { name: "Step use" })).toHaveCount(2);
  await expect(page.getByRole("article", { name: "Step use" }).first().getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Step use" }).last().getByRole("button", { name: "Retry" })).toBeVisible();
  await snapshot(page, testInfo, "08-retried");

  await page.getByRole("link", { name: "Flow graph" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/steps/runs/${runId}/graph$`));
  await expect(page.locator(".react-flow__node")).toHaveCount(4);
  const nodes = page.getByRole("region", { name: "Nodes" });
  await expect(nodes.getByRole("row", { name: /\buse\b/ })).toContainText("Failed");
  await expect(nodes.getByRole("row", { name: /\bside\b/ })).toContainText("Completed");
  await snapshot(page, testInfo, "09-failed-run-graph");
});
