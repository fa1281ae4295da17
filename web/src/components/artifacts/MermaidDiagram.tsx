/**
 * Draws a Mermaid source as an SVG. Mermaid is large, so it is loaded on first use; the source stays
 * one click away, and a source Mermaid cannot parse is shown as code with the parser's message.
 *
 * The source is an agent's output, so nothing in it may run or fetch: Mermaid draws at its strict security level
 * (no click handlers, no scripts) and with every label as SVG text, never HTML, so a label such as
 * `<img src=http://...>` reads as those characters rather than becoming an element (at "strict", Mermaid's HTML labels
 * keep `<img>`, and the browser would fetch it). A diagram cannot turn that back on: `htmlLabels` joins Mermaid's
 * secure keys, which `%%{init}%%` directives and front matter may not change. The server's Content-Security-Policy
 * (server/http/securityHeaders.ts) limits images and connections to this server besides.
 */
import { useEffect, useId, useState } from "react";
import { DiagramViewer } from "./DiagramViewer";
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
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      // Mermaid's own secure keys (securityLevel among them), and ours.
      secure: [...(mermaid.mermaidAPI.defaultConfig.secure ?? []), "htmlLabels"],
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
  const [fullScreen, setFullScreen] = useState(false);

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
        <>
          {/* A tap on the diagram (or its button) opens it full screen, to zoom and pan. */}
          <div className="diagram-canvas" role="img" aria-label={title} onClick={() => setFullScreen(true)} dangerouslySetInnerHTML={{ __html: state.svg }} />
          <button type="button" className="button button-secondary button-small diagram-open" aria-label={`Open full screen: ${title}`} onClick={() => setFullScreen(true)}>
            Open full screen
          </button>
          {fullScreen ? <DiagramViewer svg={state.svg} title={title} onClose={() => setFullScreen(false)} /> : null}
        </>
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
