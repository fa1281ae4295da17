/**
 * A form for any JSON value, field by field and item by item: a text as a text box, a number, a yes/no; a record's
 * fields in a group; a list's items with move up, move down and remove, and "Add" for a new one shaped like the others.
 */
import { Field } from "../../../components/Field";
import { humanizeKey } from "../../../components/artifacts/shape";
import { type Path, moveItem, newItem, removeItem } from "../utils/editing";

interface ValueEditorProps {
  value: unknown;
  label: string;
  path: Path;
  onChange(path: Path, value: unknown): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function itemName(item: unknown, listLabel: string, i: number): string {
  if (isRecord(item)) {
    const id = item.id ?? item.story_id;
    if (typeof id === "string" && id.trim() !== "") return id;
  }
  return `${listLabel}, item ${i + 1}`;
}

function ListEditor({ value, label, path, onChange }: ValueEditorProps & { value: unknown[] }) {
  return (
    <fieldset className="edit-group edit-list">
      <legend>{label}</legend>
      <ol>
        {value.map((item, i) => {
          const name = itemName(item, label, i);
          return (
            <li key={i} className="edit-item">
              <ValueEditor value={item} label={name} path={[...path, i]} onChange={onChange} />
              <div className="edit-item-actions">
                <button type="button" className="button button-ghost button-small" disabled={i === 0} onClick={() => onChange(path, moveItem(value, i, i - 1))} aria-label={`Move ${name} up`}>
                  Move up
                </button>
                <button type="button" className="button button-ghost button-small" disabled={i === value.length - 1} onClick={() => onChange(path, moveItem(value, i, i + 1))} aria-label={`Move ${name} down`}>
                  Move down
                </button>
                <button type="button" className="button button-ghost button-small" onClick={() => onChange(path, removeItem(value, i))} aria-label={`Remove ${name}`}>
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" className="button button-secondary button-small" onClick={() => onChange(path, [...value, newItem(value)])}>
        Add to {label}
      </button>
    </fieldset>
  );
}

export function ValueEditor({ value, label, path, onChange }: ValueEditorProps) {
  if (typeof value === "string") {
    const empty = value.trim() === "";
    return (
      <Field
        className="edit-field"
        label={label}
        multiline
        rows={Math.min(8, Math.max(1, Math.ceil(value.length / 70), value.split("\n").length))}
        value={value}
        error={empty ? "Write this text, or remove its item." : null}
        onChange={(event) => onChange(path, event.target.value)}
      />
    );
  }
  if (typeof value === "number") {
    return <Field className="edit-field" label={label} type="number" value={String(value)} onChange={(event) => onChange(path, Number(event.target.value))} />;
  }
  if (typeof value === "boolean") {
    return (
      <label className="edit-check">
        <input type="checkbox" checked={value} onChange={(event) => onChange(path, event.target.checked)} /> {label}
      </label>
    );
  }
  if (Array.isArray(value)) return <ListEditor value={value} label={label} path={path} onChange={onChange} />;
  if (isRecord(value)) {
    const fields = Object.entries(value).map(([key, v]) => <ValueEditor key={key} value={v} label={humanizeKey(key)} path={[...path, key]} onChange={onChange} />);
    if (path.length === 0) return <div className="edit-fields">{fields}</div>;
    return (
      <fieldset className="edit-group">
        <legend>{label}</legend>
        {fields}
      </fieldset>
    );
  }
  return <p className="muted small">{label}: {value === null ? "empty" : JSON.stringify(value)} (edit it as JSON)</p>;
}
