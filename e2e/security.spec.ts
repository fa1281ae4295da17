/**
 * Agent output stays inert, and the app works under the Content-Security-Policy (server/http/securityHeaders.ts).
 * A diagram agent's output holds Mermaid labels with `<img src=x onerror=...>` and `<img src=http://example.invalid/...>`:
 * the conversation draws the diagrams with those labels as text, creates no such image, runs nothing and fetches
 * nothing. The conversation with its diagrams, the flow graph (React Flow), the workflow editor (CodeMirror) and the
 * API docs (Swagger UI) run with no Content-Security-Policy violation reported. No request leaves this machine: every
 * request to a host other than the server's loopback address is aborted before it is sent, and the test fails on it.
 */
import { type APIRequestContext, type BrowserContext, type Page, expect, test } from "@playwright/test";
import { snapshot } from "./helpers";

interface Agent {
  slug: string;
  name: string;
}
interface RunView {
  run_id: string;
  is_waiting_for_user: boolean;
  current_agent: { slug: string } | null;
}
interface Violation {
  page: string;
  directive: string;
  blocked: string;
  source: string;
}

const baitHost = "example.invalid";
const brief = "A library app: members borrow and return books, librarians track overdue loans and send reminders.";

/** What an agent might write: HTML in every kind of label the diagram agent's output is drawn from. */
const baitSequence = [
  "sequenceDiagram",
  `  participant M as <img src=http://${baitHost}/participant.png>`,
  "  participant L as Librarian",
  `  M->>L: <img src=x onerror="window.__agentScriptRan = 'sequence'"> borrow`,
  `  L-->>M: <img src=http://${baitHost}/message.png> ok`,
].join("\n");
const baitFlowchart = [
  "flowchart LR",
  `  A["<img src=http://${baitHost}/node.png>"] --> B["<img src=x onerror=window.__agentScriptRan='flowchart'>"]`,
  `  B -->|"<img src=http://${baitHost}/edge.png>"| C[Loan]`,
].join("\n");
const baitEr = [
  // A directive cannot turn HTML labels back on.
  `%%{init: {"htmlLabels": true, "flowchart": {"htmlLabels": true}, "securityLevel": "loose"}}%%`,
  "erDiagram",
  `  MEMBER ||--o{ LOAN : "<img src=http://${baitHost}/relation.png>"`,
  "  MEMBER {",
  `    string name "<img src=http://${baitHost}/attribute.png>"`,
  "  }",
].join("\n");

/**
 * Every request of the browser context is checked before it is sent: loopback goes through, anything else is
 * aborted and recorded. Each CSP violation any page reports is recorded too (the listener is installed before the
 * page's own scripts run, and outlives navigations).
 */
