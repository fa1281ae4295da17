/** What the product must let someone do, read from a brief's clauses, and a capability's name. */
import { type Clause, readClauses } from "./clauses";
import { sentenceCase, shorten } from "./normalize";
import { isQualityText } from "./quality";

export interface ExtractedCapability {
  /** Who does it: a group from the text ("Customers", "Back office"), or "System" when the product itself acts. */
  actor: string;
  /** What is done, starting with its verb where the text has one ("order food"). */
  action: string;
  /** The clause it came from, as a sentence with its actor ("Riders pay by card"). */
  sentence: string;
  /** person: a role acts; system: the product acts; rule: a statement about a thing ("Payments must go through Stripe"). */
  kind: "person" | "system" | "rule";
}

/** What the product must let someone do, read from a text; empty when it only describes or sets quality targets. */
export function capabilitiesIn(text: string): ExtractedCapability[] {
  return readClauses(text)
    .filter((clause): clause is Clause & { kind: ExtractedCapability["kind"] } => clause.kind !== "description")
    .filter((clause) => clause.kind === "person" || !isQualityText(clause.text))
    .map((clause) => ({ actor: clause.actor, action: clause.action, sentence: clause.text, kind: clause.kind }));
}

/** A capability's name: its action without possessives ("manage their catalogs" -> "Manage catalogs"). */
export function capabilityName(action: string): string {
  return sentenceCase(shorten(action.replace(/\s+(?:their|his|her|its|our|your|my)\s+/gi, " "), 10));
}
