/**
 * The step runs' projection, pure (projection.ts `projectSteps`): which turns an engine transition writes for a step
 * run, when the run counts as ended (its outputs are then evaluated), and that nodes of other front doors are ignored.
 * The observer around it is exercised on the real server by runs.test.ts and api.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { RunTransition } from "../../engine/engine";
import { compileGraph } from "../../engine/graph";
import type { EngineEvent, NodeRow } from "../../engine/transition";
import { newRow } from "../../engine/transition";
import { compileWorkflow } from "../compile";
import { lowerSteps } from "./lower";
import { TURN, projectSteps } from "./projection";

const steps = lowerSteps(
  { id: "w", steps: [{ id: "search", tool: "search.google" }, { id: "extract", tool: "llm.extract_entities" }] },
  { search: [], extract: ["search"] },
  () => 1000,
);
/** A YAML workflow's node in the same graph: not a step, so not projected here. */
const yamlNode = compileWorkflow([{ id: "other", dependsOn: [], triggerRule: "all_success", kind: "task", label: "other", config: { kind: "prompt" } }]).nodes[0]!;
const graph = compileGraph({ nodes: [...steps.nodes, yamlNode], edges: steps.edges });

const row = (key: string, fields: Partial<NodeRow>): NodeRow => ({ ...newRow(key), ...fields });

function transition(event: EngineEvent, changes: RunTransition["changes"], runStatus: RunTransition["runStatus"] = "running", actor: string | null = null): RunTransition {
  return { runId: "r", startedBy: null, owner: { front_door: "steps", run_id: "r" }, flowName: "steps", graph, event, actor, changes, runStatus, runStatusBefore: "running" };
}

describe("projectSteps", () => {
  it("writes a turn per step that changes status, and none for another front door's node", () => {
    const projected = projectSteps(
      transition({ type: "callback", key: "search", status: "completed", output: { text: "x" }, attempt: 1 }, [
        { key: "search", before: "running", after: row("search", { status: "completed", attempt: 1 }) },
        { key: "extract", before: "pending", after: row("extract", { status: "running", attempt: 1 }) },
        { key: "other", before: "pending", after: row("other", { status: "running", attempt: 1 }) },
      ]),
    );
    expect(projected).toEqual({
      status: "running",
      ended: false,
      turns: [
        { kind: TURN.completed, nodeId: "search", payload: { attempt: 1 }, actor: null },
        { kind: TURN.started, nodeId: "extract", payload: { attempt: 1 }, actor: null },
      ],
    });
  });

  it("records a failed attempt that will be retried, a skip with its reason, and the run's end", () => {
    const retrying = projectSteps(
      transition({ type: "callback", key: "search", status: "failed", error: "HTTP 503", attempt: 1, retryable: true }, [
        { key: "search", before: "running", after: row("search", { status: "running", attempt: 1, error: "HTTP 503" }) },
      ]),
    );
    expect(retrying.turns).toEqual([{ kind: TURN.retrying, nodeId: "search", payload: { attempt: 1, error: "HTTP 503" }, actor: null }]);

    const failed = projectSteps(
      transition(
        { type: "callback", key: "search", status: "failed", error: "HTTP 401", attempt: 2 },
        [
          { key: "search", before: "running", after: row("search", { status: "failed", attempt: 2, error: "HTTP 401" }) },
          { key: "extract", before: "pending", after: row("extract", { status: "skipped", error: 'trigger_rule all_success: "search" failed' }) },
        ],
        "failed",
      ),
    );
    expect(failed).toMatchObject({ status: "failed", ended: true });
    expect(failed.turns.map((t) => [t.kind, t.nodeId, t.payload])).toEqual([
      [TURN.failed, "search", { attempt: 2, error: "HTTP 401" }],
      [TURN.skipped, "extract", { reason: 'trigger_rule all_success: "search" failed' }],
    ]);
  });

  it("records who cancelled, resumed or retried, with the cancellation's reason", () => {
    const cancelled = projectSteps(
      transition({ type: "cancel", reason: "enough" }, [{ key: "search", before: "running", after: row("search", { status: "cancelled", error: "cancelled: enough" }) }], "cancelled", "ada"),
    );
    expect(cancelled).toEqual({
      status: "cancelled",
      cancelReason: "enough",
      ended: true,
      turns: [
        { kind: TURN.cancelled, nodeId: "search", payload: { reason: "cancelled: enough" }, actor: null },
        { kind: TURN.runCancelled, nodeId: null, payload: { reason: "enough" }, actor: "ada" },
      ],
    });
    const resumed = projectSteps(transition({ type: "resume" }, [{ key: "search", before: "failed", after: row("search", { status: "running", attempt: 2 }) }], "running", "ada"));
    expect(resumed).toMatchObject({ cancelReason: null, ended: false });
    expect(resumed.turns.map((t) => [t.kind, t.actor])).toEqual([[TURN.resumed, "ada"], [TURN.started, null]]);
    const retried = projectSteps(transition({ type: "retry", key: "search" }, [{ key: "search", before: "failed", after: row("search", { status: "running", attempt: 2 }) }], "running", "ada"));
    expect(retried.turns.map((t) => [t.kind, t.actor])).toEqual([[TURN.retried, "ada"], [TURN.started, null]]);
  });
});
