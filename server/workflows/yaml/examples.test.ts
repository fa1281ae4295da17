/**
 * The example workflows of the repository's workflows/ folder: each loads with no problem and no warning, start-up
 * registers the offline ones (those directly in the folder) and leaves workflows/shell/ alone, and each runs to its
 * expected end on PGlite with no LLM configured, the offline responder answering. The shell example runs too, on a
 * server with WORKFLOW_SHELL=on, as docs/workflows.md ("The examples") says.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewerNamed } from "../../testing/deciders";
import { pglite } from "../../testing/databases";
import { type TestServer, startTestServer } from "../../testing/harness";
import { loadWorkflow } from "./loader";
import { waitFor } from "../../testing/yamlWorkflows";

const workflowsDir = fileURLToPath(new URL("../../../workflows/", import.meta.url));
const read = (file: string) => readFileSync(join(workflowsDir, file), "utf8");

/** Every example, and whether it needs WORKFLOW_SHELL=on. */
const examples: [file: string, shell: boolean][] = [
  ["release-notes.yaml", false],
  ["incident-triage.yaml", false],
  ["shell/document-stats.yaml", true],
];

describe("the example workflows load", () => {
  it.each(examples)("%s loads with no problem and no warning", (file, shell) => {
    const loaded = loadWorkflow(read(file), { shellAllowed: shell });
    expect(loaded.ok ? [] : loaded.issues).toEqual([]);
    expect(loaded.warnings).toEqual([]);
  });

  it("are all listed here; the ones start-up reads need no shell, and the shell one is refused without WORKFLOW_SHELL=on", () => {
    const topLevel = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/i.test(f));
    const shellFolder = readdirSync(join(workflowsDir, "shell")).map((f) => `shell/${f}`);
    expect([...topLevel, ...shellFolder].sort()).toEqual(examples.map(([file]) => file).sort());
    for (const [file, shell] of examples) {
      expect(file.startsWith("shell/"), file).toBe(shell);
      expect(loadWorkflow(read(file)).ok, file).toBe(!shell);
    }
  });

  it("show every node kind, and every command and named script they use is in the folder", () => {
    const nodes = examples.flatMap(([file, shell]) => {
      const loaded = loadWorkflow(read(file), { shellAllowed: shell });
      return loaded.ok ? loaded.definition.nodes : [];
    });
    expect(new Set(nodes.map((n) => n.kind))).toEqual(new Set(["prompt", "command", "loop", "approval", "cancel", "bash", "script"]));
    for (const node of nodes) {
      if (node.kind === "command") expect(existsSync(join(workflowsDir, "commands", `${node.command}.md`)), node.command).toBe(true);
      if (node.kind === "script") expect(existsSync(join(workflowsDir, "scripts", `${node.script}.ts`)), node.script).toBe(true);
    }
    const offline = nodes.filter((n) => n.kind !== "bash" && n.kind !== "script");
    expect(offline.some((n) => n.kind === "approval" && n.approval.capture_response && n.approval.on_reject)).toBe(true);
    expect(offline.some((n) => n.kind === "cancel" && n.when)).toBe(true);
    expect(offline.some((n) => (n.kind === "prompt" || n.kind === "command") && n.retry)).toBe(true);
    expect(offline.some((n) => n.always_run)).toBe(true);
    expect(new Set(offline.map((n) => n.trigger_rule)).size).toBeGreaterThanOrEqual(3);
  });
});

