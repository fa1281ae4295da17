/**
 * A form for any JSON value, field by field and item by item: a text as a text box, a number, a yes/no; a record's
 * fields in a group; a list's items with move up, move down and remove, and "Add" for a new one shaped like the others.
 * Fields come in the order the page shows them: the artifact's own order at the top (`fields`), and in a list of
 * records every field any of its items has, in the order of the table's columns; then every field the output's schema
 * names there that none has (`schema`). A field a record lacks (a capability without a domain) is offered empty, and
 * stays out of the output unless something is typed into it.
 */
import { Field } from "../../../components/Field";
import { humanizeKey } from "../../../components/artifacts/shape";
import type { ReviewOutput } from "../../../lib/trpc";
import { type Path, fieldsOfItems, moveItem, newItem, removeItem, schemaFieldsAt } from "../utils/editing";
import { isRecord } from "../../../lib/json";

type SchemaFields = ReviewOutput["fields"];

interface ValueEditorProps {
  value: unknown;
  label: string;
  path: Path;
  onChange(path: Path, value: unknown): void;
  /** A record's fields in the page's order, with a value like each one's (for a field this record lacks). */
  fields?: ReadonlyMap<string, unknown>;
  /** The value as the version holds it (undefined: a field it lacks, offered empty; emptied again, it is left out). */
  original?: unknown;
  /** For a field the record lacks: a value like the one its other items hold. */
  like?: unknown;
  /** The fields the output's schema names, by record path (server/lib/schemaFields.ts); none without a schema. */
  schema?: SchemaFields;
}


function itemName(item: unknown, listLabel: string, i: number): string {
  if (isRecord(item)) {
    const id = item.id ?? item.story_id;
    if (typeof id === "string" && id.trim() !== "") return id;
  }
  return `${listLabel}, item ${i + 1}`;
}

function ListEditor({ value, label, path, onChange, original, schema }: ValueEditorProps & { value: unknown[] }) {
  const fields = fieldsOfItems(value);
  return (
    <fieldset className="edit-group edit-list">
      <legend>{label}</legend>
      <ol>
        {value.map((item, i) => {
          const name = itemName(item, label, i);
          return (
            <li key={i} className="edit-item">
              <ValueEditor value={item} label={name} path={[...path, i]} onChange={onChange} fields={fields} original={Array.isArray(original) ? original[i] : undefined} schema={schema} />
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

export function ValueEditor({ value, label, path, onChange, fields, original, like, schema }: ValueEditorProps) {
  // A field the version lacks is offered like its neighbours' (a text, a list); other kinds are edited as JSON.
  if (value === undefined) {
    if (Array.isArray(like)) return <ListEditor value={[]} label={label} path={path} onChange={onChange} schema={schema} />;
    if (typeof like !== "string") return null;
  }
  if (value === undefined || (typeof value === "string" && original === undefined)) {
    const text = typeof value === "string" ? value : "";
    return (
      <Field
        className="edit-field"
        label={label}
        multiline
        rows={1}
        value={text}
        hint={text === "" ? "Empty: type to add it." : null}
        onChange={(event) => onChange(path, event.target.value === "" ? undefined : event.target.value)}
      />
    );
  }
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
  if (Array.isArray(value)) return <ListEditor value={value} label={label} path={path} onChange={onChange} original={original} schema={schema} />;
  if (isRecord(value)) {
    const named = schemaFieldsAt(schema ?? [], path);
    const known = [...(fields?.keys() ?? []), ...Object.keys(value).filter((key) => !fields?.has(key))];
    const keys = [...known, ...[...named.keys()].filter((key) => !known.includes(key))];
    const originalRecord = isRecord(original) ? original : {};
    const editors = keys.map((key) => (
      <ValueEditor
        key={key}
        value={value[key]}
        label={humanizeKey(key)}
        path={[...path, key]}
        onChange={onChange}
        original={originalRecord[key]}
        like={fields?.has(key) ? fields.get(key) : named.get(key)}
        schema={schema}
      />
    ));
    if (path.length === 0) return <div className="edit-fields">{editors}</div>;
    return (
      <fieldset className="edit-group">
        <legend>{label}</legend>
        {editors}
      </fieldset>
    );
  }
  return <p className="muted small">{label}: {value === null ? "empty" : JSON.stringify(value)} (edit it as JSON)</p>;
}
