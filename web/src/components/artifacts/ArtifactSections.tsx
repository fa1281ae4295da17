import type { ReactNode } from "react";
import { humanizeKey, isPlainObject } from "./shape";
import { DataField, DataView } from "./DataView";

/** How one known field of an artifact is laid out; fields the agent sent that no spec names still appear, generically. */
export interface FieldSpec {
  key: string;
  label: string;
  render?: (value: unknown) => ReactNode;
  /** Half width on wide screens, so pairs such as "in scope" / "out of scope" sit side by side. */
  half?: boolean;
}

export function ArtifactSections({ artifact, specs }: { artifact: unknown; specs: FieldSpec[] }) {
  if (!isPlainObject(artifact)) return <DataView value={artifact} />;
  const known = new Set(specs.map((spec) => spec.key));
  const present = specs.filter((spec) => artifact[spec.key] !== undefined);
  const others = Object.keys(artifact).filter((key) => !known.has(key));
  return (
    <div className="fields">
      {present.map((spec) => (
        <DataField key={spec.key} label={spec.label} wide={!spec.half}>
          {spec.render ? spec.render(artifact[spec.key]) : <DataView value={artifact[spec.key]} label={spec.label} />}
        </DataField>
      ))}
      {others.map((key) => (
        <DataField key={key} label={humanizeKey(key)}>
          <DataView value={artifact[key]} label={humanizeKey(key)} />
        </DataField>
      ))}
    </div>
  );
}
