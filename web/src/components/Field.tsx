/**
 * A labelled text box (an input, or a textarea with `multiline`) and the line under it: its hint, or its error
 * in the hint's place. That line describes the box (aria-describedby) and an error marks the box invalid;
 * `announce` says how screen readers hear the line change: an error as an alert, or every change politely.
 */
import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from "react";

interface FieldOwnProps {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  announce?: "alert" | "polite";
  /** The class of an element wrapping the field; without one, label, box and line sit directly in the form. */
  className?: string;
}

type ControlProps<Attributes> = Omit<Attributes, "id" | "className" | "aria-describedby" | "aria-invalid">;

export type FieldProps = FieldOwnProps &
  (({ multiline: true } & ControlProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) | ({ multiline?: false } & ControlProps<InputHTMLAttributes<HTMLInputElement>>));

export function Field(props: FieldProps) {
  const { label, hint, error, announce, className, ...control } = props;
  const id = useId();
  const lineId = useId();
  const line = error ?? hint;
  const wiring = { id, "aria-describedby": line ? lineId : undefined, "aria-invalid": error ? true : undefined };
  const field = (
    <>
      <label htmlFor={id} className="field-title">
        {label}
      </label>
      {control.multiline ? (
        <textarea {...withoutMultiline(control)} {...wiring} className="textarea" />
      ) : (
        <input {...withoutMultiline(control)} {...wiring} className="input" />
      )}
      {line ? (
        <p id={lineId} className={error ? "hint hint-error" : "hint"} role={error && announce === "alert" ? "alert" : undefined} aria-live={announce === "polite" ? "polite" : undefined}>
          {line}
        </p>
      ) : null}
    </>
  );
  return className ? <div className={className}>{field}</div> : field;
}

function withoutMultiline<T extends { multiline?: boolean }>({ multiline: _, ...rest }: T): Omit<T, "multiline"> {
  return rest;
}
