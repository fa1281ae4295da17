/**
 * The YAML workflow loader (loader.ts): the scenarios of the workflow YAML spec, then every load-time problem with
 * its path, line and column, warnings, several problems at once, and the normalised definition.
 */
import { describe, expect, it } from "vitest";
import type { LoadResult, LocatedIssue, WorkflowDefinition } from "./definition";
import { type LoadOptions, describeIssues, loadWorkflow } from "./loader";

/** `name`, `description` and `nodes:` on lines 1 to 3, then these lines: the first node starts on line 4. */
const wf = (...nodeLines: string[]): string => ["name: demo", "description: A demo workflow", "nodes:", ...nodeLines].join("\n") + "\n";

const SHELL_ON: LoadOptions = { shellAllowed: true };

function loaded(text: string, options: LoadOptions = SHELL_ON): { definition: WorkflowDefinition; warnings: LocatedIssue[] } {
  const result = loadWorkflow(text, options);
  if (!result.ok) throw new Error(`expected the workflow to load:\n${describeIssues(result.issues).join("\n")}`);
  return result;
}

function rejected(text: string, options: LoadOptions = SHELL_ON): Extract<LoadResult, { ok: false }> {
  const result = loadWorkflow(text, options);
  if (result.ok) throw new Error("expected the workflow to be rejected");
  return result;
}

/** [path, line, column, a piece of the message] */
type Expected = [string, number, number, string];

function expectIssues(issues: LocatedIssue[], expected: Expected[]): void {
  expect(issues.map((i) => [i.path, i.line, i.column])).toEqual(expected.map(([path, line, column]) => [path, line, column]));
  expected.forEach(([, , , message], n) => expect(issues[n]!.message).toContain(message));
}

describe("the scenarios of the workflow YAML spec", () => {
  it("Scenario: Minimal valid workflow — name, description and one node load as a definition", () => {
    const { definition, warnings } = loaded(wf("  - id: hello", "    prompt: Say hello"));
    expect(warnings).toEqual([]);
    expect(definition).toEqual({
      name: "demo",
      description: "A demo workflow",
      nodes: [{ id: "hello", kind: "prompt", prompt: "Say hello", depends_on: [], trigger_rule: "all_success", always_run: false }],
    });
  });

  it("Scenario: Missing name — rejected with a validation error at the top-level map", () => {
    const { issues } = rejected("description: d\nnodes:\n  - id: a\n    prompt: p\n");
    expectIssues(issues, [["name", 1, 1, "the workflow has no name"]]);
  });

  it("Scenario: Node with exactly one mode field — a node with prompt: is a prompt node", () => {
    expect(loaded(wf("  - id: p", "    prompt: Write a haiku")).definition.nodes[0]).toMatchObject({ kind: "prompt", prompt: "Write a haiku" });
  });

  it("Scenario: Node with multiple mode fields — prompt and bash is a mutual-exclusivity error", () => {
    const { issues } = rejected(wf("  - id: x", "    prompt: p", "    bash: echo hi"));
    expectIssues(issues, [["nodes[0].bash", 6, 5, 'node "x" has both prompt and bash; a node has exactly one of command, prompt, bash, script, loop, approval, cancel']]);
  });

  it("Scenario: Node with no mode field — rejected, listing the seven", () => {
    const { issues } = rejected(wf("  - id: x", "    timeout: 1000"));
    expectIssues(issues, [["nodes[0]", 4, 5, 'node "x" has none of command, prompt, bash, script, loop, approval, cancel']]);
  });

  it("Scenario: Node id must be unique — a second node with the same id rejects the workflow", () => {
    const { issues } = rejected(wf("  - id: twin", "    prompt: a", "  - id: twin", "    prompt: b"));
    expectIssues(issues, [["nodes[1].id", 6, 9, 'duplicate node id "twin": nodes[0] already has it']]);
  });

  it('Scenario: Empty prompt rejected — prompt: "" (and whitespace only)', () => {
    expectIssues(rejected(wf("  - id: p", '    prompt: ""')).issues, [["nodes[0].prompt", 5, 13, '"prompt" must not be empty']]);
    expectIssues(rejected(wf("  - id: p", "    prompt: '  \t '")).issues, [["nodes[0].prompt", 5, 13, '"prompt" must not be empty']]);
  });

  it("Scenario: Bash node with timeout — the load side: the node keeps timeout: 30000 (ms) for the executor", () => {
    const node = loaded(wf("  - id: build", "    bash: npm run build", "    timeout: 30000")).definition.nodes[0];
    expect(node).toMatchObject({ kind: "bash", bash: "npm run build", timeout: 30000 });
  });

  it("Scenario: Script with deps — runtime: bun and deps: [lodash] reach the definition", () => {
    const node = loaded(wf("  - id: s", "    script: console.log(1)", "    runtime: bun", '    deps: ["lodash"]')).definition.nodes[0];
    expect(node).toMatchObject({ kind: "script", script: "console.log(1)", runtime: "bun", deps: ["lodash"] });
  });

  it("Scenario: Named script from disk — script: analyze loads as the name the executor resolves", () => {
    const node = loaded(wf("  - id: s", "    script: analyze", "    runtime: uv")).definition.nodes[0];
    expect(node).toEqual({ id: "s", kind: "script", script: "analyze", runtime: "uv", deps: [], depends_on: [], trigger_rule: "all_success", always_run: false });
  });

  it("Scenario: Loop with completion signal — the loop keeps its until signal (the executor stops on it)", () => {
    const node = loaded(wf("  - id: l", "    loop:", "      prompt: Fix the tests", "      until: ALL_GREEN", "      max_iterations: 5")).definition.nodes[0];
    expect(node).toMatchObject({ kind: "loop", loop: { prompt: "Fix the tests", until: "ALL_GREEN", max_iterations: 5, fresh_context: false, interactive: false } });
  });

  it("Scenario: Loop exceeds max_iterations — max_iterations must be a positive integer for the executor's limit", () => {
    expect(loaded(wf("  - id: l", "    loop: { prompt: p, until: DONE, max_iterations: 1 }")).definition.nodes[0]).toMatchObject({ loop: { max_iterations: 1 } });
    expectIssues(rejected(wf("  - id: l", "    loop:", "      prompt: p", "      until: DONE", "      max_iterations: 0")).issues, [
      ["nodes[0].loop.max_iterations", 8, 23, '"max_iterations" must be a positive whole number, not the number 0'],
    ]);
  });

  it("Scenario: Cancel terminates workflow — a cancel node keeps its reason", () => {
    const node = loaded(wf("  - id: stop", "    cancel: Nothing to do for $ARGUMENTS")).definition.nodes[0];
    expect(node).toMatchObject({ kind: "cancel", cancel: "Nothing to do for $ARGUMENTS" });
  });
});

