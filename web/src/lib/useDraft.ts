/**
 * What a person types in a composer is kept until it is sent: in the tab's sessionStorage under a key naming what it
 * answers (a run's node, an output's version), so neither a poll that re-renders the page, nor a composer that goes
 * and comes back (the run moved, the person looked at the graph), nor a reload loses it. The composer clears it once
 * the server has accepted it; a refused one stays, to be sent again.
 */
import { useCallback, useState } from "react";

const prefix = "stitch:draft:";

function read(key: string | null): string {
  if (key === null) return "";
  try {
    return window.sessionStorage.getItem(prefix + key) ?? "";
  } catch {
    // Storage may be unavailable (a private window's quota, a sandboxed frame): the draft then lives in the page only.
    return "";
  }
}

function write(key: string | null, text: string): void {
  if (key === null) return;
  try {
    if (text === "") window.sessionStorage.removeItem(prefix + key);
    else window.sessionStorage.setItem(prefix + key, text);
  } catch {
    // As above: kept in the page only.
  }
}

/** The draft under `key` (null: kept in the page only), a setter that keeps each change, and `clear` for once it is sent. */
export function useDraft(key: string | null): [text: string, setText: (text: string) => void, clear: () => void] {
  const [state, setState] = useState(() => ({ key, text: read(key) }));
  // Another key (another decision in the same place) starts from its own draft.
  let current = state;
  if (state.key !== key) {
    current = { key, text: read(key) };
    setState(current);
  }
  const setText = useCallback(
    (text: string) => {
      setState({ key, text });
      write(key, text);
    },
    [key],
  );
  const clear = useCallback(() => setText(""), [setText]);
  return [current.text, setText, clear];
}

/** Forgets the draft under `key` from outside its composer (a refused decision's text, once re-sent or discarded). */
export const forgetDraft = (key: string | null) => write(key, "");

/** Where a person's input for a flow node (a UX node's output, a review gate's feedback) is kept: the same key in the graph and in the run's conversation. */
export const flowDraftKey = (engineRunId: string, nodeKey: string, field: "output" | "feedback") => `flow:${engineRunId}:${nodeKey}:${field}`;
