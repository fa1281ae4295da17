/**
 * Plain-text steps every other reading builds on: collapsing whitespace, changing case, shortening to a
 * name, and cutting a text into sentences and words.
 */

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function sentenceCase(text: string): string {
  const clean = normalizeSpace(text).replace(/[.;:,!?]+$/, "");
  return clean.charAt(0).toUpperCase() + clean.slice(1);
}

export function lowerFirst(text: string): string {
  // Keep acronyms and proper names ("SMS", "Stripe ...") as they are.
  if (/^[A-Z]{2,}/.test(text) || /^[A-Z][a-z]+[A-Z]/.test(text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function titleCase(text: string): string {
  return normalizeSpace(text)
    .split(" ")
    .map((word) => (word.length > 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join(" ");
}

/** Lowers a leading article only ("The payment gateway ..." -> "the payment gateway ..."), so names such as "Stripe" keep their capital. */
export function lowerArticle(text: string): string {
  return text.replace(/^(The|A|An|All|Each|Every|This|These|Those|Our|Their)\b/, (word) => word.toLowerCase());
}

/** Up to `max` words, for names and titles; cut at the first clause when that fits, otherwise marked with an ellipsis. */
export function shorten(text: string, max = 8): string {
  const words = normalizeSpace(text).split(" ");
  if (words.length <= max) return words.join(" ");
  const clause = normalizeSpace(text).split(/\s*[;:(]\s*|,\s+/)[0] ?? "";
  if (clause.split(" ").length <= max && clause.split(" ").length >= 3) return clause;
  return `${words.slice(0, max).join(" ").replace(/[,;:]$/, "")}…`;
}

export function camelCase(text: string): string {
  const words = text
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0 && !["the", "a", "an", "their", "his", "her", "its", "our", "your", "my"].includes(word.toLowerCase()));
  if (words.length === 0) return "handleRequest";
  return words
    .slice(0, 5)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join("");
}

/** Sentences and bullet points of a text, without their final punctuation. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\r/g, "")
    .split(/(?<=[.!?])\s+|\n+|;\s+|\s+[•·]\s+/)
    .map((sentence) =>
      sentence
        .replace(/^\s*(?:[-*•·]|\d+[.)])\s+/, "")
        .replace(/[.!?]+$/, "")
        .trim(),
    )
    .filter((sentence) => /[A-Za-z]/.test(sentence) && sentence.length > 2);
}

/** The words of a text, split at whitespace. */
export function tokensOf(text: string): string[] {
  return normalizeSpace(text).split(" ").filter(Boolean);
}