describe("load-time problems, each with its path, line and column", () => {
  const TOP_LEVEL: [string, string, Expected[]][] = [
    ["name empty", 'name: "  "\ndescription: d\nnodes: [{ id: a, prompt: p }]\n', [["name", 1, 7, '"name" must not be empty']]],
    ["name not a string", "name: 42\ndescription: d\nnodes: [{ id: a, prompt: p }]\n", [["name", 1, 7, '"name" must be a non-empty string, not the number 42']]],
    ["description missing", "name: n\nnodes: [{ id: a, prompt: p }]\n", [["description", 1, 1, "the workflow has no description"]]],
    ["description a list", "name: n\ndescription: [a]\nnodes: [{ id: a, prompt: p }]\n", [["description", 2, 14, '"description" must be a non-empty string, not a list']]],
    ["description empty", "name: n\ndescription:\nnodes: [{ id: a, prompt: p }]\n", [["description", 2, 1, '"description" must be a non-empty string, not nothing']]],
    ["nodes missing", "name: n\ndescription: d\n", [["nodes", 1, 1, "the workflow has no nodes"]]],
    ["nodes not a list", "name: n\ndescription: d\nnodes: { id: a }\n", [["nodes", 3, 8, '"nodes" must be a list of nodes, not a map']]],
    ["nodes empty", "name: n\ndescription: d\nnodes: []\n", [["nodes", 3, 8, "the workflow needs at least one node"]]],
    ["provider unknown", "name: n\ndescription: d\nprovider: anthropic\nnodes: [{ id: a, prompt: p }]\n", [["provider", 3, 11, 'unknown provider "anthropic"; the known providers are openai, offline']]],
    ["model not a string", "name: n\ndescription: d\nmodel: [a]\nnodes: [{ id: a, prompt: p }]\n", [["model", 3, 8, '"model" must be a string, not a list']]],
    ["a node that is not a map", wf("  - just text"), [["nodes[0]", 4, 5, 'a node must be a map with an id and one of command, prompt, bash, script, loop, approval, cancel, not the text "just text"']]],
  ];

  it.each(TOP_LEVEL)("top level: %s", (_name, text, expected) => expectIssues(rejected(text).issues, expected));

  it("a YAML syntax error, with its line and column, and only that", () => {
    expectIssues(rejected("name: n\ndescription: d\nnodes:\n  - id: a\n    prompt: 'unclosed\n").issues, [["nodes[0].prompt", 6, 1, "YAML syntax error: Missing closing 'quote"]]);
    expectIssues(rejected("name: n\nname: m\ndescription: d\nnodes: []\n").issues, [["name", 2, 1, "YAML syntax error: Map keys must be unique"]]);
    expectIssues(rejected("name: n\n---\nname: m\n").issues, [["", 2, 1, "YAML syntax error: Source contains multiple documents"]]);
  });

  it("a YAML warning is a warning with its path, and the workflow still loads", () => {
    expectIssues(loaded("name: !weird n\ndescription: d\nnodes: [{ id: a, prompt: p }]\n").warnings, [["name", 1, 7, "YAML: Unresolved tag: !weird"]]);
  });

  it("an empty document, and a document that is not a map", () => {
    expectIssues(rejected("").issues, [["", 1, 1, "a workflow must be a map with name, description and nodes; this document is empty"]]);
    expectIssues(rejected("# only a comment\n- a\n").issues, [["", 2, 1, "this document is a list"]]);
  });

  const NODE_FIELDS: [string, string[], Expected[]][] = [
    ["id missing", ["  - prompt: p"], [["nodes[0].id", 4, 5, "node 1 has no id"]]],
    ["id not a name", ["  - id: 1st node", "    prompt: p"], [["nodes[0].id", 4, 9, 'id "1st node" must start with a letter or _ and hold only letters, digits, _ and -']]],
    ["id a number", ["  - id: 7", "    prompt: p"], [["nodes[0].id", 4, 9, '"id" must be a non-empty string, not the number 7']]],
    ["id empty", ["  - id: ''", "    prompt: p"], [["nodes[0].id", 4, 9, '"id" must not be empty']]],
    ["three mode keys", ["  - id: x", "    command: c", "    loop: {}", "    cancel: c"], [["nodes[0].loop", 6, 5, 'node "x" has command, loop and cancel; a node has exactly one of']]],
    ["prompt nothing", ["  - id: p", "    prompt:"], [["nodes[0].prompt", 5, 5, '"prompt" must be a non-empty string, not nothing']]],
    ["prompt a number", ["  - id: p", "    prompt: 42"], [["nodes[0].prompt", 5, 13, "not the number 42"]]],
    ["command empty", ["  - id: c", '    command: ""'], [["nodes[0].command", 5, 14, '"command" must not be empty']]],
    ["command with a slash", ["  - id: c", "    command: tools/plan"], [["nodes[0].command", 5, 14, 'command "tools/plan" must be a command\'s name, without /, \\, .. or a leading .']]],
    ["command with a backslash", ["  - id: c", "    command: 'tools\\plan'"], [["nodes[0].command", 5, 14, "command \"tools\\plan\" must be a command's name"]]],
    ["command with ..", ["  - id: c", "    command: a..b"], [["nodes[0].command", 5, 14, 'command "a..b"']]],
    ["command with a leading dot", ["  - id: c", "    command: .hidden"], [["nodes[0].command", 5, 14, 'command ".hidden"']]],
    ["bash empty", ["  - id: b", "    bash: ''"], [["nodes[0].bash", 5, 11, '"bash" must not be empty']]],
    ["cancel empty", ["  - id: c", "    cancel: ' '"], [["nodes[0].cancel", 5, 13, '"cancel" must not be empty']]],
    ["cancel a list", ["  - id: c", "    cancel: [x]"], [["nodes[0].cancel", 5, 13, '"cancel" must be a non-empty string, not a list']]],
    ["script empty", ["  - id: s", "    script: ''", "    runtime: bun"], [["nodes[0].script", 5, 13, '"script" must not be empty']]],
    ["script without runtime", ["  - id: s", "    script: analyze"], [["nodes[0].runtime", 4, 5, 'node "s" is a script node and needs runtime: bun or uv']]],
    ["script runtime unknown", ["  - id: s", "    script: analyze", "    runtime: node"], [["nodes[0].runtime", 6, 14, '"runtime" must be one of bun, uv, not the text "node"']]],
    ["deps not a list", ["  - id: s", "    script: a", "    runtime: uv", "    deps: lodash"], [["nodes[0].deps", 7, 11, '"deps" must be a list of package names, not the text "lodash"']]],
    ["deps item not a string", ["  - id: s", "    script: a", "    runtime: uv", "    deps: [lodash, 3]"], [["nodes[0].deps[1]", 7, 20, 'each item of "deps" must be a string (package names), not the number 3']]],
  ];

  it.each(NODE_FIELDS)("node: %s", (_name, lines, expected) => expectIssues(rejected(wf(...lines)).issues, expected));

  const LOOP_AND_APPROVAL: [string, string[], Expected[]][] = [
    ["loop not a map", ["  - id: l", "    loop: go"], [["nodes[0].loop", 5, 11, '"loop" must be a map with prompt, until and max_iterations, not the text "go"']]],
    [
      "loop missing prompt, until and max_iterations",
      ["  - id: l", "    loop: { fresh_context: true }"],
      [
        ["nodes[0].loop.prompt", 5, 11, "a loop needs a prompt"],
        ["nodes[0].loop.until", 5, 11, "a loop needs until"],
        ["nodes[0].loop.max_iterations", 5, 11, "a loop needs max_iterations"],
      ],
    ],
    ["loop prompt empty", ["  - id: l", "    loop:", "      prompt: ''", "      until: D", "      max_iterations: 2"], [["nodes[0].loop.prompt", 6, 15, '"prompt" must not be empty']]],
    ["loop until empty", ["  - id: l", "    loop:", "      prompt: p", "      until: ''", "      max_iterations: 2"], [["nodes[0].loop.until", 7, 14, '"until" must not be empty']]],
    ["max_iterations a fraction", ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 1.5"], [["nodes[0].loop.max_iterations", 8, 23, "not the number 1.5"]]],
    ["max_iterations text", ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: '3'"], [["nodes[0].loop.max_iterations", 8, 23, 'not the text "3"']]],
    [
      "interactive loop without gate_message",
      ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "      interactive: true"],
      [["nodes[0].loop.gate_message", 6, 7, "an interactive loop needs gate_message"]],
    ],
    ["loop interactive not a boolean", ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "      interactive: 'yes'"], [["nodes[0].loop.interactive", 9, 20, '"interactive" must be true or false, not the text "yes"']]],
    [
      "loop gate_message empty",
      ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "      interactive: true", "      gate_message: ''"],
      [["nodes[0].loop.gate_message", 10, 21, '"gate_message" must not be empty']],
    ],
    ["loop gate_message a list", ["  - id: l", "    loop: { prompt: p, until: D, max_iterations: 2, gate_message: [more] }"], [["nodes[0].loop.gate_message", 5, 67, '"gate_message" must be a non-empty string, not a list']]],
    ["loop until_bash empty", ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "      until_bash: ' '"], [["nodes[0].loop.until_bash", 9, 19, '"until_bash" must not be empty']]],
    ["loop fresh_context not a boolean", ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "      fresh_context: yes"], [["nodes[0].loop.fresh_context", 9, 22, '"fresh_context" must be true or false, not the text "yes"']]],
    [
      "retry on a loop",
      ["  - id: l", "    loop:", "      prompt: p", "      until: D", "      max_iterations: 2", "    retry: { max_attempts: 2 }"],
      [["nodes[0].retry", 9, 5, 'node "l" is a loop: retry is not allowed on a loop node']],
    ],
    ["approval not a map", ["  - id: a", "    approval: ok?"], [["nodes[0].approval", 5, 15, '"approval" must be a map with a message, not the text "ok?"']]],
    ["approval without message", ["  - id: a", "    approval: { capture_response: true }"], [["nodes[0].approval.message", 5, 15, "an approval needs a message"]]],
    ["approval message empty", ["  - id: a", "    approval:", '      message: ""'], [["nodes[0].approval.message", 6, 16, '"message" must not be empty']]],
    ["capture_response not a boolean", ["  - id: a", "    approval:", "      message: m", "      capture_response: 1"], [["nodes[0].approval.capture_response", 7, 25, '"capture_response" must be true or false, not the number 1']]],
    ["on_reject not a map", ["  - id: a", "    approval:", "      message: m", "      on_reject: redo"], [["nodes[0].approval.on_reject", 7, 18, '"on_reject" must be a map with a prompt']]],
    ["on_reject without prompt", ["  - id: a", "    approval:", "      message: m", "      on_reject: { max_attempts: 2 }"], [["nodes[0].approval.on_reject.prompt", 7, 18, "on_reject needs a prompt"]]],
    [
      "on_reject max_attempts 0",
      ["  - id: a", "    approval:", "      message: m", "      on_reject: { prompt: p, max_attempts: 0 }"],
      [["nodes[0].approval.on_reject.max_attempts", 7, 45, '"max_attempts" must be a whole number from 1 to 10, not the number 0']],
    ],
    [
      "on_reject max_attempts out of range",
      ["  - id: a", "    approval:", "      message: m", "      on_reject:", "        prompt: p", "        max_attempts: 11"],
      [["nodes[0].approval.on_reject.max_attempts", 9, 23, '"max_attempts" must be a whole number from 1 to 10, not the number 11']],
    ],
  ];

  it.each(LOOP_AND_APPROVAL)("node: %s", (_name, lines, expected) => expectIssues(rejected(wf(...lines)).issues, expected));

  /** One prompt node "a" with these lines added. */
  const COMMON: [string, string[], Expected[]][] = [
    ["depends_on not a list", ["    depends_on: b"], [["nodes[0].depends_on", 6, 17, '"depends_on" must be a list of node ids, not the text "b"']]],
    ["depends_on item not a string", ["    depends_on: [{ id: b }]"], [["nodes[0].depends_on[0]", 6, 18, 'each item of "depends_on" must be a string (node ids), not a map']]],
    ["depends_on unknown node", ["    depends_on: [ghost]"], [["nodes[0].depends_on[0]", 6, 18, 'depends_on names unknown node "ghost"']]],
    ["depends on itself", ["    depends_on:", "      - a"], [["nodes[0].depends_on[0]", 7, 9, 'node "a" depends on itself']]],
    ["when not a string", ["    when: 3"], [["nodes[0].when", 6, 11, '"when" must be a non-empty string, not the number 3']]],
    ["when empty", ['    when: ""'], [["nodes[0].when", 6, 11, '"when" must not be empty']]],
    ["when with a run variable instead of an output", ['    when: "$ARGUMENTS == \'x\'"'], [["nodes[0].when", 6, 11, '"when" is not a valid condition: expected a node output reference ($id.output or $id.output.field) at character 1, found "$ARGUMENTS =…"']]],
    ["when does not parse", ['    when: "$a.output = 1"'], [["nodes[0].when", 6, 11, '"when" is not a valid condition: expected an operator (==, !=, <=, >=, <, >) at character 11, found "= 1"']]],
    ["when names an unknown node", ["    when: \"$ghost.output.ok == true\""], [["nodes[0].when", 6, 11, '$ghost.output.ok refers to unknown node "ghost"']]],
    ["when reads its own node", ["    when: \"$a.output == 'x'\""], [["nodes[0].when", 6, 11, '$a.output refers to node "a" itself; a node cannot read its own output']]],
    ["trigger_rule a list", ["    trigger_rule: [all_done]"], [["nodes[0].trigger_rule", 6, 19, '"trigger_rule" must be one of all_success, one_success, none_failed_min_one_success, all_done, not a list']]],
    ["trigger_rule unknown", ["    trigger_rule: any"], [["nodes[0].trigger_rule", 6, 19, '"trigger_rule" must be one of all_success, one_success, none_failed_min_one_success, all_done, not the text "any"']]],
    ["retry not a map", ["    retry: 3"], [["nodes[0].retry", 6, 12, '"retry" must be a map with max_attempts, not the number 3']]],
    ["retry without max_attempts", ["    retry: { delay_ms: 2000 }"], [["nodes[0].retry.max_attempts", 6, 12, "retry needs max_attempts: 1 to 5"]]],
    ["retry max_attempts 0", ["    retry:", "      max_attempts: 0"], [["nodes[0].retry.max_attempts", 7, 21, '"max_attempts" must be a whole number from 1 to 5, not the number 0']]],
    ["retry max_attempts 6", ["    retry:", "      max_attempts: 6"], [["nodes[0].retry.max_attempts", 7, 21, "from 1 to 5, not the number 6"]]],
    ["retry delay_ms too small", ["    retry:", "      max_attempts: 2", "      delay_ms: 999"], [["nodes[0].retry.delay_ms", 8, 17, '"delay_ms" must be a whole number from 1000 to 60000 (milliseconds), not the number 999']]],
    ["retry delay_ms too large", ["    retry:", "      max_attempts: 2", "      delay_ms: 60001"], [["nodes[0].retry.delay_ms", 8, 17, "not the number 60001"]]],
    ["retry on_error unknown", ["    retry:", "      max_attempts: 2", "      on_error: network"], [["nodes[0].retry.on_error", 8, 17, '"on_error" must be one of transient, all, not the text "network"']]],
    ["timeout 0", ["    timeout: 0"], [["nodes[0].timeout", 6, 14, '"timeout" must be a positive whole number (milliseconds), not the number 0']]],
    ["timeout negative", ["    timeout: -5"], [["nodes[0].timeout", 6, 14, "not the number -5"]]],
    ["timeout with a unit", ["    timeout: 30s"], [["nodes[0].timeout", 6, 14, 'not the text "30s"']]],
    ["timeout a fraction", ["    timeout: 1.5"], [["nodes[0].timeout", 6, 14, "not the number 1.5"]]],
    ["output_type not a string", ["    output_type: 3"], [["nodes[0].output_type", 6, 18, '"output_type" must be a string, not the number 3']]],
    ["always_run not a boolean", ["    always_run: 'true'"], [["nodes[0].always_run", 6, 17, '"always_run" must be true or false, not the text "true"']]],
    ["node provider unknown", ["    provider: claude"], [["nodes[0].provider", 6, 15, 'unknown provider "claude"; the known providers are openai, offline']]],
    ["node model not a string", ["    model: 4"], [["nodes[0].model", 6, 12, '"model" must be a string, not the number 4']]],
  ];

  it.each(COMMON)("common field: %s", (_name, lines, expected) => expectIssues(rejected(wf("  - id: a", "    prompt: p", ...lines)).issues, expected));

  it("a cycle is reported once, naming its ids, at the depends_on entry that starts it", () => {
    const { issues } = rejected(
      wf("  - id: a", "    prompt: p", "    depends_on: [c]", "  - id: b", "    prompt: p", "    depends_on: [a]", "  - id: c", "    prompt: p", "    depends_on: [x, b]", "  - id: d", "    prompt: p", "    depends_on: [c]"),
    );
    expectIssues(issues, [
      ["nodes[0].depends_on[0]", 6, 18, "depends_on forms a cycle: a → c → b → a (each depends on the next)"],
      ["nodes[2].depends_on[0]", 12, 18, 'depends_on names unknown node "x"'],
    ]);
  });

  /** Node "up" (a prompt), then node "n" depending on it with these lines. */
  const REFERENCES: [string, string[], Expected[]][] = [
    ["prompt", ["    prompt: Use $up.output and $ghost.output"], [["nodes[1].prompt", 8, 13, '$ghost.output refers to unknown node "ghost"']]],
    ["bash", ["    bash: echo $ghost.output.x"], [["nodes[1].bash", 8, 11, '$ghost.output.x refers to unknown node "ghost"']]],
    ["loop prompt", ["    loop: { prompt: $ghost.output, until: D, max_iterations: 2 }"], [["nodes[1].loop.prompt", 8, 21, 'refers to unknown node "ghost"']]],
    ["loop until_bash", ["    loop: { prompt: p, until: D, max_iterations: 2, until_bash: 'test -f $ghost.output' }"], [["nodes[1].loop.until_bash", 8, 65, 'refers to unknown node "ghost"']]],
    ["approval message", ["    approval: { message: 'Approve $ghost.output?' }"], [["nodes[1].approval.message", 8, 26, 'refers to unknown node "ghost"']]],
    ["on_reject prompt", ["    approval:", "      message: ok", "      on_reject: { prompt: 'Redo $ghost.output' }"], [["nodes[1].approval.on_reject.prompt", 10, 28, 'refers to unknown node "ghost"']]],
    ["cancel", ["    cancel: '$ghost.output'"], [["nodes[1].cancel", 8, 13, 'refers to unknown node "ghost"']]],
    ["prompt of its own node", ["    prompt: Again $n.output"], [["nodes[1].prompt", 8, 13, '$n.output refers to node "n" itself']]],
    ["loop prompt of its own node", ["    loop: { prompt: $n.output, until: D, max_iterations: 2 }"], [["nodes[1].loop.prompt", 8, 21, "($LOOP_PREV_OUTPUT holds the previous iteration's)"]]],
  ];

  it.each(REFERENCES)("a reference to an unknown node in the %s is an error at the string that holds it", (_name, lines, expected) =>
    expectIssues(rejected(wf("  - id: up", "    prompt: p", "  - id: n", "    depends_on: [up]", ...lines)).issues, expected),
  );

  it("each unknown reference is named once per text, and escaped \\$ in bash is bash's own", () => {
    const { issues } = rejected(wf("  - id: n", "    bash: echo $x.output $x.output \\$y.output '$z.output'"));
    expectIssues(issues, [
      ["nodes[0].bash", 5, 11, '$x.output refers to unknown node "x"'],
      ["nodes[0].bash", 5, 11, '$z.output refers to unknown node "z"'],
    ]);
  });

  it("bash and script nodes, and until_bash, are refused unless the shell is allowed", () => {
    const text = wf(
      "  - id: b", "    bash: echo hi",
      "  - id: s", "    script: analyze", "    runtime: bun",
      "  - id: l", "    loop: { prompt: p, until: D, max_iterations: 2, until_bash: 'true' }",
      "  - id: p", "    prompt: fine",
    );
    for (const options of [{}, { shellAllowed: false }]) {
      expectIssues(rejected(text, options).issues, [
        ["nodes[0].bash", 5, 11, 'node "b" is a bash node, which runs code on the server: such workflows are refused unless the server runs with WORKFLOW_SHELL=on'],
        ["nodes[1].script", 7, 13, 'node "s" is a script node, which runs code on the server'],
        ["nodes[2].loop.until_bash", 10, 65, 'node "l" has until_bash, a shell command, which runs code on the server'],
      ]);
    }
    expect(loaded(text, { shellAllowed: true }).definition.nodes.map((n) => n.kind)).toEqual(["bash", "script", "loop", "prompt"]);
  });
});

