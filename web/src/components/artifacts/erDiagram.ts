/**
 * Draws a structured entity-relationship model (`entities` + `relationships`) as Mermaid `erDiagram`
 * source, so the model reads as a diagram. Names are reduced to what Mermaid accepts; a model that
 * is not structured that way yields null and is shown as data instead.
 */
import { isPlainObject, pickString } from "./shape";

const identifier = (text: string) => text.trim().replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[^A-Za-z_]+/, "") || "Entity";
const attributeType = (text: string) => text.trim().replace(/[^A-Za-z0-9_()[\]-]+/g, "_").replace(/^[^A-Za-z_]+/, "") || "string";
const quoted = (text: string) => `"${text.replace(/"/g, "'")}"`;

function keyMarker(key: string | undefined): string {
  if (!key) return "";
  const k = key.toLowerCase();
  if (k.includes("pk") || k.includes("primary")) return " PK";
  if (k.includes("fk") || k.includes("foreign")) return " FK";
  if (k.includes("uk") || k.includes("unique")) return " UK";
  return "";
}

type Side = "one" | "zero_or_one" | "many";

function sideOf(text: string): Side {
  if (/\*|\bn\b|\bm\b|many|muchos|varios/i.test(text)) return "many";
  if (/0\s*\.\.\s*1|zero|optional/i.test(text)) return "zero_or_one";
  return "one";
}

/** "1:N", "one-to-many", "N..M", "1..*" -> Mermaid's crow's-foot markers. */
export function cardinalityMarkers(cardinality: string | undefined): string {
  const parts = (cardinality ?? "1:N").split(/\s*(?::|-to-|\bto\b|–|—)\s*/i).filter(Boolean);
  const [left, right]: [Side, Side] = parts.length >= 2 ? [sideOf(parts[0]!), sideOf(parts[1]!)] : ["one", "many"];
  const leftMark = { one: "||", zero_or_one: "|o", many: "}o" }[left];
  const rightMark = { one: "||", zero_or_one: "o|", many: "o{" }[right];
  return `${leftMark}--${rightMark}`;
}

export function erDiagramSource(model: unknown): string | null {
  if (!isPlainObject(model) || !Array.isArray(model.entities) || model.entities.length === 0) return null;
  if (!model.entities.every((e) => isPlainObject(e) && typeof e.name === "string")) return null;
  const lines = ["erDiagram"];
  for (const entity of model.entities as Record<string, unknown>[]) {
    const name = identifier(String(entity.name));
    const attributes = Array.isArray(entity.attributes) ? entity.attributes : [];
    if (attributes.length === 0) {
      lines.push(`  ${name} {`, "  }");
      continue;
    }
    lines.push(`  ${name} {`);
    for (const attribute of attributes) {
      if (typeof attribute === "string") lines.push(`    string ${identifier(attribute)}`);
      else if (isPlainObject(attribute) && typeof attribute.name === "string") {
        lines.push(`    ${attributeType(pickString(attribute, "type") ?? "string")} ${identifier(attribute.name)}${keyMarker(pickString(attribute, "key"))}`);
      }
    }
    lines.push("  }");
  }
  const relationships = Array.isArray(model.relationships) ? model.relationships : [];
  for (const relationship of relationships) {
    if (!isPlainObject(relationship) || typeof relationship.from !== "string" || typeof relationship.to !== "string") continue;
    const label = pickString(relationship, "label", "name", "description") ?? "";
    lines.push(`  ${identifier(relationship.from)} ${cardinalityMarkers(pickString(relationship, "cardinality"))} ${identifier(relationship.to)} : ${quoted(label)}`);
  }
  return lines.join("\n");
}
