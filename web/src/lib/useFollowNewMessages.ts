import { useEffect, useLayoutEffect, useRef } from "react";

const nearBottomPx = 240;

/**
 * When a message arrives while the reader is at the end of the conversation, the new message's top is
 * brought into view; a reader scrolled up to read an earlier output is left where they are.
 */
export function useFollowNewMessages(count: number) {
  const container = useRef<HTMLDivElement>(null);
  const wasAtEnd = useRef(false);
  const previousCount = useRef(count);

  useEffect(() => {
    const measure = () => {
      const doc = document.documentElement;
      wasAtEnd.current = doc.scrollHeight - (window.scrollY + window.innerHeight) < nearBottomPx;
    };
    measure();
    window.addEventListener("scroll", measure, { passive: true });
    window.addEventListener("resize", measure);
    return () => {
      window.removeEventListener("scroll", measure);
      window.removeEventListener("resize", measure);
    };
  }, []);

  useLayoutEffect(() => {
    const grew = count > previousCount.current;
    previousCount.current = count;
    if (!grew || !wasAtEnd.current) return;
    const last = container.current?.lastElementChild;
    if (last instanceof HTMLElement && typeof last.scrollIntoView === "function") {
      // A long output is shown from its top; a short turn just enough to be seen.
      const block = last.offsetHeight > window.innerHeight * 0.5 ? "start" : "nearest";
      last.scrollIntoView({ block, behavior: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    }
  }, [count]);

  return container;
}
