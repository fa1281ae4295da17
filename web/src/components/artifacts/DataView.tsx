/**
 * Renders any JSON value for reading: prose as paragraphs, lists of strings as lists, lists of
 * records as tables, nested records as labelled fields. Agents' artifacts vary in shape, so the
 * specific renderers lay out the fields they know and fall back to this for everything else.
 */
import { type ReactNode, memo } from "react";
import { Table } from "../Table";
import { humanizeKey, isPlainObject, isPrimitive, type Plain } from "./shape";
import { PartButton, PartThreads, fieldAnchor, useItemAnchors, usePartThreads } from "./parts";

const levelWords: Record<string, "high" | "medium" | "low"> = {
  high: "high", alta: "high", alto: "high", critical: "high", critica: "high", "crítica": "high", must: "high",
  medium: "medium", media: "medium", medio: "medium", moderate: "medium", should: "medium",
  low: "low", baja: "low", bajo: "low", minor: "low", could: "low",
};

/** Columns whose values are levels (impact, priority, ...) get a coloured chip so a risk table scans at a glance. */
const levelColumns = /^(impact|impacto|probability|probabilidad|likelihood|severity|severidad|priority|prioridad|risk_level|level|nivel)$/i;

function Level({ value }: { value: string }) {
  const level = levelWords[value.trim().toLowerCase()];
  return level ? <span className={`level level-${level}`}>{value}</span> : <>{value}</>;
}

export function Prose({ text, lead = false }: { text: string; lead?: boolean }) {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  if (paragraphs.length <= 1) return <p className={lead ? "prose lead" : "prose"}>{text.trim()}</p>;
  return (
    <div className={lead ? "prose lead" : "prose"}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
    </div>
  );
}

function PrimitiveView({ value }: { value: string | number | boolean | null | undefined }) {
  if (value === null || value === undefined || value === "") return <span className="muted">—</span>;
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  if (typeof value === "string" && (value.length > 160 || value.includes("\n"))) return <Prose text={value} />;
  return <>{String(value)}</>;
}

function isTabular(items: unknown[]): items is Plain[] {
  if (items.length === 0 || !items.every(isPlainObject)) return false;
  const columns = new Set(items.flatMap((item) => Object.keys(item)));
  if (columns.size > 7) return false;
  // Cells may hold short lists; anything deeper reads better as cards.
  return items.every((item) => Object.values(item).every((v) => isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive))));
}

function Cell({ column, value }: { column: string; value: unknown }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">—</span>;
    return (
      <ul className="cell-list">
        {value.map((item, i) => (
          <li key={i}>{String(item)}</li>
        ))}
      </ul>
    );
  }
  if (typeof value === "string" && levelColumns.test(column)) return <Level value={value} />;
  if (column === "id" && (typeof value === "string" || typeof value === "number")) return <code className="id-chip">{value}</code>;
  return <PrimitiveView value={value as string | number | boolean | null | undefined} />;
}

/** A cell of a sentence or more, which gets room to be read in lines (Table.css). */
const isProse = (value: unknown) => typeof value === "string" && value.length > 40 && /\s/.test(value);

