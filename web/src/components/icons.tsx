/** Icons drawn in the text's colour beside a button's or a line's words, hidden from screen readers (the words say it). */
import type { ReactNode } from "react";

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
      {children}
    </svg>
  );
}

/** A stop sign: the cancel action and the cancellation it leaves in the conversation. */
export function StopIcon() {
  return (
    <Icon>
      <circle cx="10" cy="10" r="7.25" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <rect x="7.25" y="7.25" width="5.5" height="5.5" rx="1" fill="currentColor" />
    </Icon>
  );
}

export function CheckIcon() {
  return (
    <Icon>
      <path d="M5 10.5l3.2 3.2L15 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </Icon>
  );
}

export function SendIcon() {
  return (
    <Icon>
      <path d="M3.5 10h11M10.5 5l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </Icon>
  );
}

export function CloseIcon() {
  return (
    <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
