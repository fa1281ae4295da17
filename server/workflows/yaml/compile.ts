/** A loaded YAML workflow lowered onto the engine: each node a task of the shared workflow compiler. */
import type { DecisionRules } from "../../engine/schemas";
import { z } from "zod";
import type { StitchGraph } from "../../engine/schemas";
import { type WorkflowTask, compileWorkflow } from "../compile";
import { NodeKind, type WorkflowDefinition, WorkflowNode } from "./definition";

/** How long a node's work may take when it names no `timeout`: bash and scripts 120 s, AI calls the LLM's own limit. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Room beyond a node's timeout before another process may take its work over (install time, clean-up). */
const LEASE_MARGIN_MS = 5 * 60_000;

/** What the executor is given to perform a node (its task's `config`, read back from the dispatch's payload). */
export const YamlNodeConfig = z.object({
  kind: NodeKind,
  node: WorkflowNode,
  workflow: z.object({ name: z.string(), provider: z.string().nullable(), model: z.string().nullable() }),
});
export type YamlNodeConfig = z.infer<typeof YamlNodeConfig>;

/** The decision rules an approval or interactive loop states (the others are the defaults). */
function decisionRulesOf(from: DecisionRules): DecisionRules {
  const { assignee, approvals, self_approval, due_in, on_overdue } = from;
  return Object.fromEntries(Object.entries({ assignee, approvals, self_approval, due_in, on_overdue }).filter(([, value]) => value !== undefined));
}

function taskOf(definition: WorkflowDefinition, node: WorkflowNode): WorkflowTask {
  return {
    id: node.id,
    dependsOn: node.depends_on,
    triggerRule: node.trigger_rule,
    kind: node.kind === "approval" ? "approval" : "task",
    label: `${node.kind} · ${node.id}`,
    ...(node.retry ? { retry: { maxAttempts: node.retry.max_attempts + 1, backoffMs: node.retry.delay_ms } } : {}),
    alwaysRun: node.always_run,
    ...(node.kind === "loop" ? { loop: { interactive: node.loop.interactive } } : {}),
    ...(node.kind === "approval"
      ? { rejectionWork: node.approval.on_reject !== undefined, captureResponse: node.approval.capture_response, precheck: node.when !== undefined }
      : {}),
    ...(node.kind === "approval" || (node.kind === "loop" && node.loop.interactive) ? { decisionRules: decisionRulesOf(node.kind === "approval" ? node.approval : node.loop) } : {}),
    leaseMs: (node.timeout ?? DEFAULT_TIMEOUT_MS) + LEASE_MARGIN_MS,
    config: { kind: node.kind, node, workflow: { name: definition.name, provider: definition.provider ?? null, model: definition.model ?? null } } satisfies YamlNodeConfig,
  };
}

export function lowerWorkflow(definition: WorkflowDefinition): StitchGraph {
  return compileWorkflow(definition.nodes.map((node) => taskOf(definition, node)));
}
