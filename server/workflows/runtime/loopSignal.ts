/** A loop's completion signal (`until`) in an iteration's output. */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * True when `signal` stands on a line of its own (surrounding spaces allowed), ends the output (after trailing
 * whitespace is trimmed, and not as the tail of a longer word: `UNDONE` does not end with the signal `DONE`), or
 * appears anywhere as `<promise>SIGNAL</promise>`. A mention inside a sentence ("I am not DONE yet") does not count.
 */
export function hasCompletionSignal(output: string, signal: string): boolean {
  const wanted = signal.trim();
  if (!wanted) return false;
  const quoted = escapeRegExp(wanted);
  if (new RegExp(`<promise>\\s*${quoted}\\s*</promise>`).test(output)) return true;
  if (output.split(/\r?\n/).some((line) => line.trim() === wanted)) return true;
  const end = output.trimEnd();
  if (!end.endsWith(wanted)) return false;
  const before = end.slice(0, end.length - wanted.length);
  // At the very end: the signal is not glued to the word before it (when it starts with a word character).
  return before === "" || !/\w$/.test(before) || !/^\w/.test(wanted);
}
