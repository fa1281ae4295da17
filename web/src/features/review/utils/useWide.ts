/** Whether an element is at least `min` pixels wide, followed as it resizes (false where ResizeObserver is missing). */
import { useCallback, useRef, useState } from "react";

export function useWide<T extends HTMLElement>(min: number): [ref: (element: T | null) => void, wide: boolean] {
  const [wide, setWide] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (element: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || typeof ResizeObserver === "undefined") return;
      observer.current = new ResizeObserver(([entry]) => setWide((entry?.contentRect.width ?? 0) >= min));
      observer.current.observe(element);
    },
    [min],
  );
  return [ref, wide];
}
