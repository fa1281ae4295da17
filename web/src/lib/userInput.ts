/** What a person types as a node's output (a UX node's completion), read as they meant it. */

/** JSON when it parses, otherwise the text itself; nothing typed is null. */
export function parseOutput(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}
