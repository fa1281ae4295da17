/** Nouns in the right number ("trip" / "trips", "person" / "people") and with the right article ("a" / "an"). */
import { normalizeSpace } from "./normalize";

const IRREGULAR_PLURALS: Record<string, string> = {
  person: "people",
  child: "children",
  man: "men",
  woman: "women",
  foot: "feet",
  criterion: "criteria",
  analysis: "analyses",
  basis: "bases",
  crisis: "crises",
  datum: "data",
};
/** "people" -> "person": the irregular plurals the other way round. */
export const IRREGULAR_SINGULARS: Record<string, string> = Object.fromEntries(Object.entries(IRREGULAR_PLURALS).map(([one, many]) => [many, one]));
/** Words with one form for one and many. */
export const UNCOUNTED = new Set("staff personnel data information equipment feedback news series species software hardware money media".split(" "));

function sameCase(model: string, word: string): string {
  return /^[A-Z]/.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (IRREGULAR_SINGULARS[lower]) return sameCase(word, IRREGULAR_SINGULARS[lower]);
  if (UNCOUNTED.has(lower) || lower.length <= 3 || /(ss|us|is|ics)$/.test(lower)) return word;
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zzes|tuses|buses|nuses|puses|ruses)$/.test(lower)) return word.slice(0, -2);
  if (/s$/.test(lower)) return word.slice(0, -1);
  return word;
}

/** "trip" -> "trips", "person" -> "people", "staff" -> "staff"; a phrase is pluralised on its last word. */
export function pluralNoun(phrase: string): string {
  const words = normalizeSpace(phrase).split(" ");
  const last = words.pop() ?? "";
  const lower = last.toLowerCase();
  let many: string;
  if (IRREGULAR_PLURALS[lower]) many = sameCase(last, IRREGULAR_PLURALS[lower]);
  else if (UNCOUNTED.has(lower) || /[^aeiou]ies$/.test(lower) || IRREGULAR_SINGULARS[lower]) many = last;
  else if (/^[A-Z0-9]+$/.test(last)) many = `${last}s`;
  else if (/[^aeiou]y$/i.test(last)) many = `${last.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(last)) many = `${last}es`;
  else many = `${last}s`;
  return [...words, many].join(" ");
}

/** "a customer", "an administrator", "an SMS gateway", "a user". */
export function withArticle(noun: string): string {
  const acronym = /^[A-Z]{2,}\b/.test(noun);
  const vowelSound = acronym ? /^[AEFHILMNORSX]/.test(noun) : /^(?:[aeio]|u(?!ni|s[eu]|r[aeiou]|til)|hour|honest)/i.test(noun) && !/^(?:one|eu)/i.test(noun);
  return `${vowelSound ? "an" : "a"} ${noun}`;
}
