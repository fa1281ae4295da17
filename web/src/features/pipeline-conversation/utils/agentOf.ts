/**
 * Which of the run's agents a turn is about. The engine names an agent's node `agent_<slug>` and its review's
 * `review_<slug>`; a turn names the node, and the conversation's `agents` say each agent's place and artifact type.
 */
import type { TurnNode } from "../../../components/turns";
import type { AgentRef } from "../../../lib/trpc";

export const agentNodeId = (slug: string) => `agent_${slug}`;
export const reviewNodeId = (slug: string) => `review_${slug}`;

/** The agent whose node (or whose review's node) `node` is; null for a turn about no agent of the run. */
export function agentOf(agents: readonly AgentRef[], node: TurnNode | null): AgentRef | null {
  if (!node) return null;
  return agents.find((a) => node.id === agentNodeId(a.slug) || node.id === reviewNodeId(a.slug)) ?? null;
}