describe("several problems at once", () => {
  it("reports every problem in document order, and the warnings beside them", () => {
    const text = [
      "description: ''",
      "provider: nope",
      "color: blue",
      "nodes:",
      "  - id: plan",
      "    prompt: ''",
      "  - id: plan",
      "    bash: echo $missing.output",
      "    depends_on: [nowhere]",
      "    temperature: 0.2",
      "  - id: check",
      "    when: \"$plan.output == 'x' &&\"",
      "    cancel: stop",
      "    retry: { max_attempts: 9 }",
    ].join("\n");
    const result = rejected(text, {});
    expectIssues(result.issues, [
      ["name", 1, 1, "the workflow has no name"],
      ["description", 1, 14, '"description" must not be empty'],
      ["provider", 2, 11, 'unknown provider "nope"'],
      ["nodes[0].prompt", 6, 13, '"prompt" must not be empty'],
      ["nodes[1].id", 7, 9, 'duplicate node id "plan"'],
      ["nodes[1].bash", 8, 11, "refused unless the server runs with WORKFLOW_SHELL=on"],
      ["nodes[1].bash", 8, 11, '$missing.output refers to unknown node "missing"'],
      ["nodes[1].depends_on[0]", 9, 18, 'depends_on names unknown node "nowhere"'],
      ["nodes[2].when", 12, 11, "expected a node output reference ($id.output or $id.output.field) at character 23, found the end of the condition"],
      ["nodes[2].retry.max_attempts", 14, 28, "from 1 to 5"],
    ]);
    expectIssues(result.warnings, [
      ["color", 3, 1, 'unknown key "color" in the workflow; it is ignored'],
      ["nodes[1].temperature", 10, 5, '"temperature" only applies to AI nodes (command, prompt, loop); it is ignored on the bash node "plan"'],
    ]);
  });

  it("describeIssues writes line:column path: message", () => {
    const { issues } = rejected("name: n\ndescription: d\nnodes: []\n");
    expect(describeIssues(issues)).toEqual(["3:8 nodes: the workflow needs at least one node"]);
    expect(describeIssues([{ path: "", line: 1, column: 1, message: "empty" }])).toEqual(["1:1: empty"]);
  });
});

