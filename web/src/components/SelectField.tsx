/**
 * A labelled choice among a few options, styled as the text boxes are (components/Field.tsx), with the line under
 * it: its hint, or its error in the hint's place, which describes the box.
 */
import { type SelectHTMLAttributes, useId } from "react";
import "./SelectField.css";

export interface SelectOption {
  value: string;
  label: string;
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "className" | "aria-describedby" | "aria-invalid" | "children"> & {
  label: string;
  options: SelectOption[];
  hint?: string;
  error?: string | null;
  /** The class of an element wrapping the field. */
  className?: string;
};

export function SelectField({ label, options, hint, error, className, ...select }: SelectFieldProps) {
  const id = useId();
  const lineId = useId();
  const line = error ?? hint;
  return (
    <div className={className ? `select-field ${className}` : "select-field"}>
      <label htmlFor={id} className="field-title">
        {label}
      </label>
      <select {...select} id={id} className="input" aria-describedby={line ? lineId : undefined} aria-invalid={error ? true : undefined}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {line ? (
        <p id={lineId} className={error ? "hint hint-error" : "hint"} role={error ? "alert" : undefined}>
          {line}
        </p>
      ) : null}
    </div>
  );
}
