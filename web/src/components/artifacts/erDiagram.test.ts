import { describe, expect, it } from "vitest";
import { cardinalityMarkers, erDiagramSource } from "./erDiagram";
import { looksLikeMermaid, unfence } from "./shape";

describe("erDiagramSource", () => {
  it("maps cardinalities onto crow's-foot markers", () => {
    expect(cardinalityMarkers("1:N")).toBe("||--o{");
    expect(cardinalityMarkers("N:M")).toBe("}o--o{");
    expect(cardinalityMarkers("one-to-one")).toBe("||--||");
    expect(cardinalityMarkers("0..1:1")).toBe("|o--||");
    expect(cardinalityMarkers(undefined)).toBe("||--o{");
  });

  it("writes entities, typed attributes with keys, and labelled relationships; names Mermaid cannot take are reduced", () => {
    const source = erDiagramSource({
      entities: [{ name: "Trip Request", attributes: [{ name: "id", type: "uuid", key: "primary key" }, "created at"] }],
      relationships: [{ from: "Trip Request", to: "Driver", cardinality: "N:1", label: 'is "served" by' }, "free text is skipped"],
    });
    expect(source).toBe(
      ["erDiagram", "  Trip_Request {", "    uuid id PK", "    string created_at", "  }", "  Trip_Request }o--|| Driver : \"is 'served' by\""].join("\n"),
    );
  });

  it("gives up on models that are not entities and relationships", () => {
    expect(erDiagramSource("erDiagram\n A ||--o{ B : x")).toBeNull();
    expect(erDiagramSource({ entities: [] })).toBeNull();
    expect(erDiagramSource({ entities: [{ title: "no name" }] })).toBeNull();
  });

  it("recognises Mermaid source, fenced or not", () => {
    const fenced = "```mermaid\nsequenceDiagram\n  A->>B: hi\n```";
    expect(looksLikeMermaid(fenced)).toBe(true);
    expect(unfence(fenced)).toBe("sequenceDiagram\n  A->>B: hi");
    expect(looksLikeMermaid("A plain sentence about diagrams")).toBe(false);
  });
});
