/**
 * Entities found with no LLM: the `compromise` English NLP library's people, organizations and places. It knows
 * names from its lexicon and from their shape (a title-case first name and last name, "Inc."/"Corporation" after a
 * name), so it finds the plain cases and misses others; `llm.extract_entities` says `responder: "offline"` with it.
 */
import nlp from "compromise";

/** The entity types the offline extractor knows, and the names a schema may give each. */
export const OFFLINE_TYPES = {
  Person: ["person", "people", "persons"],
  Organization: ["organization", "organisation", "organizations", "organisations", "org", "company", "companies"],
  Place: ["place", "places", "location", "locations", "city", "country"],
} as const;

export type OfflineType = keyof typeof OFFLINE_TYPES;

/** The offline type a schema names (`person`, `Company`), or undefined. */
export function offlineTypeOf(schema: string): OfflineType | undefined {
  const wanted = schema.trim().toLowerCase();
  return (Object.keys(OFFLINE_TYPES) as OfflineType[]).find((type) => (OFFLINE_TYPES[type] as readonly string[]).includes(wanted));
}

export interface FoundEntity {
  name: string;
  type: OfflineType;
  properties: { mentions: number };
}

interface Term {
  text: string;
  pre: string;
  post: string;
  tags?: string[];
}

/** A match's words as written, without the punctuation around it (keeping an abbreviation's period: "Apple Inc."). */
function nameOf(terms: readonly Term[]): string {
  return terms
    .map((term, index) => {
      const last = index === terms.length - 1;
      const before = index === 0 ? "" : term.pre;
      const after = last ? (term.tags?.includes("Abbreviation") && term.post.startsWith(".") ? "." : "") : term.post;
      return `${before}${term.text}${after}`;
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** The people, organizations and places of `text` (only `types` when given), each once, in order of first mention. */
export function extractOffline(text: string, types: readonly OfflineType[] = ["Person", "Organization", "Place"]): FoundEntity[] {
  const doc = nlp(text);
  const views: Record<OfflineType, () => { json(options: object): { terms: Term[] }[] }> = {
    Person: () => doc.people(),
    Organization: () => doc.organizations(),
    Place: () => doc.places(),
  };
  const found = new Map<string, FoundEntity & { at: number }>();
  for (const type of types) {
    for (const match of views[type]().json({ terms: { text: true, pre: true, post: true, tags: true }, offset: true })) {
      const name = nameOf(match.terms);
      if (!/\p{L}/u.test(name)) continue;
      const key = `${type}:${name.toLowerCase().replace(/\.$/, "")}`;
      const at = (match as { offset?: { start?: number } }).offset?.start ?? Number.MAX_SAFE_INTEGER;
      const seen = found.get(key);
      if (seen) seen.properties.mentions += 1;
      else found.set(key, { name, type, properties: { mentions: 1 }, at });
    }
  }
  const entities = [...found.values()].sort((a, b) => a.at - b.at);
  // "Tim" where "Tim Cook" was also found is the same person, mentioned shortly.
  const words = (name: string) => name.toLowerCase().split(/\s+/);
  const kept = entities.filter((short) => {
    const longer = entities.find((other) => other !== short && other.type === short.type && words(short.name).length < words(other.name).length && words(short.name).every((word) => words(other.name).includes(word)));
    if (longer) longer.properties.mentions += short.properties.mentions;
    return !longer;
  });
  return kept.map(({ at: _at, ...entity }) => entity);
}