describe("warnings: the workflow loads, the field is dropped", () => {
  it("top level: unknown keys, non-boolean interactive and mutates_checkout, tags that are not strings", () => {
    const text = ["name: n", "description: d", "interactive: yes", "mutates_checkout: 1", "tags: [ci, 2024, review]", "owner: me", "nodes: [{ id: a, prompt: p }]"].join("\n");
    const { definition, warnings } = loaded(text);
    expectIssues(warnings, [
      ["interactive", 3, 14, '"interactive" must be true or false, not the text "yes"; it is ignored'],
      ["mutates_checkout", 4, 19, '"mutates_checkout" must be true or false, not the number 1; it is ignored'],
      ["tags[1]", 5, 12, 'each item of "tags" must be a string (tags), not the number 2024; it is ignored'],
      ["owner", 6, 1, 'unknown key "owner" in the workflow; it is ignored'],
    ]);
    expect(definition).toMatchObject({ tags: ["ci", "review"] });
    expect(definition).not.toHaveProperty("interactive");
    expect(definition).not.toHaveProperty("mutates_checkout");
    expectIssues(loaded("name: n\ndescription: d\ntags: ci\nnodes: [{ id: a, prompt: p }]\n").warnings, [["tags", 3, 7, '"tags" must be a list of tags, not the text "ci"; it is ignored']]);
  });

  it("AI-only fields on bash, script, approval and cancel nodes are ignored with a warning and dropped", () => {
    const text = wf(
      "  - id: b", "    bash: make", "    provider: openai", "    model: gpt",
      "  - id: s", "    script: x", "    runtime: bun", "    system: be nice",
      "  - id: a", "    approval: { message: ok }", "    temperature: 0",
      "  - id: c", "    cancel: stop", "    model: gpt",
    );
    const { definition, warnings } = loaded(text);
    expectIssues(warnings, [
      ["nodes[0].provider", 6, 5, '"provider" only applies to AI nodes (command, prompt, loop); it is ignored on the bash node "b"'],
      ["nodes[0].model", 7, 5, 'ignored on the bash node "b"'],
      ["nodes[1].system", 11, 5, 'ignored on the script node "s"'],
      ["nodes[2].temperature", 14, 5, 'ignored on the approval node "a"'],
      ["nodes[3].model", 17, 5, 'ignored on the cancel node "c"'],
    ]);
    for (const node of definition.nodes) {
      expect(node).not.toHaveProperty("provider");
      expect(node).not.toHaveProperty("model");
    }
  });

  it("AI nodes keep provider and model; other AI keys are not supported and ignored", () => {
    const { definition, warnings } = loaded(wf("  - id: p", "    prompt: hi", "    provider: offline", "    model: small", "    max_tokens: 10"));
    expect(definition.nodes[0]).toMatchObject({ provider: "offline", model: "small" });
    expectIssues(warnings, [["nodes[0].max_tokens", 8, 5, '"max_tokens" is not supported on node "p"; it is ignored']]);
  });

  it("unknown keys in a node, a loop, an approval, on_reject and retry", () => {
    const text = wf(
      "  - id: p", "    prompt: hi", "    runtime: bun", "    colour: red", "    retry: { max_attempts: 1, backoff: 2 }",
      "  - id: l", "    loop: { prompt: p, until: D, max_iterations: 1, limit: 3 }",
      "  - id: a", "    approval: { message: m, timeout: 5, on_reject: { prompt: p, tries: 2 } }",
    );
    expectIssues(loaded(text).warnings, [
      ["nodes[0].runtime", 6, 5, 'unknown key "runtime" in node "p"; it is ignored'],
      ["nodes[0].colour", 7, 5, 'unknown key "colour" in node "p"'],
      ["nodes[0].retry.backoff", 8, 31, 'unknown key "backoff" in retry'],
      ["nodes[1].loop.limit", 10, 53, 'unknown key "limit" in the loop of node "l"'],
      ["nodes[2].approval.timeout", 12, 29, 'unknown key "timeout" in the approval of node "a"'],
      ["nodes[2].approval.on_reject.tries", 12, 65, 'unknown key "tries" in on_reject of node "a"'],
    ]);
  });

  it("a reference to a node that is not upstream (through depends_on) is a warning", () => {
    const text = wf(
      "  - id: a", "    prompt: p",
      "  - id: b", "    prompt: $a.output",
      "  - id: c", "    depends_on: [b]", "    prompt: $b.output",
      "  - id: d", "    depends_on: [c]", "    when: \"$b.output == 'yes'\"", "    prompt: $c.output and $b.output.x",
    );
    expectIssues(loaded(text).warnings, [
      ["nodes[1].prompt", 7, 13, '$a.output refers to node "a", which node "b" does not depend on (through depends_on)'],
    ]);
  });
});

