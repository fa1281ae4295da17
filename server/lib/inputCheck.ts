/**
 * What no request may carry into the server, whatever the route: text PostgreSQL cannot store (U+0000 in text and
 * jsonb; a lone UTF-16 surrogate, which is not Unicode text and which jsonb refuses) and JSON nested deeper than any
 * definition or output needs (recursive code further in, and the database drivers, overflow the stack on
 * thousands of levels). Pure: server/http/requestGuard.ts applies it to every request and says where it found it.
 */
import { findString } from "./json";

/** JSON deeper than this is refused. A graph, a workflow definition or an agent's output stays far below it. */
export const MAX_JSON_DEPTH = 64;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (UTF-16 code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** What makes `text` unstorable, as the end of a sentence ("contains ..."), or undefined when it is fine. */
export function textFlaw(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains the NUL character (\\u0000), which cannot be stored; remove it";
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `contains a lone UTF-16 surrogate (${escaped(lone[0])}), which is not text; send well-formed Unicode`;
  return undefined;
}

/** `text` with NULs and lone surrogates written as `\uXXXX`, so a message naming a bad key is itself good text. */
export function printable(text: string): string {
  return text.replace(new RegExp(`\u0000|${LONE_SURROGATE.source}`, "g"), escaped);
}

/** Where a JSON value breaks a rule: the path of the field (`a.b.0`, "" for the value itself) and what is wrong. */
export interface Flaw {
  path: string;
  problem: string;
}

/** The path of the first array or object nested deeper than `maxDepth`; iterative, so any depth is safe to look at. */
function tooDeep(value: unknown, maxDepth: number): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (top.value === null || typeof top.value !== "object") continue;
    const depth = top.depth + 1;
    if (depth > maxDepth) return top.path;
    for (const [key, inner] of Object.entries(top.value)) stack.push({ value: inner, path: top.path ? `${top.path}.${key}` : key, depth });
  }
  return undefined;
}

/** A deep path's first few steps: they name the field; the rest of `0.0.0.0...` says nothing more. */
function shortened(path: string, steps = 6): string {
  const parts = path.split(".");
  return parts.length > steps ? `${parts.slice(0, steps).join(".")}...` : path;
}

/** The first thing wrong with a parsed JSON value: nesting deeper than `maxDepth`, then an unstorable string or key. */
export function jsonFlaw(value: unknown, maxDepth = MAX_JSON_DEPTH): Flaw | undefined {
  const deep = tooDeep(value, maxDepth);
  if (deep !== undefined) return { path: printable(shortened(deep)), problem: `is nested deeper than ${maxDepth} levels of arrays and objects` };
  const bad = findString(value, (text) => textFlaw(text) !== undefined);
  return bad && { path: printable(bad.path), problem: textFlaw(bad.text)! };
}
