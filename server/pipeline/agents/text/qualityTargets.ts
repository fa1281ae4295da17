/** The quality targets of a brief, one per clause ("must support 100k concurrent users", "respond within 300 ms"). */
import { capabilitiesIn } from "./capabilities";
import { readClauses } from "./clauses";
import { normalizeSpace, sentenceCase, splitSentences } from "./normalize";
import { isQualityText } from "./quality";

const MODAL =
  /\b(should be able to|must be able to|shall be able to|will be able to|are able to|is able to|be able to|need to|needs to|want to|wants to|have to|has to|can|could|should|must|shall|will|may)\b/i;

/** "order food, book rides and pay bills" -> three actions; a lone verb stays with the next one ("search and filter products"). */
function splitActions(text: string): string[] {
  const parts = text
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+as well as\s+/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const actions: string[] = [];
  let pending = "";
  for (const part of parts) {
    if (part.split(/\s+/).length === 1) {
      pending = pending ? `${pending}, ${part}` : part;
      continue;
    }
    actions.push(pending ? `${pending} and ${part}` : part);
    pending = "";
  }
  if (pending) {
    if (actions.length > 0) actions[actions.length - 1] = `${actions[actions.length - 1]} and ${pending}`;
    else actions.push(pending);
  }
  return actions;
}

/** "The app must support 100k concurrent users and respond within 300 ms" -> one target per clause. */
function qualityTargetsIn(sentence: string): string[] {
  const text = normalizeSpace(sentence);
  const modal = MODAL.exec(text);
  if (!modal) return [`${sentenceCase(text)}.`];
  const subject = text.slice(0, modal.index + modal[0].length);
  const clauses = splitActions(text.slice(modal.index + modal[0].length));
  if (clauses.length < 2 || !clauses.every(isQualityText)) return [`${sentenceCase(text)}.`];
  // A clause with its own modal has its own subject ("... and the system must comply with HIPAA").
  return clauses.map((clause) => `${sentenceCase(MODAL.test(clause) ? clause : `${subject} ${clause}`)}.`);
}

/** Quality targets of a whole brief: sentences that only set targets, and target clauses of the product or of things in mixed sentences. */
export function qualityTargetsOf(brief: string): string[] {
  const targets: string[] = [];
  for (const sentence of splitSentences(brief)) {
    if (!isQualityText(sentence)) continue;
    const clauses = readClauses(sentence);
    if (capabilitiesIn(sentence).length === 0) {
      targets.push(...qualityTargetsIn(sentence));
      continue;
    }
    for (const clause of clauses) {
      if ((clause.kind === "system" || clause.kind === "rule") && isQualityText(clause.text)) targets.push(`${sentenceCase(clause.text)}.`);
    }
  }
  return [...new Set(targets)];
}
