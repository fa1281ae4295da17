import type { ReactNode } from "react";
import { humanizeKey, isPlainObject } from "./shape";
import { DataField, DataView } from "./DataView";
import { fieldAnchor } from "./parts";

/** How one known field of an artifact is laid out; fields the agent sent that no spec names still appear, generically. */
export interface FieldSpec {
  key: string;
  label: string;
  /** `anchor`: the field's address for comments while it is under review (parts.tsx), undefined otherwise. */
  render?: (value: unknown, anchor: string | undefined) => ReactNode;
  /** Half width on wide screens, so pairs such as "in scope" / "out of scope" sit side by side. */
  half?: boolean;
}

/** `anchor`: the artifact's own address ("" for an output's root) while it is under review. */
export function ArtifactSections({ artifact, specs, anchor = "" }: { artifact: unknown; specs: FieldSpec[]; anchor?: string }) {
  if (!isPlainObject(artifact)) return <DataView value={artifact} anchor={anchor} />;
  const known = new Set(specs.map((spec) => spec.key));
  const present = specs.filter((spec) => artifact[spec.key] !== undefined);
  const others = Object.keys(artifact).filter((key) => !known.has(key));
  return (
    <div className="fields">
      {present.map((spec) => (
        <DataField key={spec.key} label={spec.label} wide={!spec.half} anchor={fieldAnchor(anchor, spec.key)}>
          {spec.render ? spec.render(artifact[spec.key], fieldAnchor(anchor, spec.key)) : <DataView value={artifact[spec.key]} label={spec.label} anchor={fieldAnchor(anchor, spec.key)} />}
        </DataField>
      ))}
      {others.map((key) => (
        <DataField key={key} label={humanizeKey(key)} anchor={fieldAnchor(anchor, key)}>
          <DataView value={artifact[key]} label={humanizeKey(key)} anchor={fieldAnchor(anchor, key)} />
        </DataField>
      ))}
    </div>
  );
}
