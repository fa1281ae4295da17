/**
 * AI nodes (prompt, command, loop) of YAML workflows against a real HTTP stand-in for an OpenAI-compatible endpoint
 * (LLM_BASE_URL, LLM_MODEL), on every test database: what the endpoint receives (model, prompt, history), what the
 * nodes make of its answers (outputs, JSON fields, loop signals) and how they fail.
 *
 * Each prompt carries a tag, `[[tag]]`, that chooses how the stand-in answers; `calls` counts the requests per tag.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequest, type ChatServer, completion, startChatServer } from "../../testing/agentTestkit";
import { reviewerNamed } from "../../testing/deciders";
import { testDatabases } from "../../testing/databases";
import { startTestServer } from "../../testing/harness";
import { workflowSuite } from "../../testing/yamlWorkflows";

type Message = { role: string; content: string };

/** The answers per tag: the n-th request of a tag (from 1) gets `answers[tag](n)`. A tag without an entry is echoed. */
const ANSWERS: Record<string, (n: number) => string> = {
  json: () => '```json\n{"title": "Ship it", "steps": 3}\n```',
  prose: () => "Just some words, not JSON.",
  own_line: () => "Improved the draft.\nDONE\n",
  mid_sentence: (n) => (n === 1 ? "I am not DONE yet, there is more to do." : "All finished.\n  DONE  "),
  promise: () => "Here it is <promise>DONE</promise> and a few words after.",
  never_done: (n) => `still working (${n})`,
  history: (n) => (n < 3 ? `out${n}` : "out3\nDONE"),
  fresh: (n) => (n < 3 ? `fresh${n}` : "fresh3\nDONE"),
  interactive: (n) => (n < 3 ? `draft ${n}` : "final\nDONE"),
  interactive_limit: (n) => `draft ${n}`,
};

const tagOf = (text: string) => /\[\[([a-z_]+)\]\]/.exec(text)?.[1] ?? "";
const lastUser = (request: ChatRequest) => (request.body.messages ?? []).filter((m) => m.role === "user").at(-1)?.content ?? "";

