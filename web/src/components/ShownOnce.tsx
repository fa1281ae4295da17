/**
 * A secret the server answers once (an invitation's link, an API token, a webhook subscription's signing secret): shown in a read-only
 * box with "Copy", a warning that it will not be shown again, and "Done" to put it away.
 */
import { type ReactNode, useId, useRef } from "react";
import { useCopyText } from "../lib/useCopyText";
import { CheckIcon } from "./icons";
import "./ShownOnce.css";

export function ShownOnce({ title, label, value, children, onDone }: { title: string; label: string; value: string; children: ReactNode; onDone(): void }) {
  const boxRef = useRef<HTMLInputElement>(null);
  const [copy, copyText] = useCopyText(boxRef);
  const titleId = useId();
  const copyValue = () => copyText(value);
  return (
    <section className="shown-once" aria-labelledby={titleId}>
      <h3 id={titleId} className="shown-once-title">
        {title}
      </h3>
      <div className="shown-once-body">{children}</div>
      <div className="copy-row">
        <input ref={boxRef} className="input copy-value" readOnly value={value} aria-label={label} onFocus={(event) => event.target.select()} />
        <button type="button" className="button button-secondary" onClick={() => void copyValue()}>
          {copy === "copied" ? <CheckIcon /> : null}
          {copy === "copied" ? "Copied" : "Copy"}
        </button>
      </div>
      <p className="hint" role="status">
        {copy === "failed" ? "This browser did not let the app copy it: the text is selected, copy it with Ctrl+C." : "It will not be shown again."}
      </p>
      <div className="composer-actions">
        <button type="button" className="button button-ghost button-small" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