async function guard(context: BrowserContext, offLoopback: string[], violations: Violation[]): Promise<void> {
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "data:" || url.protocol === "blob:" || url.hostname === "127.0.0.1") return route.continue();
    offLoopback.push(url.href);
    return route.abort("blockedbyclient");
  });
  await context.exposeBinding("__reportCspViolation", ({ page }, violation: Omit<Violation, "page">) => {
    violations.push({ page: new URL(page.url()).pathname, ...violation });
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (v: object) => void }).__reportCspViolation;
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}` });
    });
  });
}

async function waitForAgent(request: APIRequestContext, runId: string, slug: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const run = (await (await request.get(`/runs/${runId}`)).json()) as RunView;
        return run.is_waiting_for_user && run.current_agent?.slug === slug;
      },
      { timeout: 60_000, message: `run ${runId} waiting on ${slug}` },
    )
    .toBe(true);
}

/**
 * Replaces the output under review with `artifact`, as an agent's callback would store it: the reviewer asks for
 * changes, and the artifact is stored at once, before the built-in agent answers (whose answer is then a duplicate).
 * Should the built-in agent answer first, the artifact is the duplicate, and the round is tried again. Its version.
 */
async function replaceOutput(request: APIRequestContext, runId: string, slug: string, artifact: object): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await waitForAgent(request, runId, slug);
    expect((await request.post(`/runs/${runId}/reject`, { data: { feedback: "Draw it again." } })).ok()).toBe(true);
    const stored = await request.post(`/runs/${runId}/artifacts`, { data: { artifact_type: slug, content: { artifact, justification: "HTML in the labels." } } });
    expect(stored.ok()).toBe(true);
    const result = (await stored.json()) as { version: number; duplicate: boolean };
    if (!result.duplicate) return result.version;
  }
  throw new Error(`the built-in ${slug} agent answered first five times in a row`);
}

/** Every diagram on the page drawn (none still drawing, none failed). */
async function diagramsDrawn(page: Page, atLeast: number): Promise<void> {
  await expect(page.locator(".diagram-placeholder")).toHaveCount(0);
  await expect(page.getByText("The diagram could not be drawn")).toHaveCount(0);
  await expect.poll(() => page.locator(".diagram-canvas svg").count()).toBeGreaterThanOrEqual(atLeast);
}

test("the app runs under its CSP, and agent-written HTML in Mermaid labels neither runs nor fetches", async ({ context, page, request }, testInfo) => {
  const offLoopback: string[] = [];
  const violations: Violation[] = [];
  await guard(context, offLoopback, violations);

  // A run brought to the diagram agent.
  const agents = (await (await request.get("/agents")).json()) as Agent[];
  const diagramAgent = agents.find((a) => a.slug === "diagramacion")!;
  const created = await request.post("/runs", { data: { domain: "library", brief } });
  expect(created.ok()).toBe(true);
  const runId = ((await created.json()) as RunView).run_id;
  for (const agent of agents.slice(0, agents.indexOf(diagramAgent))) {
    await waitForAgent(request, runId, agent.slug);
    expect((await request.post(`/runs/${runId}/approve`, { data: {} })).ok()).toBe(true);
  }
  await waitForAgent(request, runId, diagramAgent.slug);

  // The conversation with the built-in agent's diagrams, then the flow graph (React Flow), the workflow editor
  // (CodeMirror) and the API docs (Swagger UI): no violation anywhere.
  const conversation = await page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  expect(conversation!.headers()["content-security-policy"]).toContain("img-src 'self' data:");
  const first = page.getByRole("article", { name: `${diagramAgent.name} output, version 1` });
  await expect(first.getByRole("img", { name: "Sequence diagram" }).locator("svg")).toBeVisible({ timeout: 60_000 });
  await expect(first.getByRole("img", { name: "Entity-relationship diagram" }).locator("svg")).toBeVisible();
  await diagramsDrawn(page, 2);
  await snapshot(page, testInfo, "01-diagrams");

  await page.getByRole("link", { name: "Flow graph" }).click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await snapshot(page, testInfo, "02-flow-graph");

  await page.goto("/app/workflows/new");
  const editor = page.locator(".cm-editor").first();
  await expect(editor).toBeVisible();
  await editor.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n# typed-under-csp");
  await expect(editor).toContainText("typed-under-csp");
  await snapshot(page, testInfo, "03-workflow-editor");

  const docs = await page.goto("/docs");
  expect(docs!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.locator("#swagger-ui .opblock").first()).toBeVisible();
  await expect(page.locator("#swagger-ui .info .title")).toContainText(/Stitch/);
  await snapshot(page, testInfo, "04-docs");
  expect(violations, "Content-Security-Policy violations of the app itself").toEqual([]);

  // The bait: one version with the sequence and flowchart bait, a later one with the ER bait and a directive that
  // asks for HTML labels.
  const flowchartVersion = await replaceOutput(request, runId, diagramAgent.slug, { mermaid_sequence_diagram: baitSequence, entity_relationship_model: { mermaid: baitFlowchart } });
  const erVersion = await replaceOutput(request, runId, diagramAgent.slug, { mermaid_sequence_diagram: baitSequence, entity_relationship_model: baitEr });
  await page.goto(`/app/runs/${encodeURIComponent(runId)}`);
  const flowchartOutput = page.getByRole("article", { name: `${diagramAgent.name} output, version ${flowchartVersion}` });
  const erOutput = page.getByRole("article", { name: `${diagramAgent.name} output, version ${erVersion}` });
  await expect(erOutput).toBeVisible({ timeout: 60_000 });
  // Superseded versions are collapsed: open the first bait.
  await page.getByRole("button", { name: `Expand ${diagramAgent.name} version ${flowchartVersion}` }).click();
  await expect(flowchartOutput.getByRole("img", { name: "Sequence diagram" }).locator("svg")).toBeVisible();
  await expect(flowchartOutput.getByRole("img", { name: "Entity-relationship diagram" }).locator("svg")).toBeVisible();
  await expect(erOutput.getByRole("img", { name: "Entity-relationship diagram" }).locator("svg")).toBeVisible();
  await diagramsDrawn(page, 4);
  // The labels read as what the agent wrote.
  await expect(flowchartOutput.getByRole("img", { name: "Sequence diagram" })).toContainText("onerror");
  await expect(flowchartOutput.getByRole("img", { name: "Entity-relationship diagram" })).toContainText("<img");
  await expect(erOutput.getByRole("img", { name: "Entity-relationship diagram" })).toContainText("<img");
  await page.waitForTimeout(1000);
  const planted = await page.evaluate(() => ({
    images: [...document.querySelectorAll("img, image, [src], [href]")]
      .map((el) => el.getAttribute("src") ?? el.getAttribute("href") ?? el.getAttribute("xlink:href") ?? "")
      .filter((src) => src === "x" || src.includes("example.invalid")),
    ran: (window as unknown as { __agentScriptRan?: string }).__agentScriptRan ?? null,
  }));
  expect(planted).toEqual({ images: [], ran: null });
  await snapshot(page, testInfo, "05-bait-diagrams");

  // Mermaid's sanitiser parses each label in an inert document, where Chromium reports the bait's `onerror` as a
  // refused inline handler; that is the only report, and nothing tried to load an image or connect anywhere.
  expect(violations.filter((v) => !(v.directive === "script-src-attr" && v.blocked === "inline")), "other violations").toEqual([]);
  expect(offLoopback, "requests to hosts other than the server").toEqual([]);
});
