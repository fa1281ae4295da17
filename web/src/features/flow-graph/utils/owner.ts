/**
 * An engine run that a front door owns (the agent pipeline, a YAML or a step workflow) is changed only through that
 * front door's commands: the engine's generic doors refuse it. The graph view therefore sends people to the owner's
 * page for decisions and the run's cancellation, and retries a failed node through the owner's own retry.
 */
import { paths } from "../../../lib/router";
import type { EngineRun } from "../../../lib/trpc";

export type RunOwner = NonNullable<EngineRun["owner"]>;

const NAMES: Record<RunOwner["front_door"], string> = { pipeline: "agent pipeline", yaml: "workflow", steps: "step workflow" };

/** The owner's page of the run: its conversation, where its decisions and its cancellation are. */
export function ownerPage(owner: RunOwner): string {
  if (owner.front_door === "pipeline") return paths.run(owner.run_id);
  return owner.front_door === "yaml" ? paths.workflows.run(owner.run_id) : paths.steps.run(owner.run_id);
}

export const ownerName = (owner: RunOwner): string => NAMES[owner.front_door];

/**
 * Whether the owner lets a person retry this failed node from the graph: a pipeline retries only its agents (the
 * Workers `agent_<slug>`, through the run's own retry), a workflow any of its nodes or steps.
 */
export function ownerRetries(owner: RunOwner, nodeKey: string): boolean {
  return owner.front_door !== "pipeline" || nodeKey.startsWith("agent_");
}
