/**
 * The palette: the node kinds, searchable. A kind is added by a click or Enter (after the selected node, connected
 * from it, so the keyboard alone builds a chain) or dragged onto the canvas where it should go.
 */
import { useId, useState } from "react";
import { type NodeKind, searchKinds } from "../model/nodeKinds";
import { PALETTE_DRAG_TYPE } from "./DesignerCanvas";

export function Palette({ afterLabel, onAdd }: { afterLabel: string | null; onAdd(kind: NodeKind): void }) {
  const [query, setQuery] = useState("");
  const searchId = useId();
  const hintId = useId();
  const kinds = searchKinds(query);
  return (
    <section className="designer-palette" aria-label="Palette">
      <label htmlFor={searchId} className="field-title">
        Add a node
      </label>
      <input id={searchId} className="input" type="search" value={query} placeholder="Search: worker, gate, split…" aria-describedby={hintId} onChange={(e) => setQuery(e.target.value)} />
      <p id={hintId} className="hint">
        {afterLabel ? `Adds after "${afterLabel}" and connects it.` : "Select a node first to add after it and connect it."}
      </p>
      <ul className="palette-list">
        {kinds.map((kind) => (
          <li key={kind.kind}>
            <button
              type="button"
              className={`palette-item node-kind-${kind.kind}`}
              draggable
              onDragStart={(event) => {
                event.dataTransfer.setData(PALETTE_DRAG_TYPE, kind.kind);
                event.dataTransfer.effectAllowed = "copy";
              }}
              onClick={() => onAdd(kind.kind)}
              aria-describedby={`${hintId}`}
            >
              <span className="palette-item-name">Add {kind.label}</span>
              <span className="palette-item-help">{kind.help}</span>
            </button>
          </li>
        ))}
        {kinds.length === 0 ? <li className="muted small">No node kind matches "{query}".</li> : null}
      </ul>
    </section>
  );
}
