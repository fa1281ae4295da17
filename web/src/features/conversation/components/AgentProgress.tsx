/** The pipeline as a row of steps: which agents are approved, which one holds the run now (or was stopped). */
import type { AgentRef, Conversation, ConversationMessage, PipelineAgent } from "../../../lib/trpc";

type StepState = "done" | "current" | "waiting" | "failed" | "cancelled" | "todo";

const stateText: Record<StepState, string> = {
  done: "approved",
  current: "working",
  waiting: "awaiting review",
  failed: "failed",
  cancelled: "stopped by the cancellation",
  todo: "not started",
};

/** The agent the conversation last heard from: once a run is cancelled its state no longer names one. */
function lastAgentSlug(messages: ConversationMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if ("agent" in message && message.agent) return message.agent.slug;
  }
  return null;
}

export function stepStates(agents: Pick<AgentRef, "slug">[], conversation: Pick<Conversation, "run" | "messages">): StepState[] {
  const approved = new Set(conversation.messages.filter((m) => m.kind === "approval").map((m) => (m.kind === "approval" ? m.agent.slug : "")));
  const { phase, agent: stateAgent } = conversation.run.state;
  const currentSlug = conversation.run.current_agent?.slug ?? stateAgent ?? (phase === "cancelled" ? lastAgentSlug(conversation.messages) : null);
  return agents.map((agent) => {
    if (phase === "completed" || approved.has(agent.slug)) return "done";
    if (agent.slug !== currentSlug) return "todo";
    if (phase === "failed") return "failed";
    if (phase === "cancelled") return "cancelled";
    return phase === "waiting_approval" ? "waiting" : "current";
  });
}

export function AgentProgress({ agents, conversation }: { agents: Pick<PipelineAgent, "slug" | "name" | "order">[]; conversation: Pick<Conversation, "run" | "messages"> }) {
  const states = stepStates(agents, conversation);
  return (
    <ol className="progress" aria-label="Pipeline progress">
      {agents.map((agent, i) => (
        <li key={agent.slug} className={`step step-${states[i]}`}>
          <span className="step-dot" aria-hidden="true">
            {states[i] === "done" ? "✓" : agent.order}
          </span>
          <span className="step-name">{agent.name}</span>
          <span className="visually-hidden">: {stateText[states[i]!]}</span>
        </li>
      ))}
    </ol>
  );
}
