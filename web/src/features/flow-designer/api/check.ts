/**
 * The check while drawing: the graph is sent to the check endpoint (which applies exactly the rules storing applies
 * and stores nothing) a moment after it last changed, and the problems of the latest graph checked are shown. An
 * answer for a graph that has changed since is not shown as current: `checking` stays true until the latest is.
 */
import { useEffect, useRef, useState } from "react";
import { type FlowGraph, trpc } from "../../../lib/trpc";
import type { FlowProblem } from "../model/problems";

/** How long the graph must stay unchanged before it is checked: typing in a field is checked once it pauses. */
const CHECK_AFTER_MS = 300;

export function useFlowCheck(graph: FlowGraph, enabled = true): { problems: FlowProblem[]; checking: boolean; error: unknown } {
  const check = trpc.engine.flows.check.useMutation();
  const [answered, setAnswered] = useState<{ graph: FlowGraph; problems: FlowProblem[] } | null>(null);
  const latest = useRef(graph);
  latest.current = graph;
  const { mutate } = check;
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setTimeout(
      () => mutate({ graph }, { onSuccess: (answer) => latest.current === graph && setAnswered({ graph, problems: answer.problems }) }),
      CHECK_AFTER_MS,
    );
    return () => window.clearTimeout(timer);
  }, [graph, enabled, mutate]);
  return { problems: answered?.problems ?? [], checking: enabled && answered?.graph !== graph, error: check.error };
}
