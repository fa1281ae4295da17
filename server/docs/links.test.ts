/**
 * Every relative link in README.md and docs/*.md leads somewhere: the file (or folder) it names exists, and an
 * `#anchor` into a Markdown file is one that a heading of that file produces, by GitHub's rule. Links to http(s) and
 * mailto addresses are not fetched. Links are read with marked's lexer, so a link-like text in code is not a link.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { marked, type Token } from "marked";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The repository-relative paths of the documents checked: the README and the manual. */
const documents = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];

/** A heading's text as GitHub renders it: code spans' text, links' text, no markup. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if ("tokens" in token && Array.isArray(token.tokens) && token.type !== "codespan") return plainText(token.tokens);
      if (token.type === "html" || token.type === "br") return "";
      return "text" in token && typeof token.text === "string" ? token.text : "";
    })
    .join("");
}

/**
 * GitHub's anchor for a heading (as github-slugger makes it): lower case; every character that is not a letter, a mark,
 * a digit, a connector (`_`), a hyphen or a space removed; each space a hyphen. A text seen before in the same file gets
 * `-1`, `-2`, ... after it.
 */
function githubSlug(text: string, seen: Map<string, number>): string {
  const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
  let slug = base;
  let count = seen.get(base) ?? 0;
  while (seen.has(slug)) slug = `${base}-${++count}`;
  seen.set(base, count);
  seen.set(slug, 0);
  return slug;
}

interface Parsed {
  anchors: Set<string>;
  links: { text: string; href: string }[];
}

const parsed = new Map<string, Parsed>();

/** A Markdown file's anchors (one per heading) and links (with images), by its absolute path. */
function parse(path: string): Parsed {
  const known = parsed.get(path);
  if (known) return known;
  const tokens = marked.lexer(readFileSync(path, "utf8"));
  const seen = new Map<string, number>();
  const result: Parsed = { anchors: new Set(), links: [] };
  marked.walkTokens(tokens, (token) => {
    if (token.type === "heading") result.anchors.add(githubSlug(plainText(token.tokens ?? []), seen));
    if (token.type === "link" || token.type === "image") result.links.push({ text: token.text, href: token.href });
  });
  parsed.set(path, result);
  return result;
}

/** What is wrong with one link of a document, or undefined when it resolves. */
function problem(document: string, href: string): string | undefined {
  if (/^(https?:|mailto:)/i.test(href)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return `a link to a ${href.split(":")[0]}: address, which nobody can follow from the repository`;
  const hash = href.indexOf("#");
  const pathPart = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(href.slice(hash + 1));
  if (pathPart.startsWith("/")) return "an absolute path: write it relative to the document";
  const target = pathPart === "" ? join(root, document) : resolve(dirname(join(root, document)), pathPart);
  const name = relative(root, target);
  if (name.startsWith("..")) return `${name} is outside the repository`;
  if (!existsSync(target)) return `${name} does not exist`;
  if (anchor === undefined || !target.endsWith(".md")) return undefined;
  if (anchor === "") return "an empty anchor";
  return parse(target).anchors.has(anchor) ? undefined : `no heading in ${name} makes the anchor #${anchor}`;
}

describe("the README's and docs/'s links", () => {
  it("checks the README and every document of docs/", () => {
    expect(documents).toContain("README.md");
    expect(documents.length).toBeGreaterThan(5);
  });

  it.each(documents)("%s: every relative link names a file that exists, and every anchor a heading of its target", (document) => {
    const problems = parse(join(root, document))
      .links.map(({ text, href }) => {
        const wrong = problem(document, href);
        return wrong && `${document}: [${text}](${href}): ${wrong}`;
      })
      .filter((line): line is string => line !== undefined);
    expect(problems).toEqual([]);
  });

  it("the README links every document of docs/ (its manual's list)", () => {
    const linked = new Set(parse(join(root, "README.md")).links.map(({ href }) => href.split("#")[0]));
    expect(documents.filter((document) => document.startsWith("docs/") && !linked.has(document))).toEqual([]);
  });

  it("makes GitHub's anchors", () => {
    const seen = new Map<string, number>();
    expect(githubSlug("Shell nodes: WORKFLOW_SHELL=on", seen)).toBe("shell-nodes-workflow_shellon");
    expect(githubSlug("Deliveries over undici's request (26 November 2026, later)", seen)).toBe("deliveries-over-undicis-request-26-november-2026-later");
    expect(githubSlug("Who decides, and by when", seen)).toBe("who-decides-and-by-when");
    expect(githubSlug("Results", seen)).toBe("results");
    expect(githubSlug("Results", seen)).toBe("results-1");
    expect(githubSlug("Results", seen)).toBe("results-2");
    expect(githubSlug("The 10,000 / 100 ratio (requirement: at most 1.5x)", seen)).toBe("the-10000--100-ratio-requirement-at-most-15x");
  });
});
