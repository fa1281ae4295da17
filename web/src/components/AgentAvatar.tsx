import type { AgentRef } from "../lib/trpc";
import "./AgentAvatar.css";

/** An agent's round badge in its own colour, showing its place in the pipeline; without an agent, the system's "!". */
export function AgentAvatar({ agent }: { agent: Pick<AgentRef, "slug" | "order"> | null }) {
  return (
    <span className={`avatar avatar-agent avatar-${agent?.slug ?? "system"}`} aria-hidden="true">
      {agent ? agent.order : "!"}
    </span>
  );
}

/** The initial a person's avatar shows: their name's first letter, or `fallback` when no name was recorded. */
export const personInitial = (name: string | null, fallback: string) => name?.trim().charAt(0).toUpperCase() || fallback;

/** The person's side of the conversation: "A" for the analyst who wrote the brief, a decision's author's initial. */
export function PersonAvatar({ initial }: { initial: string }) {
  return (
    <span className="avatar avatar-human" aria-hidden="true">
      {initial}
    </span>
  );
}
