/**
 * Two runs of one flow side by side, node by node, whichever front door they belong to (each linked to its own page): each run's status, duration and who decided, and what differs in
 * the outputs (the structural and word diff inline review shows), collapsed to the nodes that differ, with "Show
 * unchanged" for the rest. At 390 px the two sides stack.
 */
import { useState } from "react";
import { EngineRunPill } from "../../../components/StatusPill";
import { QueryPage } from "../../../components/QueryPage";
import { Link, runPageOf } from "../../../lib/router";
import type { RouterOutputs } from "../../../lib/trpc";
import { useRunComparison } from "../api/forks";
import { shownValue } from "../utils/turns";
import "../flow-conversation.css";

type Comparison = RouterOutputs["engine"]["runs"]["compare"];
type Node = Comparison["nodes"][number];
type Side = NonNullable<Node["a"]>;

/** A run as its front door names it: a pipeline run by its RUN_ id, any other by its id's first characters. */
const runName = (run: Comparison["a"]) => (run.owner?.front_door === "pipeline" ? run.owner.run_id : run.id.slice(0, 8));

const relationWords: Record<Comparison["relation"], string> = {
  parent: "B is the run A was forked from",
  child: "B was forked from A",
  siblings: "A and B were forked from the same run",
  same_definition: "Two runs of the same flow",
};

function duration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

function SideFacts({ side, name }: { side: Side | null; name: string }) {
  if (!side) return <p className="muted small">Run {name} has no such node.</p>;
  return (
    <dl className="compare-facts small">
      <dt>Status</dt>
      <dd>{side.status}</dd>
      <dt>Duration</dt>
      <dd>{side.copied_from ? "copied" : duration(side.duration_ms)}</dd>
      <dt>Decided</dt>
      <dd>{side.decided_by ? decidedText(side.decided_by, side.copied_from) : side.copied_from ? `in run ${side.copied_from.slice(0, 8)}` : "—"}</dd>
    </dl>
  );
}

function Diff({ node }: { node: Node }) {
  if (!node.diff) return <p className="muted small">Same output.</p>;
  if (node.diff.length === 0) return <p className="muted small">The outputs differ only in how they are written.</p>;
  return (
    <ul className="compare-diff">
      {node.diff.map((change) => (
        <li key={`${change.kind}:${change.anchor}`}>
          <span className="tag">{change.kind}</span> <strong>{change.label || "the output"}</strong>
          {change.pieces.length > 0 ? (
            <p className="diff-words">
              {change.pieces.map((piece, i) =>
                piece.op === "insert" ? <ins key={i}>{piece.text}</ins> : piece.op === "delete" ? <del key={i}>{piece.text}</del> : <span key={i}>{piece.text}</span>,
              )}
            </p>
          ) : (
            <p className="diff-words">
              {change.before !== undefined ? <del>{shownValue(change.before).text}</del> : null} {change.after !== undefined ? <ins>{shownValue(change.after).text}</ins> : null}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** `showType`: the engine's node type (Worker, UX) is a plain flow's words; a front door's runs are told in their own (their labels). */
function ComparedNode({ node, showType }: { node: Node; showType: boolean }) {
  return (
    <section className={`compare-node${node.same ? " compare-same" : ""}`} aria-label={`${node.label}: ${node.same ? "the same" : "differs"}`}>
      <h2 className="compare-node-title">
        {node.label}
        {showType && node.node_type ? <> <span className="tag flow-node-type">{node.node_type}</span></> : null} {node.same ? <span className="muted small">the same</span> : <span className="tag">differs</span>}
      </h2>
      <div className="compare-sides">
        <div>
          <h3 className="small">A</h3>
          <SideFacts side={node.a} name="A" />
        </div>
        <div>
          <h3 className="small">B</h3>
          <SideFacts side={node.b} name="B" />
        </div>
      </div>
      <Diff node={node} />
    </section>
  );
}

function Compared({ comparison }: { comparison: Comparison }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const differing = comparison.nodes.filter((n) => !n.same);
  const shown = showUnchanged ? comparison.nodes : differing;
  const unchanged = comparison.nodes.length - differing.length;
  return (
    <div className="page-pad run-compare">
      <header className="run-header">
        <h1 className="run-title">Compare runs</h1>
        <p className="small">{relationWords[comparison.relation]}.</p>
        <ul className="compare-runs small">
          {(["a", "b"] as const).map((key) => (
            <li key={key}>
              <strong>{key.toUpperCase()}</strong> <Link to={runPageOf(comparison[key])}>run {runName(comparison[key])}</Link> of {comparison[key].name} · v{comparison[key].flow_version} · <EngineRunPill status={comparison[key].status} />
            </li>
          ))}
        </ul>
        <p className="small">
          {differing.length} of {comparison.nodes.length} nodes differ.{" "}
          {unchanged > 0 ? (
            <button type="button" className="button button-secondary button-small" aria-pressed={showUnchanged} onClick={() => setShowUnchanged((v) => !v)}>
              {showUnchanged ? "Hide unchanged" : `Show unchanged (${unchanged})`}
            </button>
          ) : null}
        </p>
      </header>
      {shown.map((node) => (
        <ComparedNode key={node.node_id} node={node} showType={!comparison.a.owner && !comparison.b.owner} />
      ))}
    </div>
  );
}

export function RunComparePage({ a, b }: { a: string; b: string }) {
  return (
    <QueryPage query={useRunComparison(a, b)} what="comparison">
      {(comparison) => <Compared comparison={comparison} />}
    </QueryPage>
  );
}

/** Who decided a node and how; for a node a fork copied, in which run too. */
function decidedText(decided: { name: string | null; decision: string; run_id: string }, copiedFrom: string | null): string {
  const said = `${decided.decision.replace("_", " ")} by ${decided.name ?? "someone"}`;
  return copiedFrom ? `${said}, in run ${decided.run_id.slice(0, 8)}` : said;
}
