/**
 * A node's output as blocks to show: JSON (an object or a list) pretty-printed, a bash or script node's output as
 * the program printed it, and otherwise Markdown-ish text with its fenced code blocks set apart in monospace.
 */
export type OutputBlock = { kind: "json"; text: string } | { kind: "code"; text: string; language: string | null } | { kind: "text"; text: string };

/** Node kinds whose output is what a program printed. */
const programKinds = new Set(["bash", "script"]);

/** An object or a list, pretty-printed; anything else (a bare number, `true`, text) is left to read as text. */
export function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

const FENCE = /^(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
const trimBlankLines = (text: string) => text.replace(/^(?:[ \t]*\n)+/, "").replace(/\s+$/, "");

export function outputBlocks(output: string, nodeKind: string | null): OutputBlock[] {
  if (output.trim() === "") return [];
  const json = prettyJson(output);
  if (json !== null) return [{ kind: "json", text: json }];
  if (nodeKind !== null && programKinds.has(nodeKind)) return [{ kind: "code", text: output.replace(/\n$/, ""), language: null }];

  const blocks: OutputBlock[] = [];
  const pushText = (text: string) => {
    const trimmed = trimBlankLines(text);
    if (trimmed) blocks.push({ kind: "text", text: trimmed });
  };
  let at = 0;
  for (const match of output.matchAll(FENCE)) {
    pushText(output.slice(at, match.index));
    blocks.push({ kind: "code", text: match[3]!.replace(/\n$/, ""), language: match[2] || null });
    at = match.index + match[0].length;
  }
  pushText(output.slice(at));
  return blocks;
}
