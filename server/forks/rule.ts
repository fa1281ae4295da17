/**
 * Who may fork a run, decided in one place for every front door (each front door's fork commands apply it):
 * operators any run; the person who started it, her own run; a reviewer (or anyone a decision is assigned to) a run
 * she may decide in, from a node at or before a decision that waits for her, to try another direction without
 * deciding. Everyone else is refused, 403, with the rule named.
 */
import type { CompiledGraph } from "../engine/graph";
import { parseKey, reachable } from "../engine/graph";
import type { StartedBy } from "../engine/schemas";
import type { Role } from "../people/schemas";

export interface ForkCaller {
  accountId: string | null;
  role: Role | null;
}

export interface ForkAsk {
  caller: ForkCaller;
  runId: string;
  /** Who started the run. */
  startedBy: StartedBy | null;
  /** The node the fork is asked at. */
  nodeId: string;
  graph: CompiledGraph;
  /** The run's nodes whose open decisions the caller may take. */
  waitingForCaller: readonly string[];
}

export const FORK_RULE =
  "operators may fork any run, the person who started a run may fork it, and a reviewer may fork a run from a node at or before a decision that waits for her";

/** Why the caller may not fork, naming the rule; undefined when she may. */
export function whyNotFork(ask: ForkAsk): string | undefined {
  const { caller } = ask;
  if (caller.role === "operator") return undefined;
  if (caller.accountId !== null && ask.startedBy?.id === caller.accountId) return undefined;
  const chosen = parseKey(ask.graph, ask.nodeId)?.nodeId ?? ask.nodeId;
  const waiting = ask.waitingForCaller.flatMap((key) => parseKey(ask.graph, key)?.nodeId ?? []);
  if (waiting.some((nodeId) => reachable(ask.graph, nodeId, "upstream").has(chosen))) return undefined;
  const yours = waiting.length > 0 ? `; the decisions waiting for you are at ${waiting.map((id) => `"${id}"`).join(", ")}, and "${ask.nodeId}" is after them` : "";
  return `you may not fork run ${ask.runId} at "${ask.nodeId}": ${FORK_RULE}${yours}`;
}
