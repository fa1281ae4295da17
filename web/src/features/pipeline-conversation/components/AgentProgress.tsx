/**
 * The pipeline as a row of steps: which agents are approved, which one holds the run now (or was stopped). A step
 * with an output links to its latest one, which opens where it is (`onJump`).
 */
import type { MouseEvent } from "react";
import type { AgentRef, Conversation, PipelineAgent } from "../../../lib/trpc";
import { agentOf } from "../utils/agentOf";

type StepState = "done" | "current" | "waiting" | "failed" | "cancelled" | "todo";

const stateText: Record<StepState, string> = {
  done: "approved",
  current: "working",
  waiting: "awaiting review",
  failed: "failed",
  cancelled: "stopped by the cancellation",
  todo: "not started",
};

type Told = Pick<Conversation, "run" | "agents" | "turns">;

/** The agent the conversation last heard from: once a run is cancelled its state no longer names one. */
function lastAgentSlug({ agents, turns }: Told): string | null {
  for (let i = turns.length - 1; i >= 0; i--) {
    const agent = agentOf(agents, turns[i]!.node);
    if (agent) return agent.slug;
  }
  return null;
}

export function stepStates(agents: Pick<AgentRef, "slug">[], conversation: Told): StepState[] {
  const approved = new Set(conversation.turns.flatMap((t) => (t.kind === "decided" && t.body.decision === "approve" ? [agentOf(conversation.agents, t.node)?.slug] : [])));
  const { phase, agent: stateAgent } = conversation.run.state;
  const currentSlug = conversation.run.current_agent?.slug ?? stateAgent ?? (phase === "cancelled" ? lastAgentSlug(conversation) : null);
  return agents.map((agent) => {
    if (phase === "completed" || approved.has(agent.slug)) return "done";
    if (agent.slug !== currentSlug) return "todo";
    if (phase === "failed") return "failed";
    if (phase === "cancelled") return "cancelled";
    return phase === "waiting_approval" ? "waiting" : "current";
  });
}

/** The latest output of each agent (its turn's id), by the agent's slug. */
export function latestOutputs({ agents, turns }: Told): Map<string, string> {
  const latest = new Map<string, string>();
  for (const turn of turns) {
    const agent = turn.kind === "output" ? agentOf(agents, turn.node) : null;
    if (agent) latest.set(agent.slug, turn.id);
  }
  return latest;
}

export interface AgentProgressProps {
  agents: Pick<PipelineAgent, "slug" | "name" | "order">[];
  conversation: Told;
  /** The element id of an output's turn, for the step's link. */
  outputHref?: (turnId: string) => string;
  /** Opens the output, scrolls to it and focuses it. */
  onJump?: (turnId: string) => void;
}

export function AgentProgress({ agents, conversation, outputHref, onJump }: AgentProgressProps) {
  const states = stepStates(agents, conversation);
  const outputs = latestOutputs(conversation);
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
