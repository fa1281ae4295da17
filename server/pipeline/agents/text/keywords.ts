/**
 * The words of a text that carry meaning (no stop words, stemmed), and how much of one text another covers:
 * how feedback is matched against the items it talks about.
 */
import { singular } from "./nouns";

/** Words too common to say what a text is about. */
export const STOP_WORDS = new Set(
  (
    "a an the and or but of to for in on at by with from into onto via as is are be been being was were it its this that these those " +
    "their his her our your my we you they he she i me us them can could should would must shall will may might need needs want wants " +
    "able also please so then than there here which who whom whose what when where how all any each every some such not no do does did " +
    "has have had just only very more most other new add added include including remove delete change replace rename support make sure"
  ).split(" "),
);

function stem(word: string): string {
  return singular(word.toLowerCase()).replace(/(ing|ed)$/, "");
}

/** The words that carry meaning, stemmed, for matching feedback against items. */
export function significantWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .replace(/[^a-z0-9\s-]/g, " ")
        .split(/[\s-]+/)
        .filter((word) => word.length > 2 && !STOP_WORDS.has(word))
        .map(stem),
    ),
  ];
}

/** How many of `subject`'s significant words occur in `text` (0..1). */
export function overlap(subject: string, text: string): number {
  const wanted = significantWords(subject);
  if (wanted.length === 0) return 0;
  const present = new Set(significantWords(text));
  return wanted.filter((word) => present.has(word)).length / wanted.length;
}
