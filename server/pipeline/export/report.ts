/**
 * `report.html`: the whole run in one self-contained page (the brief, then each step's document in pipeline order),
 * with every diagram drawn in the browser that opens it, offline: mermaid's own browser bundle is inlined, so no
 * Mermaid tool, network or server is needed. Besides the sequence diagram each diagrams step draws, the
 * entity-relationship model is drawn as a Mermaid ER diagram.
 *
 * What must hold: nothing an agent wrote runs as code in the page. The Markdown's raw HTML is shown as text, links
 * other than http(s), mailto and in-page ones are shown as text, images as their alt text (an offline page loads
 * nothing), and Mermaid runs at its strict security level.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Marked, type Tokens } from "marked";
import { z } from "zod";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

let mermaidBundle: string | undefined;
/** mermaid's browser bundle (its IIFE build, which defines `mermaid`), read once. */
function mermaidScript(): string {
  if (mermaidBundle === undefined) {
    const path = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
    // A "</script" inside would end the inline script early; escaped, it means the same to JavaScript.
    mermaidBundle = readFileSync(path, "utf8").replace(/<\/script/gi, "<\\/script");
  }
  return mermaidBundle;
}

const markdown = new Marked({
  gfm: true,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    code(token: Tokens.Code) {
      if ((token.lang ?? "").trim().toLowerCase() === "mermaid") return `<figure class="diagram"><pre class="mermaid">${escapeHtml(token.text)}</pre></figure>\n`;
      return `<pre><code>${escapeHtml(token.text)}</code></pre>\n`;
    },
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      return /^(?:https?:|mailto:|#)/i.test(token.href) ? `<a href="${escapeHtml(token.href)}">${text}</a>` : text;
    },
    image: (token: Tokens.Image) => escapeHtml(token.text),
  },
});

const ErModel = z.looseObject({
  entity_relationship_model: z.looseObject({
    entities: z.array(z.looseObject({ name: z.string().min(1), attributes: z.array(z.union([z.string(), z.looseObject({ name: z.string(), type: z.string().optional(), key: z.string().optional() })])).optional() })),
    relationships: z.array(z.looseObject({ from: z.string(), to: z.string(), cardinality: z.string().optional(), label: z.string().optional() })).optional(),
  }),
});

const word = (text: string) => text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "x";
const CROW: Record<string, string> = { "1:1": "||--||", "1:N": "||--o{", "N:1": "}o--||", "N:M": "}o--o{", "M:N": "}o--o{" };

/** The Mermaid source of an ER diagram of a diagrams artifact's entity-relationship model; undefined when it has none. */
export function erDiagramOf(artifact: unknown): string | undefined {
  const parsed = ErModel.safeParse(artifact);
  if (!parsed.success || parsed.data.entity_relationship_model.entities.length === 0) return undefined;
  const { entities, relationships = [] } = parsed.data.entity_relationship_model;
  const lines = ["erDiagram"];
  for (const entity of entities) {
    lines.push(`  ${word(entity.name)} {`);
    for (const raw of entity.attributes ?? []) {
      const attribute = typeof raw === "string" ? { name: raw } : raw;
      const key = /^(PK|FK)$/i.test(attribute.key ?? "") ? ` ${attribute.key!.toUpperCase()}` : "";
      lines.push(`    ${word(attribute.type ?? "text")} ${word(attribute.name)}${key}`);
    }
    lines.push("  }");
  }
  for (const relationship of relationships) {
    const crow = CROW[(relationship.cardinality ?? "1:N").toUpperCase().replace(/\s/g, "")] ?? "||--o{";
    const label = (relationship.label ?? "relates to").replace(/["\n\r]/g, " ").trim() || "relates to";
    lines.push(`  ${word(relationship.from)} ${crow} ${word(relationship.to)} : "${label}"`);
  }
  return lines.join("\n");
}

export interface ReportSection {
  /** The anchor and heading of the section: "01 Requirements". */
  title: string;
  /** The step's document, as the bundle's Markdown file has it. */
  markdown: string;
  /** Diagrams drawn besides those the Markdown holds (the ER model), as Mermaid sources. */
  extraDiagrams?: { caption: string; source: string }[];
}

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; color: #1d232b; overflow-wrap: break-word; }
nav ol { padding-left: 1.25rem; } table { border-collapse: collapse; display: block; overflow-x: auto; margin: 0.5rem 0; }
th, td { border: 1px solid #c9d0d8; padding: 0.3rem 0.5rem; vertical-align: top; text-align: left; }
pre { background: #f4f6f8; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; } figure.diagram { margin: 1rem 0; overflow-x: auto; }
section { border-top: 2px solid #e3e7ec; margin-top: 2rem; } blockquote { border-left: 3px solid #c9d0d8; margin-left: 0; padding-left: 0.75rem; color: #46505c; }
`;

/** The page: a contents list, then each section; `title` names the run. */
export function renderReport(title: string, sections: readonly ReportSection[]): string {
  const id = (index: number) => `section-${index + 1}`;
  const body = sections.map((section, index) => {
    const extra = (section.extraDiagrams ?? []).map((diagram) => `<h2>${escapeHtml(diagram.caption)}</h2>\n<figure class="diagram"><pre class="mermaid">${escapeHtml(diagram.source)}</pre></figure>`);
    return `<section id="${id(index)}" aria-label="${escapeHtml(section.title)}">\n${markdown.parse(section.markdown, { async: false })}\n${extra.join("\n")}\n</section>`;
  });
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(title)}</h1>`,
    `<nav aria-label="Contents"><ol>${sections.map((section, index) => `<li><a href="#${id(index)}">${escapeHtml(section.title)}</a></li>`).join("")}</ol></nav>`,
    ...body,
    "</main>",
    `<script>${mermaidScript()}</script>`,
    '<script>mermaid.initialize({ startOnLoad: false, securityLevel: "strict" }); mermaid.run({ querySelector: "pre.mermaid" }).finally(() => { document.body.dataset.diagrams = "drawn"; });</script>',
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
