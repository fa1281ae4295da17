/** The check's problems while drawing, each with a button that selects and shows the node or connection it concerns. */
import type { FlowGraph } from "../../../lib/trpc";
import type { FlowProblem } from "../model/problems";
import { nodeLabel } from "../model/nodeKinds";

export function ProblemsList({ problems, graph, checking, onShow }: { problems: FlowProblem[]; graph: FlowGraph; checking: boolean; onShow(problem: FlowProblem): void }) {
  const label = (id: string) => {
    const node = graph.nodes.find((n) => n.id === id);
    return node ? nodeLabel(node) : id;
  };
  return (
    <section className="designer-problems" aria-labelledby="designer-problems-title" aria-live="polite">
      <h2 id="designer-problems-title" className="inspector-subtitle">
        {problems.length === 0 ? (checking ? "Checking…" : "No problems") : `${problems.length} problem${problems.length > 1 ? "s" : ""}`}
      </h2>
      {problems.length ? (
        <ul className="problem-list">
          {problems.map((problem, i) => (
            <li key={i}>
              <span>{problem.message}</span>
              {problem.node_id || problem.edge_id ? (
                <button type="button" className="button button-ghost button-small" onClick={() => onShow(problem)}>
                  Show {problem.node_id ? label(problem.node_id) : `the connection ${problem.edge_id}`}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
