/**
 * The designer's check of a graph (POST /api/stitch/flows/check) on large flows: what the server does for one request
 * after the network (parse the JSON body, validate it with its zod schema, list every problem storing would refuse),
 * timed on flows of 50, 500 and 2,000 nodes, valid and with a problem on every tenth Worker. Prints the median and the
 * 95th percentile of 40 checks each after 5 warm-up ones; the goal is a 2,000-node flow under 100 ms.
 *
 *   npm run bench:flow-check
 */
import { performance } from "node:perf_hooks";
import { graphProblems } from "../server/engine/graphProblems";
import type { StitchEdge, StitchGraph, StitchNode } from "../server/engine/schemas";
import { CheckGraphBody } from "../server/flows/versionSchemas";
import { literalRefusal, parseOutboundAllow } from "../server/lib/outboundPolicy";

const RUNS = 40;
const WARM_UP = 5;
const policy = parseOutboundAllow("127.0.0.0/8,::1");

/**
 * A flow of about `size` nodes as people draw large ones: a chain of stages, each a Worker reviewed by a gate, a
 * Splitter whose paths each run a Worker, and the Collector that closes it. `broken`: every tenth Worker has no webhook.
 */
function flowOf(size: number, broken: boolean): StitchGraph {
  const nodes: StitchNode[] = [];
  const edges: StitchEdge[] = [];
  let previous: string | undefined;
  const add = (node: Omit<StitchNode, "position">) => {
    nodes.push({ ...node, position: { x: nodes.length * 40, y: (nodes.length % 7) * 60 } });
    if (previous !== undefined) edges.push({ id: `${previous}->${node.id}`, source: previous, target: node.id });
    previous = node.id;
  };
  let workers = 0;
  const worker = (id: string) => ({ id, type: "Worker" as const, data: { label: `Work ${id}`, webhookUrl: broken && ++workers % 10 === 0 ? "" : `http://127.0.0.1:9/${id}`, timeoutMs: 60_000 } });
  for (let stage = 0; nodes.length < size; stage++) {
    add(worker(`w${stage}`));
    add({ id: `r${stage}`, type: "UX", data: { gate: "review", label: `Review ${stage}` } });
    add({ id: `s${stage}`, type: "Splitter", data: { arrayPath: "items" } });
    add(worker(`p${stage}`));
    add({ id: `c${stage}`, type: "Collector", data: {} });
  }
  return { nodes, edges };
}

const rule = (url: string) => literalRefusal(url, policy);

function measure(body: string): { median: number; p95: number; problems: number } {
  const times: number[] = [];
  let problems = 0;
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const start = performance.now();
    const { graph } = CheckGraphBody.parse(JSON.parse(body));
    problems = graphProblems(graph, rule).length;
    if (i >= WARM_UP) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]!, problems };
}

console.log("nodes  variant   body KB  median ms  p95 ms  problems");
for (const size of [50, 500, 2000]) {
  for (const broken of [false, true]) {
    const graph = flowOf(size, broken);
    const body = JSON.stringify({ graph });
    const { median, p95, problems } = measure(body);
    console.log(`${String(graph.nodes.length).padStart(5)}  ${(broken ? "problems" : "valid").padEnd(8)}  ${(body.length / 1024).toFixed(0).padStart(7)}  ${median.toFixed(1).padStart(9)}  ${p95.toFixed(1).padStart(6)}  ${String(problems).padStart(8)}`);
  }
}