/** One row; under review its first cell holds the row's comment button and its comments follow in a row of their own. */
function DataRow({ row, columns, anchor }: { row: Plain; columns: string[]; anchor: string | undefined }) {
  const threads = usePartThreads(anchor);
  return (
    <>
      <tr>
        {columns.map((column, i) => (
          <td key={column} className={column === "id" ? "nowrap" : isProse(row[column]) ? "cell-prose" : undefined}>
            <Cell column={column} value={row[column]} />
            {i === 0 ? <PartButton anchor={anchor} /> : null}
          </td>
        ))}
      </tr>
      {threads ? (
        <tr className="part-threads-row">
          <td colSpan={columns.length}>
            <div className="part-threads-frame">{threads}</div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

export function DataTable({ rows, caption, anchor }: { rows: Plain[]; caption?: string; anchor?: string }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const anchors = useItemAnchors(anchor);
  return (
    <Table label={caption ?? "Table"} caption={caption} columns={columns.map(humanizeKey)}>
      {rows.map((row, i) => (
        <DataRow key={i} row={row} columns={columns} anchor={anchors[i]} />
      ))}
    </Table>
  );
}

/**
 * One labelled part of an artifact: a heading over its value; half width on wide screens when `wide` is false. Under
 * review (`anchor`), the heading carries the field's comment button and its comments follow the value.
 */
export function DataField({ label, children, wide = true, anchor }: { label: string; children: ReactNode; wide?: boolean; anchor?: string }) {
  return (
    <section className={wide ? "field" : "field half"}>
      <div className="field-head">
        <h3 className="field-label">{label}</h3>
        <PartButton anchor={anchor} name={label} />
      </div>
      <div className="field-body">{children}</div>
      <PartThreads anchor={anchor} />
    </section>
  );
}

/** A list item under review: its content, its comment button, then its comments. */
function PartItem({ anchor, className, children }: { anchor: string | undefined; className?: string; children: ReactNode }) {
  return (
    <li className={className}>
      {children}
      <PartButton anchor={anchor} />
      <PartThreads anchor={anchor} />
    </li>
  );
}

/** `anchor`: the value's address while it is under review, so its items and fields carry comment buttons (parts.tsx). */
export const DataView = memo(function DataView({ value, label, anchor }: { value: unknown; label?: string; anchor?: string }): ReactNode {
  const items = useItemAnchors(anchor);
  if (isPrimitive(value)) return <PrimitiveView value={value} />;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">None</span>;
    if (value.every(isPrimitive)) {
      return (
        <ul className="bullet-list">
          {value.map((item, i) => (
            <PartItem key={i} anchor={items[i]}>
              <PrimitiveView value={item} />
            </PartItem>
          ))}
        </ul>
      );
    }
    if (isTabular(value)) return <DataTable rows={value} caption={label} anchor={anchor} />;
    return (
      <ol className="card-list">
        {value.map((item, i) => (
          <PartItem key={i} anchor={items[i]} className="sub-card">
            <DataView value={item} anchor={items[i]} />
          </PartItem>
        ))}
      </ol>
    );
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return <span className="muted">None</span>;
    if (entries.every(([, v]) => isPrimitive(v) && String(v ?? "").length <= 160)) {
      return (
        <dl className="kv">
          {entries.map(([key, v]) => (
            <div key={key} className="kv-row">
              <dt>{humanizeKey(key)}</dt>
              <dd>{levelColumns.test(key) && typeof v === "string" ? <Level value={v} /> : <PrimitiveView value={v as string} />}</dd>
            </div>
          ))}
        </dl>
      );
    }
    return (
      <div className="fields">
        {entries.map(([key, v]) => (
          <DataField key={key} label={humanizeKey(key)} anchor={fieldAnchor(anchor, key)}>
            <DataView value={v} label={humanizeKey(key)} anchor={fieldAnchor(anchor, key)} />
          </DataField>
        ))}
      </div>
    );
  }
  return <code>{JSON.stringify(value)}</code>;
});

/** Secondary facts of an item (kind, linked ids, ...) as one quiet line; anything nested falls back to the full view. */
export function MetaList({ record }: { record: Plain }) {
  const flat = Object.entries(record).filter(([, v]) => isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive)));
  const nested = Object.fromEntries(Object.entries(record).filter(([, v]) => !(isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive)))));
  return (
    <>
      {flat.length > 0 ? (
        <dl className="meta-list">
          {flat.map(([key, v]) => (
            <div key={key}>
              <dt>{humanizeKey(key)}</dt>
              <dd>{Array.isArray(v) ? (v.length > 0 ? v.join(", ") : "—") : <PrimitiveView value={v as string | number | boolean | null} />}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {Object.keys(nested).length > 0 ? <DataView value={nested} /> : null}
    </>
  );
}
