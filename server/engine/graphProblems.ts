/**
 * Everything storing a graph refuses, listed rather than thrown: the check a designer runs while drawing
 * (`POST /api/stitch/flows/check`) and the rule every flow and version is stored under (engine.ts) are this one
 * function, so the two cannot disagree. What MUST hold: the list is empty if and only if storing accepts the graph.
 * Pure: no database, no network (a Worker's `webhookUrl` is judged as written, as storing judges it; a host name that
 * resolves to a refused address is refused at dispatch).
 */
import { nulPath } from "../lib/json";
import { redactUrl } from "../lib/policedFetch";
import { GraphError, type GraphPlace, compileGraph, executorOf, nodeSpecOf } from "./graph";
import type { NodeSpec, StitchGraph } from "./schemas";

export interface GraphProblem extends GraphPlace {
  message: string;
}

/** The outbound-address policy on what a Worker's `webhookUrl` says: a reason to refuse it, or undefined. */
export type WebhookUrlRule = (url: string) => string | undefined;

const problemOf = (error: GraphError): GraphProblem => ({ ...definedOnly(error.at), message: error.message });

/** Leaves out places a GraphError does not know (an answer has no `node_id: undefined`). */
const definedOnly = (at: GraphPlace): GraphPlace => Object.fromEntries(Object.entries(at).filter(([, v]) => v !== undefined));

/** Runs one of compileGraph's checks; its GraphError becomes a problem, anything else is a bug and is thrown. */
function attempt<T>(problems: GraphProblem[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    problems.push(problemOf(error));
    return undefined;
  }
}

/**
 * The problems of a graph, in this order: text PostgreSQL cannot store, each node's own `data` (every node's first
 * problem, so a drawing sees them all at once), then the graph's structure (compileGraph: ids, edges, cycles,
 * Splitters and Collectors, review gates; it stops at its first problem, so it is asked only once every node's data
 * is right), then each Worker's `webhookUrl` under the outbound-address policy.
 */
export function graphProblems(graph: StitchGraph, webhookUrlRule?: WebhookUrlRule): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const nul = nulPath(graph, "graph");
  if (nul !== undefined) problems.push({ message: `${nul} contains the NUL character (\\u0000), which cannot be stored; remove it` });

  const specs = graph.nodes.map((node) => attempt(problems, () => nodeSpecOf(node)));
  if (specs.every((spec) => spec !== undefined)) attempt(problems, () => compileGraph(graph));

  for (const [i, node] of (webhookUrlRule ? graph.nodes : []).entries()) {
    const spec: NodeSpec | undefined = specs[i];
    if (node.type !== "Worker" || !spec || executorOf({ ...node, spec }) !== undefined) continue;
    const url = spec.webhookUrl ?? "";
    const reason = webhookUrlRule!(url);
    if (reason) {
      problems.push({
        node_id: node.id, field: "webhookUrl",
        message: `Worker node "${node.id}" has data.webhookUrl "${redactUrl(url)}", which the outbound-address policy refuses: ${reason}`,
      });
    }
  }
  return problems;
}
