/**
 * The pipeline as a row of steps: which agents are approved, which one holds the run now (or was stopped). A step
 * with an output links to its latest one, which opens where it is (`onJump`).
 */
import type { MouseEvent } from "react";
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

/** The latest output of each agent, by its slug. */
export function latestOutputs(messages: ConversationMessage[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (const message of messages) if (message.kind === "artifact") latest.set(message.agent.slug, message.id);
  return latest;
}

export interface AgentProgressProps {
  agents: Pick<PipelineAgent, "slug" | "name" | "order">[];
  conversation: Pick<Conversation, "run" | "messages">;
  /** The element id of an output's turn, for the step's link. */
  outputHref?: (messageId: string) => string;
  /** Opens the output, scrolls to it and focuses it. */
  onJump?: (messageId: string) => void;
}

export function AgentProgress({ agents, conversation, outputHref, onJump }: AgentProgressProps) {
  const states = stepStates(agents, conversation);
  const outputs = latestOutputs(conversation.messages);
  return (
    <ol className="progress" aria-label="Pipeline progress">
      {agents.map((agent, i) => {
        const output = outputs.get(agent.slug);
        const content = (
          <>
            <span className="step-dot" aria-hidden="true">
              {states[i] === "done" ? "✓" : agent.order}
            </span>
            <span className="step-name">{agent.name}</span>
            <span className="visually-hidden">: {stateText[states[i]!]}</span>
          </>
        );
        const jump = (event: MouseEvent<HTMLAnchorElement>) => {
          if (!onJump || !output) return;
          event.preventDefault();
          onJump(output);
        };
        return (
          <li key={agent.slug} className={`step step-${states[i]}`}>
            {output && outputHref ? (
              <a className="step-link" href={`#${outputHref(output)}`} onClick={jump} title={`Go to the ${agent.name} output`}>
                {content}
              </a>
            ) : (
              content
            )}
          </li>
        );
      })}
    </ol>
  );
}
