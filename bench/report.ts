/** Statistics and the plain-text tables the benchmark prints. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
export const grouped = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a");

/** A table with a header row; numeric-looking cells are right-aligned. */
export function table(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const numeric = /^[-+]?[\d,.]+( ?[a-z%/x]+)?$|^n\/a$/;
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => (numeric.test(cell) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
