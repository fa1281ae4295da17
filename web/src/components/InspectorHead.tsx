/** The head of a node's side panel (the graph view's details, the designer's fields): its name, its kind and id, and the button that closes it. */
import type { ReactNode } from "react";
import { CloseIcon } from "./icons";

export function InspectorHead({ titleId, title, kind, nodeId, closeLabel, onClose }: {
  /** The heading's element id: the panel is labelled by it. */
  titleId: string;
  title: ReactNode;
  kind: ReactNode;
  nodeId: string;
  closeLabel: string;
  onClose(): void;
}) {
  return (
    <header className="inspector-head">
      <div>
        <h2 id={titleId} className="inspector-title">{title}</h2>
        <p className="muted small">
          {kind} · <code>{nodeId}</code>
        </p>
      </div>
      <button type="button" className="icon-button" onClick={onClose} aria-label={closeLabel}>
        <CloseIcon />
      </button>
    </header>
  );
}
