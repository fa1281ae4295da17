/**
 * Parts of an output a reader can comment on, threaded through the artifact renderers. Whoever shows an output for
 * review (the review feature) provides a `PartsContext`: the output's anchors (the server's addresses of its fields,
 * list items and lines, in reading order) and how to draw a part's comment button and its comments. Each renderer
 * asks for the anchor of what it draws (a field, a list item) and puts `PartButton` at the part's head and
 * `PartThreads` after it. Without a provider (reading only) nothing is drawn and no anchor is needed.
 */
import { type ReactNode, createContext, useContext, useLayoutEffect, useMemo } from "react";

export interface PartInfo {
  anchor: string;
  label: string;
  quote: string;
}

export interface PartsRendering {
  /** Every part of the output, in reading order. */
  parts: readonly PartInfo[];
  /** The part's comment button, named for it ("Comment on CAP-001"). */
  button(part: PartInfo, name: string): ReactNode;
  /** The part's comments (and a comment being written on it), or null when there are none to show here. */
  threads(anchor: string): ReactNode | null;
  /** A renderer shows the comments of `anchor` beside its part (until the returned function is called); a stable function. */
  shown(anchor: string): () => void;
}

interface PartsIndex extends PartsRendering {
  byAnchor: Map<string, PartInfo>;
  /** The anchors of a list's items (or an object's bracketed entries), by the anchor of the list. */
  items: Map<string, string[]>;
}

const PartsContext = createContext<PartsIndex | null>(null);

const ITEM = /^(.*)\[([^[\]]+)\]$/;

export function PartsProvider({ value, children }: { value: PartsRendering; children: ReactNode }) {
  const index = useMemo<PartsIndex>(() => {
    const byAnchor = new Map(value.parts.map((part) => [part.anchor, part]));
    const items = new Map<string, string[]>();
    for (const { anchor } of value.parts) {
      const item = ITEM.exec(anchor);
      if (!item) continue;
      const list = items.get(item[1]!) ?? [];
      list.push(anchor);
      items.set(item[1]!, list);
    }
    return { ...value, byAnchor, items };
  }, [value]);
  return <PartsContext.Provider value={index}>{children}</PartsContext.Provider>;
}

const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The anchor of an object's field under `parent` (the grammar of server/review/anchors.ts). */
export function fieldAnchor(parent: string | undefined, key: string): string | undefined {
  if (parent === undefined) return undefined;
  if (!WORD.test(key)) return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

/** The anchors of the items of the list at `anchor`, in order (empty outside review or for a list with none). */
export function useItemAnchors(anchor: string | undefined): readonly (string | undefined)[] {
  const parts = useContext(PartsContext);
  return (anchor !== undefined && parts?.items.get(anchor)) || [];
}

/**
 * How a part is named on its button, from the server's label ("Core capabilities › CAP-001"): an item by its id
 * ("CAP-001"), an item without one by its list ("Assumptions, item 2"), an item's field by both ("CAP-001 description").
 */
export function partName(label: string, anchor = ""): string {
  const steps = label.split(" › ");
  const last = steps[steps.length - 1]!;
  const previous = steps[steps.length - 2];
  if (previous === undefined) return last;
  if (/^item \d+$/.test(last)) return `${previous}, ${last}`;
  if (/\]\.[A-Za-z_]\w*$/.test(anchor)) return `${previous} ${last.toLowerCase()}`;
  return last;
}

/** The comment button of the part at `anchor`, when the output is under review and has that part. */
export function PartButton({ anchor, name }: { anchor: string | undefined; name?: string }) {
  const parts = useContext(PartsContext);
  const part = anchor === undefined ? undefined : parts?.byAnchor.get(anchor);
  if (!parts || !part) return null;
  return <>{parts.button(part, name ?? partName(part.label, part.anchor))}</>;
}

/** The comments on the part at `anchor`, or null when there are none to show beside it. */
export function usePartThreads(anchor: string | undefined): ReactNode | null {
  const parts = useContext(PartsContext);
  const known = parts !== null && anchor !== undefined && parts.byAnchor.has(anchor);
  // The provider lists elsewhere the comments of parts no renderer shows (a line, a table's cell).
  const shown = parts?.shown;
  useLayoutEffect(() => (known && shown ? shown(anchor) : undefined), [known, shown, anchor]);
  return known ? parts.threads(anchor) : null;
}

export function PartThreads({ anchor }: { anchor: string | undefined }) {
  return <>{usePartThreads(anchor)}</>;
}