describe.each(testDatabases)("YAML workflow AI nodes through an OpenAI-compatible endpoint on $name", (testDatabase) => {
  let chat: ChatServer;
  const calls = new Map<string, number>();
  beforeAll(async () => {
    chat = await startChatServer((request) => {
      const prompt = lastUser(request);
      const tag = tagOf(prompt);
      const n = (calls.get(tag) ?? 0) + 1;
      calls.set(tag, n);
      return completion(ANSWERS[tag]?.(n) ?? `echo: ${prompt}`, { model: request.body.model ?? "none" });
    });
  });
  afterAll(async () => {
    await chat?.close();
  });
  const wf = workflowSuite({
    open: () => testDatabase.open(),
    start: startTestServer,
    env: () => ({ LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "env-model", LLM_API_KEY: "sk-stand-in" }),
  });

  /** The requests whose last user message holds `text`, in the order they came. */
  const requestsWith = (text: string) => chat.received.filter((r) => lastUser(r).includes(text));
  const messagesOf = (request: ChatRequest | undefined): Message[] => request?.body.messages ?? [];

  it("prompt and command nodes: the node's model overrides the workflow's and LLM_MODEL, the prompt is substituted, the responder is llm", async () => {
    writeFileSync(join(wf.workflowsDir, "commands", "summarise.md"), "Summarise for the team: $ARGUMENTS (run $WORKFLOW_ID)\n");
    const started = await wf.run(
      `name: ai-models
description: models
nodes:
  - id: plain
    prompt: "plain prompt about $ARGUMENTS"
  - id: own
    model: node-model
    prompt: own model prompt
  - id: cmd
    command: summarise
`,
      "the brief",
    );
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");

    const [plain] = requestsWith("plain prompt about the brief");
    expect(plain!.body.model).toBe("env-model");
    expect(plain!.headers.authorization).toBe("Bearer sk-stand-in");
    expect(messagesOf(plain)).toEqual([{ role: "user", content: "plain prompt about the brief" }]);
    expect(requestsWith("own model prompt")[0]!.body.model).toBe("node-model");
    const [cmd] = requestsWith("Summarise for the team");
    expect(lastUser(cmd!)).toBe(`Summarise for the team: the brief (run ${started.id})\n`);
    expect(cmd!.body.model).toBe("env-model");
    expect(done.nodes.plain).toMatchObject({ status: "completed", output: "echo: plain prompt about the brief", responder: "llm" });
    expect(done.nodes.own).toMatchObject({ status: "completed", output: "echo: own model prompt", responder: "llm" });
    expect(done.nodes.cmd).toMatchObject({ status: "completed", responder: "llm", output: `echo: Summarise for the team: the brief (run ${started.id})\n` });
    const conversation = await wf.conversation(started.id);
    expect(conversation.turns.find((t) => t.kind === "output" && t.node?.id === "own")).toMatchObject({ body: { responder: "llm", model: "node-model" } });

    const workflowLevel = await wf.run(
      `name: ai-workflow-model
description: a workflow-wide model
model: workflow-model
nodes:
  - id: inherits
    prompt: inherits the workflow model
  - id: overrides
    model: node-model-2
    prompt: overrides the workflow model
`,
    );
    expect((await wf.settled(workflowLevel.id)).status).toBe("completed");
    expect(requestsWith("inherits the workflow model")[0]!.body.model).toBe("workflow-model");
    expect(requestsWith("overrides the workflow model")[0]!.body.model).toBe("node-model-2");
  });

  it("$id.output.field reads a field of a JSON output; an unreadable field fails the consuming node naming the reference", async () => {
    const started = await wf.run(`name: ai-fields
description: fields of JSON outputs
nodes:
  - id: plan
    prompt: "[[json]] make a plan"
  - id: prose
    prompt: "[[prose]] say something"
  - id: use
    depends_on: [plan]
    prompt: "Title: $plan.output.title, steps: $plan.output.steps"
  - id: shell
    depends_on: [plan]
    bash: echo "$plan.output.title"
  - id: missing_field
    depends_on: [plan]
    prompt: "Owner: $plan.output.owner"
  - id: not_json
    depends_on: [prose]
    prompt: "Field: $prose.output.title"
`);
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.use).toMatchObject({ status: "completed", output: "echo: Title: Ship it, steps: 3" });
    expect(done.nodes.shell).toMatchObject({ status: "completed", output: "Ship it" });
    expect(done.nodes.missing_field).toMatchObject({ status: "failed", attempts: 1, error: '$plan.output.owner: the output of "plan" has no field "owner"' });
    expect(done.nodes.not_json).toMatchObject({ status: "failed", error: '$prose.output.title: the output of "prose" is not JSON' });
    // The failing nodes never called the endpoint.
    expect(requestsWith("Owner:")).toEqual([]);
    expect(requestsWith("Field:")).toEqual([]);
  });

  it("a command node whose file is missing fails, naming the file it looked for", async () => {
    const started = await wf.run("name: ai-missing-command\ndescription: d\nnodes:\n  - id: cmd\n    command: no-such-command\n");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.cmd).toMatchObject({ status: "failed", error: `command "no-such-command": no file ${join(wf.workflowsDir, "commands", "no-such-command.md")}` });
  });

  /** A workflow of one loop node `l` whose prompt carries `[[tag]]`. */
  const loopWorkflow = (tag: string, loop: string) =>
    `name: loop-${tag.replaceAll("_", "-")}\ndescription: a loop\nnodes:\n  - id: l\n    loop:\n      prompt: "[[${tag}]] go on from: $LOOP_PREV_OUTPUT"\n${loop}`;
  const iterationsOf = async (runId: string) =>
    (await wf.conversation(runId)).turns.flatMap((t) => (t.kind === "output" && t.body.iteration !== null && t.node?.id === "l" ? [t] : []));

  it("Scenario: Loop with completion signal — the signal on its own line completes the loop", async () => {
    const started = await wf.run(loopWorkflow("own_line", "      until: DONE\n      max_iterations: 5\n"));
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.l).toMatchObject({ status: "completed", output: "Improved the draft.\nDONE\n", responder: "llm" });
    expect(await iterationsOf(started.id)).toHaveLength(1);
  });

  it("loop: a mention of the signal mid-sentence does not complete it (it iterates); the signal on a later line does", async () => {
    const started = await wf.run(loopWorkflow("mid_sentence", "      until: DONE\n      max_iterations: 5\n"));
    const done = await wf.settled(started.id);
    expect(done.nodes.l).toMatchObject({ status: "completed", output: "All finished.\n  DONE  " });
    const iterations = await iterationsOf(started.id);
    expect(iterations.map((t) => t.body.value)).toEqual(["I am not DONE yet, there is more to do.", "All finished.\n  DONE  "]);
    expect(requestsWith("[[mid_sentence]]").map(lastUser)).toEqual(["[[mid_sentence]] go on from: ", "[[mid_sentence]] go on from: I am not DONE yet, there is more to do."]);
  });

  it("loop: <promise>SIGNAL</promise> anywhere in the answer completes it", async () => {
    const started = await wf.run(loopWorkflow("promise", "      until: DONE\n      max_iterations: 5\n"));
    const done = await wf.settled(started.id);
    expect(done.nodes.l).toMatchObject({ status: "completed", output: "Here it is <promise>DONE</promise> and a few words after." });
    expect(await iterationsOf(started.id)).toHaveLength(1);
  });

  it("Scenario: Loop exceeds max_iterations — the node fails naming the limit and the signal", async () => {
    const started = await wf.run(loopWorkflow("never_done", "      until: ALL_GREEN\n      max_iterations: 3\n"));
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.l).toMatchObject({ status: "failed", error: 'reached max_iterations (3) without the completion signal "ALL_GREEN"' });
    expect(requestsWith("[[never_done]]")).toHaveLength(3);
    expect((await iterationsOf(started.id)).map((t) => t.body.value)).toEqual(["still working (1)", "still working (2)", "still working (3)"]);
  });

  it("loop: without fresh_context each iteration sees the earlier ones as history; with fresh_context it sees only its prompt", async () => {
    const kept = await wf.run(loopWorkflow("history", "      until: DONE\n      max_iterations: 5\n"));
    expect((await wf.settled(kept.id)).nodes.l!.status).toBe("completed");
    const third = requestsWith("[[history]]")[2];
    expect(messagesOf(third)).toEqual([
      { role: "user", content: "[[history]] go on from: " },
      { role: "assistant", content: "out1" },
      { role: "user", content: "[[history]] go on from: out1" },
      { role: "assistant", content: "out2" },
      { role: "user", content: "[[history]] go on from: out2" },
    ]);

    const fresh = await wf.run(loopWorkflow("fresh", "      until: DONE\n      max_iterations: 5\n      fresh_context: true\n"));
    expect((await wf.settled(fresh.id)).nodes.l!.status).toBe("completed");
    expect(requestsWith("[[fresh]]").map(messagesOf)).toEqual([
      [{ role: "user", content: "[[fresh]] go on from: " }],
      [{ role: "user", content: "[[fresh]] go on from: fresh1" }],
      [{ role: "user", content: "[[fresh]] go on from: fresh2" }],
    ]);
  });

  it("interactive loop: it waits for the user (waiting_for_user) between iterations, and input fires the next with $LOOP_USER_INPUT", async () => {
    const started = await wf.run(
      `name: loop-interactive
description: a loop that asks between iterations
nodes:
  - id: l
    loop:
      prompt: "[[interactive]] revise ($LOOP_USER_INPUT) from: $LOOP_PREV_OUTPUT"
      until: DONE
      max_iterations: 5
      interactive: true
      gate_message: Anything to change?
`,
    );
    const first = await wf.nodeIs(started.id, "l", "waiting_for_user");
    expect(first.status).toBe("waiting_for_user");
    expect(first.nodes.l!.output).toBe("draft 1");
    const waiting = (await wf.conversation(started.id)).turns.filter((t) => t.kind === "waiting");
    expect(waiting.at(-1)).toMatchObject({ node: { id: "l" }, body: { gate: "reply", prompt: "Anything to change?" } });

    // Each question is a decision (an answer), opened when the loop waits and closed by the reply.
    const decisionsOf = async () => (await wf.rest("GET", `/api/decisions?view=all&run_id=${started.id}`)).body.items as { kind: string; state: string; outcome: string | null; title: string }[];
    expect(await decisionsOf()).toMatchObject([{ kind: "answer", state: "open", title: 'Answer "l" of loop-interactive (hello)' }]);
    await wf.server.workflows.commands.input(started.id, "l", "shorter", reviewerNamed("ada"));
    await wf.until(started.id, (run) => run.nodes.l!.status === "waiting_for_user" && run.nodes.l!.output === "draft 2");
    expect((await decisionsOf()).map((d) => [d.state, d.outcome])).toEqual([["open", null], ["decided", "answer"]]);
    await wf.server.workflows.commands.input(started.id, "l", "ship it", reviewerNamed("ada"));
    const done = await wf.settled(started.id);
    expect((await decisionsOf()).map((d) => [d.state, d.outcome])).toEqual([["decided", "answer"], ["decided", "answer"]]);
    expect(done.nodes.l).toMatchObject({ status: "completed", output: "final\nDONE" });

    const requests = requestsWith("[[interactive]]");
    expect(requests.map(lastUser)).toEqual([
      "[[interactive]] revise () from: ",
      "[[interactive]] revise (shorter) from: draft 1",
      "[[interactive]] revise (ship it) from: draft 2",
    ]);
    // The user's replies do not start the loop afresh: the last iteration still sees the first two.
    expect(messagesOf(requests[2]).map((m) => m.content)).toEqual([
      "[[interactive]] revise () from: ",
      "draft 1",
      "[[interactive]] revise (shorter) from: draft 1",
      "draft 2",
      "[[interactive]] revise (ship it) from: draft 2",
    ]);
    const turns = (await wf.conversation(started.id)).turns.filter((t) => t.node?.id === "l");
    expect(turns.filter((t) => t.kind === "decided" && t.body.decision === "answer")).toHaveLength(2);
    expect(turns.filter((t) => t.kind === "output" && t.body.iteration !== null)).toHaveLength(3);
    await expect(wf.server.workflows.commands.input(started.id, "l", "more?", reviewerNamed("ada"))).rejects.toMatchObject({ code: "conflict" });
  });

  it("interactive loop: max_iterations counts the iterations across the user's replies", async () => {
    const started = await wf.run(
      `name: loop-interactive-limit
description: an interactive loop that never finishes
nodes:
  - id: l
    loop:
      prompt: "[[interactive_limit]] revise ($LOOP_USER_INPUT)"
      until: DONE
      max_iterations: 2
      interactive: true
      gate_message: More?
`,
    );
    await wf.nodeIs(started.id, "l", "waiting_for_user");
    await wf.server.workflows.commands.input(started.id, "l", "again", reviewerNamed("ada"));
    const done = await wf.settled(started.id);
    expect(done.nodes.l).toMatchObject({ status: "failed", error: 'reached max_iterations (2) without the completion signal "DONE"' });
    expect(requestsWith("[[interactive_limit]]")).toHaveLength(2);
  });
});
