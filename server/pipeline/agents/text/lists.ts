/** Counts and lists in prose: "5 capabilities", "three groups", "riders, drivers and operations staff". */
import { pluralNoun } from "./nouns";

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** "three", "12": small counts read better in words. */
export function numberWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

/** "1 capability", "5 capabilities", "no quality targets": a count with its noun in the right number. */
export function count(n: number, noun: string, many = pluralNoun(noun)): string {
  if (n === 0) return `no ${many}`;
  return `${n} ${n === 1 ? noun : many}`;
}

/** "one capability", "two quality targets": a count for prose. */
export function countInWords(n: number, noun: string, many = pluralNoun(noun)): string {
  return `${numberWord(n)} ${n === 1 ? noun : many}`;
}

export function joinList(items: string[], conjunction = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Clauses joined for prose, with a serial comma once a clause holds an "and" of its own ("..., and operations staff handle disputes"). */
export function joinClauses(clauses: string[]): string {
  if (clauses.length < 2 || !clauses.some((clause) => / and /.test(clause))) return joinList(clauses);
  return `${clauses.slice(0, -1).join(", ")}, and ${clauses[clauses.length - 1]}`;
}
