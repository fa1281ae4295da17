/** Every node and splitter path of the run as a table: the graph's content in a form that reads on a phone and from the keyboard. */
import { Fragment } from "react";
import { Table } from "../../../components/Table";
import { type NodeView, statusLabel } from "../utils/nodeStates";

const columns = ["Node", "Type", "Status", <span className="visually-hidden">Details</span>];

export function NodeTable({ views, selectedKey, onSelect }: { views: NodeView[]; selectedKey: string | null; onSelect(key: string): void }) {
  return (
    <Table label="Nodes" className="node-table" columns={columns}>
      {views.map((view) => (
        <Fragment key={view.id}>
          <tr className={selectedKey === view.id ? "is-selected" : undefined}>
            <td>
              <span className="node-label">{view.label}</span> {view.label !== view.id ? <code className="muted small">{view.id}</code> : null}
            </td>
            <td>{view.type}</td>
            <td>
              <span className={`node-status status-${view.summary}`}>{statusLabel[view.summary]}</span>
              {view.paths.length > 0 ? <span className="muted small"> · {view.paths.length} paths</span> : null}
            </td>
            <DetailsCell label={view.label} onClick={() => onSelect(view.id)} />
          </tr>
          {view.paths.map((path) => (
            <tr key={path.key} className={`path-row${selectedKey === path.key ? " is-selected" : ""}`}>
              <td>
                <span className="path-indent" aria-hidden="true">↳</span> path {path.indices.join(".")} <code className="muted small">{path.key}</code>
              </td>
              <td>{view.type}</td>
              <td>
                <span className={`node-status status-${path.state.status}`}>{statusLabel[path.state.status]}</span>
              </td>
              <DetailsCell label={path.key} onClick={() => onSelect(path.key)} />
            </tr>
          ))}
        </Fragment>
      ))}
    </Table>
  );
}

/** "Details" opens the node's (or path's) inspector; its accessible name says whose. */
function DetailsCell({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <td className="nowrap">
      <button type="button" className="button button-ghost button-small" onClick={onClick} aria-label={`Details of ${label}`}>
        Details
      </button>
    </td>
  );
}
