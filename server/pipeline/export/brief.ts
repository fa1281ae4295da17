/**
 * `00-brief.md`: the brief the agents drafted from, first in the bundle, with the versions it replaced (an analyst
 * may edit her brief until an output is approved; the last version is the one every agent read).
 */
export interface BriefVersion {
  version: number;
  brief: string;
  by: string | null;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function renderBriefMarkdown(runId: string, domain: string, versions: readonly BriefVersion[]): string {
  const ordered = [...versions].sort((a, b) => a.version - b.version);
  const current = ordered.at(-1);
  const lines = [
    "# 00 Brief",
    "",
    `- **Domain:** ${oneLine(domain)}`,
    `- **Run:** ${oneLine(runId)}`,
    ...(current ? [`- **Version:** ${current.version}${current.by ? `, by ${oneLine(current.by)}` : ""}`] : []),
    "",
    ...(current ? current.brief.split(/\r?\n/) : []),
    "",
  ];
  const earlier = ordered.slice(0, -1).reverse();
  if (earlier.length > 0) {
    lines.push("## Earlier versions", "");
    for (const version of earlier) {
      lines.push(`### Version ${version.version}${version.by ? `, by ${oneLine(version.by)}` : ""}`, "", ...version.brief.split(/\r?\n/).map((line) => `> ${line}`.trimEnd()), "");
    }
  }
  return `${lines.join("\n").trim()}\n`;
}
