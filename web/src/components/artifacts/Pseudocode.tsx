/** The pseudocode agent's output: story id -> pseudocode text, each shown as a code block under its story. */
import { isPlainObject, pickString } from "./shape";
import { DataView } from "./DataView";
import { PartButton, PartThreads, fieldAnchor, useItemAnchors } from "./parts";

interface Block {
  storyId: string;
  /** The entry's key in an object of entries; for a list, undefined (its anchor is its item's). */
  key?: string;
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
  const entries: [string, unknown, string | undefined][] = Array.isArray(value)
    ? value.map((entry, i) => [isPlainObject(entry) ? pickString(entry, "story_id", "id") ?? `#${i + 1}` : `#${i + 1}`, entry, undefined])
    : isPlainObject(value)
      ? Object.entries(value).map(([key, entry]) => [key, entry, key])
      : [];
  if (entries.length === 0) return null;
  const blocks = entries.map(([id, entry, key]) => {
    const block = fromEntry(id, entry);
    return block && key !== undefined ? { ...block, key } : block;
  });
  return blocks.every((b): b is Block => b !== null) ? blocks : null;
}

/** `anchor`: the entries' address while they are under review, so each story's pseudocode carries its comment button. */
export function Pseudocode({ value, anchor }: { value: unknown; anchor?: string }) {
  const items = useItemAnchors(anchor);
  const blocks = blocksOf(value);
  if (!blocks) return <DataView value={value} label="Pseudocode" anchor={anchor} />;
  return (
    <div className="code-list">
      {blocks.map((block, i) => (
        <figure key={block.storyId} className="code-figure">
          <figcaption>
            <code className="id-chip">{block.storyId}</code>
            {block.title ? <span>{block.title}</span> : null}
            <PartButton anchor={block.key !== undefined ? fieldAnchor(anchor, block.key) : items[i]} name={block.storyId} />
          </figcaption>
          <pre className="code-block code-wrap" tabIndex={0} aria-label={`Pseudocode for ${block.storyId}`}>
            <code>{block.code.replace(/\s+$/, "")}</code>
          </pre>
          <PartThreads anchor={block.key !== undefined ? fieldAnchor(anchor, block.key) : items[i]} />
        </figure>
      ))}
    </div>
  );
}
