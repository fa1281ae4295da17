/**
 * A YAML workflow once loaded: the definition as the loader leaves it, normalised (defaults filled, the node's kind
 * named) and checked. The loader (loader.ts) turns YAML text into this or into located problems; the compiler turns
 * this into an engine flow; the executor runs its nodes. Defined once as zod schemas; the types are inferred.
 */
import { z } from "zod";
import { DecisionRules } from "../../engine/schemas";
import { TriggerRule } from "../../engine/schemas";

/** The seven node kinds, chosen by the one mode key a node has. */
export const NODE_KINDS = ["command", "prompt", "bash", "script", "loop", "approval", "cancel"] as const;
export const NodeKind = z.enum(NODE_KINDS);
export type NodeKind = z.infer<typeof NodeKind>;

/** A node's `trigger_rule`: the engine's own readiness rules, under the same names. */
export { TriggerRule };
export const TRIGGER_RULES = TriggerRule.options;

/** The providers the `provider` field may name: `openai`, the configured OpenAI-compatible endpoint (LLM_*); `offline`, the deterministic offline responder. */
export const PROVIDERS = ["openai", "offline"] as const;

/** `retry`: up to `max_attempts` retries after the first attempt, `delay_ms` doubled per attempt. */
export const RetryPolicy = z.object({
  max_attempts: z.number().int().min(1).max(5),
  delay_ms: z.number().int().min(1000).max(60_000).default(3000),
  /** `transient`: timeouts, network errors, 5xx and 429 from the LLM; `all`: any failure. */
  on_error: z.enum(["transient", "all"]).default("transient"),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

/** Fields every node kind has. */
const Common = {
  id: z.string().min(1),
  depends_on: z.array(z.string()).default([]),
  /** The condition's source text (`$a.output == 'x' && $b.output.n > 2`), parsed at load time (condition.ts). */
  when: z.string().optional(),
  trigger_rule: TriggerRule.default("all_success"),
  retry: RetryPolicy.optional(),
  /** Milliseconds; the node fails when it runs longer. */
  timeout: z.number().int().positive().optional(),
  /** A label the node's output is listed under in the run and its export. */
  output_type: z.string().optional(),
  /** Re-run on resume even when it completed. */
  always_run: z.boolean().default(false),
  /** AI nodes only (command, prompt, loop): override the workflow's provider and model. */
  provider: z.string().optional(),
  model: z.string().optional(),
};

export const LoopConfig = z.object({
  prompt: z.string(),
  /** The completion signal: on its own line, at the very end of the output, or as `<promise>SIGNAL</promise>`. */
  until: z.string().min(1),
  max_iterations: z.number().int().positive(),
  fresh_context: z.boolean().default(false),
  interactive: z.boolean().default(false),
  gate_message: z.string().optional(),
  until_bash: z.string().optional(),
  /** An interactive loop's questions: who answers them, and by when. */
  ...DecisionRules.shape,
});
export type LoopConfig = z.infer<typeof LoopConfig>;

export const OnReject = z.object({
  prompt: z.string(),
  max_attempts: z.number().int().min(1).max(10).default(3),
});

export const WorkflowNode = z.discriminatedUnion("kind", [
  z.object({ ...Common, kind: z.literal("command"), command: z.string() }),
  z.object({ ...Common, kind: z.literal("prompt"), prompt: z.string() }),
  z.object({ ...Common, kind: z.literal("bash"), bash: z.string() }),
  z.object({ ...Common, kind: z.literal("script"), script: z.string(), runtime: z.enum(["bun", "uv"]), deps: z.array(z.string()).default([]) }),
  z.object({ ...Common, kind: z.literal("loop"), loop: LoopConfig }),
  z.object({
    ...Common,
    kind: z.literal("approval"),
    approval: z.object({ message: z.string(), capture_response: z.boolean().default(false), on_reject: OnReject.optional(), ...DecisionRules.shape }),
  }),
  z.object({ ...Common, kind: z.literal("cancel"), cancel: z.string() }),
]);
export type WorkflowNode = z.infer<typeof WorkflowNode>;

export const WorkflowDefinition = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  provider: z.string().optional(),
  model: z.string().optional(),
  interactive: z.boolean().optional(),
  mutates_checkout: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  nodes: z.array(WorkflowNode).min(1),
});
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;

/** A problem or a warning, located in the YAML text: `nodes[2].depends_on[0]`, 1-based line and column. */
export const LocatedIssue = z.object({
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  message: z.string(),
});
export type LocatedIssue = z.infer<typeof LocatedIssue>;

export type LoadResult =
  | { ok: true; definition: WorkflowDefinition; warnings: LocatedIssue[] }
  | { ok: false; issues: LocatedIssue[]; warnings: LocatedIssue[] };

/** What rejecting an approval does: run its `on_reject` prompt and wait again, or cancel the run. */
export const RejectionOutcome = z.enum(["revise", "cancel"]);
export type RejectionOutcome = z.infer<typeof RejectionOutcome>;

/**
 * What rejecting the approval node does now, given the run's turns: with `on_reject`, its prompt runs with the reason
 * and the node waits again, until the rejection that reaches `max_attempts` (counted since the run was last resumed: a
 * resumed gate gets its attempts afresh); without it, or at that limit, the run is cancelled. `reject` acts on it, and
 * the conversation tells the reviewer before they decide.
 */
export function rejectionOutcome(node: Extract<WorkflowNode, { kind: "approval" }>, turns: readonly { id: number; kind: string; nodeId: string | null }[]): RejectionOutcome {
  const onReject = node.approval.on_reject;
  if (!onReject) return "cancel";
  const resumedAt = turns.filter((t) => t.kind === "resumed").at(-1)?.id ?? 0;
  const rejectionsSoFar = turns.filter((t) => t.kind === "rejected" && t.nodeId === node.id && t.id > resumedAt).length;
  return rejectionsSoFar + 1 < onReject.max_attempts ? "revise" : "cancel";
}
