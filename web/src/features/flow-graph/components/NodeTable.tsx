/** Every node and splitter path of the run as a table: the graph's content in a form that reads on a phone and from the keyboard. */
import { Fragment } from "react";
import { type NodeView, statusLabel } from "../utils/nodeStates";

export function NodeTable({ views, selectedKey, onSelect }: { views: NodeView[]; selectedKey: string | null; onSelect(key: string): void }) {
  return (
    <div className="table-scroll" role="region" aria-label="Nodes" tabIndex={0}>
      <table className="data-table node-table">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
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
                <td className="nowrap">
                  <button type="button" className="button button-ghost button-small" onClick={() => onSelect(view.id)} aria-label={`Details of ${view.label}`}>
                    Details
                  </button>
                </td>
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
                  <td className="nowrap">
                    <button type="button" className="button button-ghost button-small" onClick={() => onSelect(path.key)} aria-label={`Details of ${path.key}`}>
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
