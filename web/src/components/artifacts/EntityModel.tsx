/** The diagram agent's entity-relationship model: Mermaid source is drawn; a list of entities is shown as cards. */
import { erDiagramSource } from "./erDiagram";
import { isPlainObject, looksLikeMermaid, omit, pick, pickString } from "./shape";
import { DataView, Prose } from "./DataView";
import { MermaidDiagram } from "./MermaidDiagram";

export function EntityModel({ value }: { value: unknown }) {
  if (looksLikeMermaid(value)) return <MermaidDiagram source={value} title="Entity-relationship diagram" />;
  if (typeof value === "string") return <Prose text={value} />;
  if (!isPlainObject(value)) return <DataView value={value} label="Entity-relationship model" />;
  const mermaidSource = pick(value, "mermaid", "mermaid_er_diagram", "diagram");
  const drawn = looksLikeMermaid(mermaidSource) ? mermaidSource : erDiagramSource(value);
  const entities = pick(value, "entities", "entidades");
  const rest = omit(value, ["mermaid", "mermaid_er_diagram", "diagram", "entities", "entidades"]);
  return (
    <div className="fields">
      {drawn ? <MermaidDiagram source={drawn} title="Entity-relationship diagram" /> : null}
      {drawn ? (
        <details className="entity-details">
          <summary>Entities and relationships as data</summary>
          <EntityCards entities={entities} rest={rest} />
        </details>
      ) : (
        <EntityCards entities={entities} rest={rest} />
      )}
    </div>
  );
}

function EntityCards({ entities, rest }: { entities: unknown; rest: Record<string, unknown> }) {
  return (
    <div className="fields">
      {Array.isArray(entities) && entities.every(isPlainObject) ? (
        <ul className="entity-grid">
          {entities.map((entity, i) => {
            const name = pickString(entity, "name", "entity", "nombre") ?? `Entity ${i + 1}`;
            const attributes = pick(entity, "attributes", "fields", "atributos");
            const others = omit(entity, ["name", "entity", "nombre", "attributes", "fields", "atributos"]);
            return (
              <li key={name} className="entity sub-card">
                <div className="entity-name">{name}</div>
                {attributes !== undefined ? <DataView value={attributes} label={`Attributes of ${name}`} /> : null}
                {Object.keys(others).length > 0 ? <DataView value={others} /> : null}
              </li>
            );
          })}
        </ul>
      ) : entities !== undefined ? (
        <DataView value={entities} label="Entities" />
      ) : null}
      {Object.keys(rest).length > 0 ? <DataView value={rest} /> : null}
    </div>
  );
}
