/**
 * The selected node's fields, edited in place: each change is written into the node at once (one undo step per field
 * while typing in it) and said wrong under the field as it is typed. A field's text stays as typed while the node's
 * data is the data that text made, so text that is not valid yet (half a JSON object) is never reformatted under the
 * cursor; an undo that changes the data shows the data again.
 */
import { useId, useRef } from "react";
import { Field } from "../../../components/Field";
import type { FlowNode } from "../../../lib/trpc";
import { type FieldSpec, fieldsOf } from "../model/fields";
import { kindOfNode } from "../model/nodeKinds";

export function NodeFields({ node, editable, serverProblems, onChange }: {
  node: FlowNode;
  editable: boolean;
  /** The check's problems about this node's fields, by `data` key. */
  serverProblems: ReadonlyMap<string, string>;
  onChange(data: Record<string, unknown>, field: string): void;
}) {
  const typed = useRef(new Map<string, { text: string; madeData: Record<string, unknown> }>());
  return (
    <div className="designer-fields">
      {fieldsOf[kindOfNode(node)].map((spec) => {
        const key = `${node.id}:${spec.key}`;
        const kept = typed.current.get(key);
        const text = kept && kept.madeData === node.data ? kept.text : spec.get(node.data);
        const write = (value: string) => {
          const data = spec.set(node.data, value);
          typed.current.set(key, { text: value, madeData: data });
          onChange(data, spec.key);
        };
        const error = spec.problem(text, node.data) ?? serverProblems.get(spec.key.split(".")[0]!) ?? null;
        return <FieldControl key={key} spec={spec} text={text} error={error} editable={editable} onChange={write} />;
      })}
    </div>
  );
}

function FieldControl({ spec, text, error, editable, onChange }: { spec: FieldSpec; text: string; error: string | null; editable: boolean; onChange(text: string): void }) {
  const id = useId();
  const hintId = useId();
  if (spec.control === "select") {
    return (
      <div className="field">
        <label htmlFor={id} className="field-title">
          {spec.label}
        </label>
        <select id={id} className="input" value={text} disabled={!editable} aria-describedby={hintId} onChange={(e) => onChange(e.target.value)}>
          {spec.options!.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <p id={hintId} className="hint">
          {spec.help}
        </p>
      </div>
    );
  }
  return (
    <Field
      className="field"
      label={spec.label}
      hint={spec.help}
      error={error}
      announce="polite"
      value={text}
      readOnly={!editable}
      spellCheck={false}
      {...(spec.control === "textarea" ? { multiline: true as const, rows: 4, onChange: (e: { target: { value: string } }) => onChange(e.target.value) } : { onChange: (e: { target: { value: string } }) => onChange(e.target.value) })}
    />
  );
}
