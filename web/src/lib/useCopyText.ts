/**
 * "Copy" for a text shown in a box: the clipboard when the browser allows it, else the box's text is selected for the
 * person to copy with Ctrl+C. `copy` answers what happened, for the button and the line under it.
 */
import { type RefObject, useState } from "react";

export function useCopyText(box: RefObject<HTMLInputElement | HTMLTextAreaElement | null>): [state: "copied" | "failed" | null, copy: (text: string) => Promise<void>] {
  const [state, setState] = useState<"copied" | "failed" | null>(null);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      // No clipboard here (an insecure origin, a refused permission): the text is selected for the person to copy.
      box.current?.select();
      setState("failed");
    }
  };
  return [state, copy];
}