describe("the normalised definition", () => {
  it("fills the defaults: depends_on, trigger_rule, always_run, retry, loop, approval and deps", () => {
    const text = [
      "name: full",
      "description: Every kind",
      "provider: openai",
      "model: gpt-x",
      "interactive: true",
      "mutates_checkout: false",
      "tags: [demo]",
      "nodes:",
      "  - { id: cmd, command: plan-feature, retry: { max_attempts: 2 } }",
      "  - { id: ask, prompt: 'Think about $cmd.output.goal', depends_on: [cmd], when: \"$cmd.output.go == true\", trigger_rule: one_success, timeout: 60000, output_type: notes, always_run: true }",
      "  - { id: sh, bash: 'echo $ask.output', depends_on: [ask], retry: { max_attempts: 5, delay_ms: 1000, on_error: all } }",
      "  - { id: py, script: analyze, runtime: uv, deps: [requests] }",
      "  - { id: fix, loop: { prompt: 'Fix $LOOP_PREV_OUTPUT', until: DONE, max_iterations: 3, fresh_context: true, interactive: true, gate_message: More?, until_bash: 'npm test' } }",
      "  - { id: ok, approval: { message: 'Ship $fix.output?', capture_response: true, on_reject: { prompt: 'Because $REJECTION_REASON' } }, depends_on: [fix] }",
      "  - { id: stop, cancel: nothing to do }",
    ].join("\n");
    const { definition, warnings } = loaded(text);
    expect(warnings).toEqual([]);
    const base = { depends_on: [], trigger_rule: "all_success", always_run: false };
    expect(definition).toEqual({
      name: "full",
      description: "Every kind",
      provider: "openai",
      model: "gpt-x",
      interactive: true,
      mutates_checkout: false,
      tags: ["demo"],
      nodes: [
        { ...base, id: "cmd", kind: "command", command: "plan-feature", retry: { max_attempts: 2, delay_ms: 3000, on_error: "transient" } },
        {
          ...base, id: "ask", kind: "prompt", prompt: "Think about $cmd.output.goal", depends_on: ["cmd"], when: "$cmd.output.go == true",
          trigger_rule: "one_success", timeout: 60000, output_type: "notes", always_run: true,
        },
        { ...base, id: "sh", kind: "bash", bash: "echo $ask.output", depends_on: ["ask"], retry: { max_attempts: 5, delay_ms: 1000, on_error: "all" } },
        { ...base, id: "py", kind: "script", script: "analyze", runtime: "uv", deps: ["requests"] },
        {
          ...base, id: "fix", kind: "loop",
          loop: { prompt: "Fix $LOOP_PREV_OUTPUT", until: "DONE", max_iterations: 3, fresh_context: true, interactive: true, gate_message: "More?", until_bash: "npm test" },
        },
        { ...base, id: "ok", kind: "approval", depends_on: ["fix"], approval: { message: "Ship $fix.output?", capture_response: true, on_reject: { prompt: "Because $REJECTION_REASON", max_attempts: 3 } } },
        { ...base, id: "stop", kind: "cancel", cancel: "nothing to do" },
      ],
    });
  });

  it("follows YAML aliases", () => {
    const text = ["name: n", "description: d", "x-retry: &retry { max_attempts: 2 }", "nodes:", "  - { id: a, prompt: p, retry: *retry }"].join("\n");
    const { definition } = loaded(text);
    expect(definition.nodes[0]).toMatchObject({ retry: { max_attempts: 2, delay_ms: 3000 } });
  });
});