describe("the example workflows run offline on PGlite", () => {
  let opened: Awaited<ReturnType<typeof pglite.open>>;
  let server: TestServer;
  const getRun = (runId: string) => server.workflows.queries.getRun(runId);
  const settled = (runId: string) => waitFor(() => getRun(runId), (run) => ["completed", "failed", "cancelled"].includes(run.status), 60_000);
  const waiting = (runId: string, nodeId: string, attempts = 1) =>
    waitFor(() => getRun(runId), (run) => run.nodes[nodeId]!.status === "waiting_for_user" && run.nodes[nodeId]!.attempts === attempts, 60_000);

  beforeAll(async () => {
    opened = await pglite.open();
    const work = mkdtempSync(join(tmpdir(), "stitch-examples-"));
    // No LLM_* settings: the offline responder answers every AI node. WORKFLOW_SHELL=on for the shell example only.
    server = await startTestServer(opened.database, { WORKFLOWS_DIR: workflowsDir, WORKFLOW_SHELL: "on", WORKFLOW_WORK_DIR: join(work, "runs"), DISPATCH_POLL_MS: "100" });
  });
  afterAll(async () => {
    await server?.close();
    await opened?.drop();
  });

  it("start-up registers the workflows directly in workflows/, not the one in workflows/shell/", async () => {
    expect(server.workflowFiles.map((f) => f.outcome)).toEqual(["registered incident-triage v1", "registered release-notes v1"]);
    expect((await server.workflows.queries.listWorkflows()).map((w) => w.name).sort()).toEqual(["incident-triage", "release-notes"]);
  });

  it("release-notes: drafted from the command's file, polished in one offline iteration, revised on a rejection, approved with a note, announced", async () => {
    const { commands, queries } = server.workflows;
    const started = await commands.startRun("release-notes", { message: "feat: export runs as CSV (#412)\nfix: the cancel button ignored the reason (#418)" });
    const asked = await waiting(started.id, "review");
    expect(asked.nodes.changes).toMatchObject({ status: "completed", responder: "offline", output_type: "changelog", attempts: 1 });
    expect(asked.nodes.changes!.output).toMatch(/^\[offline responder: no LLM is configured/);
    expect(asked.nodes.draft!.output).toContain("> You are the release manager of a web product.");
    expect(asked.nodes.polish).toMatchObject({ status: "completed", responder: "offline" });
    expect(asked.nodes.polish!.output).toMatch(/\nDONE$/);

    await commands.reject(started.id, "review", "Lead with the CSV export.", reviewerNamed("grace"));
    await waiting(started.id, "review", 2);
    const approved = await commands.approve(started.id, "review", "Stress the CSV export.", reviewerNamed("ada"));
    const done = await settled(approved.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.review).toMatchObject({ status: "completed", output: "Stress the CSV export." });
    expect(done.nodes.announce).toMatchObject({ status: "completed", output_type: "announcement", responder: "offline" });

    const turns = (await queries.conversation(started.id)).turns;
    const revision = turns.find((t) => t.kind === "output" && t.node?.id === "review");
    expect(revision).toMatchObject({ body: { value: expect.stringContaining("> A reviewer rejected the release notes below: Lead with the CSV export.") } });
    expect(turns.filter((t) => t.node?.id === "review").map((t) => (t.kind === "decided" ? `decided ${t.body.decision}` : t.kind))).toEqual(
      ["waiting", "decided request_changes", "started", "output", "waiting", "decided approve"],
    );
  });

  it("release-notes: the second rejection (on_reject's max_attempts) cancels the run with the reason", async () => {
    const { commands } = server.workflows;
    const started = await commands.startRun("release-notes", { message: "fix: typo on the login page (#420)" });
    await waiting(started.id, "review");
    await commands.reject(started.id, "review", "Too long.", reviewerNamed("grace"));
    await waiting(started.id, "review", 2);
    const cancelled = await commands.reject(started.id, "review", "Still too long.", reviewerNamed("grace"));
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: "rejected at review 2 times: Still too long." });
    expect(cancelled.nodes.announce!.status).toBe("cancelled");
  });

  it("incident-triage: not noise, so the cancel node is skipped by its condition, both branches run, and the update and handover are written", async () => {
    const started = await server.workflows.commands.startRun("incident-triage", { message: "Checkout returns HTTP 502 for about 30% of requests in eu-west since 09:12 UTC." });
    const done = await settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.dismiss).toMatchObject({ status: "skipped", skip_reason: "when: $assess.output == 'NOISE' was false" });
    for (const id of ["assess", "causes", "impact", "status_update", "handover"]) expect(done.nodes[id], id).toMatchObject({ status: "completed", responder: "offline" });
    expect(done.nodes.assess!.output_type).toBe("severity");
    expect(done.nodes.impact!.output).toContain("> You are the support lead during an incident assessed as [offline responder");
  });

  it("document-stats (WORKFLOW_SHELL=on): bash saves the message, the bun script counts it, the report combines the counts and the summary; an empty message cancels", async () => {
    const { commands } = server.workflows;
    await commands.register(read("shell/document-stats.yaml"));
    const counted = await settled((await commands.startRun("document-stats", { message: "one two three\nfour" })).id);
    expect(counted.status).toBe("completed");
    expect(counted.nodes.save!.output).toBe("saved 18 bytes");
    expect(JSON.parse(counted.nodes.count!.output!)).toEqual({ words: 4, lines: 2, characters: 18 });
    expect(counted.nodes.empty!.status).toBe("skipped");
    expect(counted.nodes.report!.output).toMatch(/^Words: 4, lines: 2\n\n\[offline responder/);

    const empty = await settled((await commands.startRun("document-stats", { message: "" })).id);
    expect(empty).toMatchObject({ status: "cancelled", cancel_reason: "The document is empty; there is nothing to summarise." });
    expect(JSON.parse(empty.nodes.count!.output!)).toEqual({ words: 0, lines: 0, characters: 0 });
    expect(empty.nodes.summary!.status).toMatch(/^(skipped|cancelled)$/);
  });
});
