/**
 * Draws a Mermaid source as an SVG. Mermaid is large, so it is loaded on first use; the source stays
 * one click away, and a source Mermaid cannot parse is shown as code with the parser's message.
 */
import { useEffect, useId, useState } from "react";
import { Notice } from "../Notice";
import { Spinner } from "../Spinner";
import { unfence } from "./shape";

type MermaidApi = typeof import("mermaid").default;
let mermaidLoading: Promise<MermaidApi> | null = null;

function loadMermaid(): Promise<MermaidApi> {
  mermaidLoading ??= import("mermaid").then(({ default: mermaid }) => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      suppressErrorRendering: true,
      theme: "neutral",
      fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif",
    });
    return mermaid;
  });
  return mermaidLoading;
}

type DrawState = { status: "drawing" } | { status: "drawn"; svg: string } | { status: "failed"; message: string };

export function MermaidDiagram({ source, title }: { source: string; title: string }) {
  const reactId = useId();
  const elementId = `mermaid-${reactId.replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const [state, setState] = useState<DrawState>({ status: "drawing" });

  useEffect(() => {
    let current = true;
    setState({ status: "drawing" });
    loadMermaid()
      .then((mermaid) => mermaid.render(elementId, unfence(source).trim()))
      .then(({ svg }) => current && setState({ status: "drawn", svg }))
      .catch((error: unknown) => current && setState({ status: "failed", message: error instanceof Error ? error.message : String(error) }));
    return () => {
      current = false;
    };
  }, [source, elementId]);

  return (
    <figure className="diagram">
      {state.status === "drawing" ? (
        <div className="diagram-placeholder">
          <Spinner label="Drawing diagram" /> <span className="muted">Drawing diagram…</span>
        </div>
      ) : state.status === "drawn" ? (
        <div className="diagram-canvas" role="img" aria-label={title} dangerouslySetInnerHTML={{ __html: state.svg }} />
      ) : (
        <Notice tone="warning" title="The diagram could not be drawn" alert>
          {state.message.split("\n")[0]}
        </Notice>
      )}
      <details className="diagram-source" open={state.status === "failed"}>
        <summary>Mermaid source</summary>
        <pre className="code-block">
          <code>{source}</code>
        </pre>
      </details>
    </figure>
  );
}
