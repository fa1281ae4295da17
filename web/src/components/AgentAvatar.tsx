import type { AgentRef } from "../lib/trpc";
import "./AgentAvatar.css";

/** A round badge beside a turn, its colour from `className`, showing `glyph`: an agent's place, a node's kind. */
export function GlyphAvatar({ className, glyph }: { className: string; glyph: string | number }) {
  return (
    <span className={`avatar ${className}`} aria-hidden="true">
      {glyph}
    </span>
  );
}

/** An agent's round badge in its own colour, showing its place in the pipeline; without an agent, the system's "!". */
export function AgentAvatar({ agent }: { agent: Pick<AgentRef, "slug" | "order"> | null }) {
  return <GlyphAvatar className={`avatar-agent avatar-${agent?.slug ?? "system"}`} glyph={agent ? agent.order : "!"} />;
}

/**
 * The initials a person's avatar shows: the first letters of the first and last words of the account's name ("Ann
 * Analyst" -> "AA", "rita" -> "R"); none when no name was recorded (the avatar then shows a person's outline).
 */
export function personInitials(name: string | null | undefined): string {
  const words = (name ?? "").trim().split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  if (words.length === 0) return "";
  const first = (w: string) => (w.match(/[\p{L}\p{N}]/u)?.[0] ?? "").toUpperCase();
  return words.length === 1 ? first(words[0]!) : first(words[0]!) + first(words[words.length - 1]!);
}

/** A person's side of a conversation: the initials of whoever acted, named in full for the tooltip. */
export function PersonAvatar({ name }: { name: string | null | undefined }) {
  const initials = personInitials(name);
  return (
    <span className="avatar avatar-human" aria-hidden="true" title={name ?? undefined}>
      {initials || (
        <svg className="icon" viewBox="0 0 20 20">
          <circle cx="10" cy="7" r="3.5" fill="currentColor" />
          <path d="M3.5 17c.8-3.4 3.4-5 6.5-5s5.7 1.6 6.5 5" fill="currentColor" />
        </svg>
      )}
    </span>
  );
}
