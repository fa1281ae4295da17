/** The pseudocode agent's output: story id -> pseudocode text, each shown as a code block under its story. */
import { isPlainObject, pickString } from "./shape";
import { DataView } from "./DataView";

interface Block {
  storyId: string;
  title?: string;
  code: string;
}

function blocksOf(value: unknown): Block[] | null {
  const fromEntry = (storyId: string, entry: unknown): Block | null => {
    if (typeof entry === "string") return { storyId, code: entry };
    if (Array.isArray(entry) && entry.every((line) => typeof line === "string")) return { storyId, code: entry.join("\n") };
    if (isPlainObject(entry)) {
      const code = pickString(entry, "pseudocode", "pseudocodigo", "code");
      if (code) return { storyId: pickString(entry, "story_id", "id") ?? storyId, title: pickString(entry, "title", "name"), code };
    }
    return null;
  };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((entry, i) => [isPlainObject(entry) ? pickString(entry, "story_id", "id") ?? `#${i + 1}` : `#${i + 1}`, entry])
    : isPlainObject(value)
      ? Object.entries(value)
      : [];
  if (entries.length === 0) return null;
  const blocks = entries.map(([id, entry]) => fromEntry(id, entry));
  return blocks.every((b): b is Block => b !== null) ? blocks : null;
}

export function Pseudocode({ value }: { value: unknown }) {
  const blocks = blocksOf(value);
  if (!blocks) return <DataView value={value} label="Pseudocode" />;
  return (
    <div className="code-list">
      {blocks.map((block) => (
        <figure key={block.storyId} className="code-figure">
          <figcaption>
            <code className="id-chip">{block.storyId}</code>
            {block.title ? <span>{block.title}</span> : null}
          </figcaption>
          <pre className="code-block" tabIndex={0} aria-label={`Pseudocode for ${block.storyId}`}>
            <code>{block.code.replace(/\s+$/, "")}</code>
          </pre>
        </figure>
      ))}
    </div>
  );
}
