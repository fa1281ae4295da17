import type { ReactNode } from "react";
import "./Table.css";

/**
 * A table that scrolls sideways inside its own region (named `label`, reachable from the keyboard) rather than
 * widening the page. `caption` is the table's own name for screen readers; `children` are its body's rows.
 */
export function Table({ label, caption, className, columns, children }: { label: string; caption?: string; className?: string; columns: ReactNode[]; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className={className ? `data-table ${className}` : "data-table"}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
