/** What a revision changed and why: the reviewer's feedback answered in the agent's own words. */
import { humanizeKey, isPrimitive } from "./shape";
import type { Envelope } from "./shape";
import { DataView, Prose } from "./DataView";
import "./artifacts.css";

const groups = [
  { key: "added", label: "Added", mark: "+" },
  { key: "modified", label: "Modified", mark: "~" },
  { key: "removed", label: "Removed", mark: "−" },
] as const;

/** Agents name the fields they touched ("problem_statement_refined", "core_capabilities: CAP-002 ..."); show those names as words. */
export function readableChange(item: string): string {
  const named = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(:\s*|$)([\s\S]*)$/.exec(item);
  return named ? `${humanizeKey(named[1]!)}${named[2]}${named[3]}` : item;
}

/** `label`, the region's name when the title alone could be another region's (default: the title). */
export function ChangesMade({ changes, justification, title, label = title }: { changes: Envelope["changes"]; justification: string | null; title: string; label?: string }) {
  const nonEmpty = changes ? groups.filter((g) => changes[g.key].length > 0) : [];
  if (nonEmpty.length === 0 && !justification) return null;
  return (
    <section className="changes" aria-label={label}>
      <h3 className="changes-title">{title}</h3>
      {nonEmpty.length > 0 ? (
        <div className="change-groups">
          {nonEmpty.map((group) => (
            <div key={group.key} className={`change-group change-${group.key}`}>
              <span className="mini-label">{group.label}</span>
              <ul>
                {changes![group.key].map((item, i) => (
                  <li key={i}>
                    <span className="change-mark" aria-hidden="true">{group.mark}</span>
                    {isPrimitive(item) ? <span>{readableChange(String(item))}</span> : <DataView value={item} />}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
      {justification ? (
        <div className="justification">
          <span className="mini-label">Justification</span>
          <Prose text={justification} />
        </div>
      ) : null}
    </section>
  );
}
