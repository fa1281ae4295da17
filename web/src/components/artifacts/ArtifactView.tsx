/**
 * One artifact rendered for reading, chosen by artifact type. Every field the agent sent is shown:
 * the known ones in a deliberate layout, the rest generically.
 */
import { memo } from "react";
import { looksLikeMermaid } from "./shape";
import { AgileEpics } from "./AgileEpics";
import { ArtifactSections, type FieldSpec } from "./ArtifactSections";
import { Chips } from "./Chips";
import { DataView, Prose } from "./DataView";
import { EntityModel } from "./EntityModel";
import { MermaidDiagram } from "./MermaidDiagram";
import { Pseudocode } from "./Pseudocode";
import { TestSuites } from "./TestSuites";
import "./artifacts.css";

const leadText = (value: unknown, anchor: string | undefined) => (typeof value === "string" ? <Prose text={value} lead /> : <DataView value={value} anchor={anchor} />);

const layouts: Record<string, FieldSpec[]> = {
  requirements: [
    { key: "problem_statement_refined", label: "Problem statement", render: leadText },
    { key: "identified_domains", label: "Identified domains", render: (v) => <Chips value={v} /> },
    { key: "core_capabilities", label: "Core capabilities" },
    { key: "external_dependencies", label: "External dependencies", half: true },
    { key: "assumptions", label: "Assumptions", half: true },
  ],
  inception: [
    { key: "product_vision", label: "Product vision", render: leadText },
    { key: "scope_in", label: "In scope", half: true },
    { key: "scope_out", label: "Out of scope", half: true },
    { key: "stakeholders", label: "Stakeholders" },
    { key: "high_level_architecture", label: "High-level architecture" },
    { key: "functional_requirements", label: "Functional requirements" },
    { key: "non_functional_requirements", label: "Non-functional requirements" },
    { key: "risk_matrix", label: "Risk matrix" },
  ],
  agile: [{ key: "epics", label: "Epics", render: (v, anchor) => <AgileEpics value={v} anchor={anchor} /> }],
  diagramacion: [
    {
      key: "mermaid_sequence_diagram",
      label: "Sequence diagram",
      render: (v, anchor) => (looksLikeMermaid(v) ? <MermaidDiagram source={v} title="Sequence diagram" /> : <DataView value={v} anchor={anchor} />),
    },
    { key: "entity_relationship_model", label: "Entity-relationship model", render: (v) => <EntityModel value={v} /> },
  ],
  pseudocodigo: [{ key: "user_story_pseudocode", label: "Pseudocode by user story", render: (v, anchor) => <Pseudocode value={v} anchor={anchor} /> }],
  qa: [{ key: "test_suites", label: "Test suites", render: (v, anchor) => <TestSuites value={v} anchor={anchor} /> }],
};

/** The fields of an artifact type in the order its page shows them (the editor follows it); none for an unknown type. */
export const fieldOrder = (artifactType: string | null): string[] => (artifactType ? layouts[artifactType] ?? [] : []).map((spec) => spec.key);

/** Under review (a PartsProvider above), each field and item carries its comment button (parts.tsx). */
export const ArtifactView = memo(function ArtifactView({ artifactType, artifact }: { artifactType: string; artifact: unknown }) {
  return <ArtifactSections artifact={artifact} specs={layouts[artifactType] ?? []} />;
});
