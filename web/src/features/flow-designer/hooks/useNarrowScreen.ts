/** Whether the screen is a phone's (at most 640 px wide): the designer opens read-only there, with the inspector usable. */
import { useSyncExternalStore } from "react";

const query = "(max-width: 640px)";

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
