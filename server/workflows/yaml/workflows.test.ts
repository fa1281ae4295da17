/**
 * YAML workflows end to end on the engine, on every test database: registration, the executor performing nodes
 * through the dispatcher with the offline responder and real bash. The themes have files of their own: firing
 * (trigger rules, when, independent branches), aiNodes (an OpenAI-compatible endpoint, loops), shellNodes (bash and
 * scripts), approvals (and a restart), runs (cancel, resume, the REST surface).
 */
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { startTestServer } from "../../testing/harness";
import { workflowSuite } from "../../testing/yamlWorkflows";

describe.each(testDatabases)("YAML workflows on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer });

  it("Scenario: Minimal valid workflow — a prompt node runs through the offline responder, which says so", async () => {
    const started = await wf.run("name: minimal\ndescription: one prompt\nnodes:\n  - id: ask\n    prompt: Summarise $ARGUMENTS\n");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.ask).toMatchObject({ status: "completed", responder: "offline", attempts: 1 });
    expect(done.nodes.ask!.output).toMatch(/offline/i);
    expect(done.nodes.ask!.started_at).not.toBeNull();
    expect(done.nodes.ask!.completed_at).not.toBeNull();
  });

  it("bash nodes: output without its last newline, references passed safely, trigger rules and when", async () => {
    const yaml = `name: branches
description: trigger rules and conditions
nodes:
  - id: a
    bash: printf '%s\\n' "$USER_MESSAGE"
  - id: boom
    bash: exit 3
  - id: after_boom
    depends_on: [boom]
    bash: echo never
  - id: any
    depends_on: [a, boom]
    trigger_rule: one_success
    bash: echo "got $a.output"
  - id: cond
    depends_on: [a]
    when: "$a.output == 'x; rm -rf /'"
    bash: echo yes
  - id: cond_false
    depends_on: [a]
    when: "$a.output == 'other'"
    bash: echo no
`;
    const started = await wf.run(yaml, "x; rm -rf /");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.a).toMatchObject({ status: "completed", output: "x; rm -rf /" });
    expect(done.nodes.boom).toMatchObject({ status: "failed", error: expect.stringMatching(/exit code 3/) });
    expect(done.nodes.after_boom).toMatchObject({ status: "skipped", skip_reason: 'trigger_rule all_success: "boom" failed' });
    expect(done.nodes.any).toMatchObject({ status: "completed", output: "got x; rm -rf /" });
    expect(done.nodes.cond).toMatchObject({ status: "completed", output: "yes" });
    expect(done.nodes.cond_false).toMatchObject({ status: "skipped", skip_reason: "when: $a.output == 'other' was false" });
  });

  it("output_type: each completed node's output is listed under its label in the run and its export", async () => {
    const yaml = `name: labelled
description: output types
nodes:
  - id: title
    bash: echo "Release 1.2"
    output_type: headline
  - id: body
    bash: echo "Fixes"
    output_type: notes
  - id: extra
    bash: echo "More fixes"
    output_type: notes
  - id: unlabelled
    bash: echo plain
`;
    const started = await wf.run(yaml);
    const done = await wf.settled(started.id);
    expect(done.nodes.title).toMatchObject({ output_type: "headline", output: "Release 1.2" });
    const exported = await wf.server.workflows.queries.export(started.id);
    expect(exported.by_output_type).toEqual({ headline: [{ node_id: "title", output: "Release 1.2" }], notes: [{ node_id: "body", output: "Fixes" }, { node_id: "extra", output: "More fixes" }] });
    expect(exported.outputs.map((o) => o.node_id)).toEqual(["title", "body", "extra", "unlabelled"]);
  });

  it("loop with the offline responder: it answers the completion signal, so the loop completes after one iteration", async () => {
    const yaml = `name: looping
description: loops
nodes:
  - id: refine
    loop:
      prompt: "Improve: $LOOP_PREV_OUTPUT"
      until: DONE
      max_iterations: 3
`;
    const started = await wf.run(yaml);
    const done = await wf.settled(started.id);
    expect(done.nodes.refine).toMatchObject({ status: "completed", responder: "offline", output: expect.stringMatching(/\nDONE$/) });
    expect((await wf.conversation(started.id)).turns.filter((t) => t.kind === "output" && t.body.iteration !== null)).toHaveLength(1);
  });
});
