/**
 * How the pseudocode agent revises its functions after a reviewer's feedback: comments add an ENSURE step to a
 * function or after one of its lines; general feedback adds steps (to the functions named, or those the words
 * fit), functions for stories it does not have yet, removes functions or lines, and rewords lines. The first
 * draft is in ../drafts/pseudocodigo.ts.
 */
import type { EnvelopeOf, PseudocodigoArtifact } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { type Directive, replaceWording } from "../feedback";
import { type AgentRequest, previousArtifact } from "../request";
import { itemText } from "../text/items";
import { overlap } from "../text/keywords";
import { joinList } from "../text/lists";
import { camelCase, lowerFirst, sentenceCase } from "../text/normalize";
import { copyOf, recordNote } from "./shared";
import { isPlainObject } from "../../../lib/json";

/** The pseudocode map as a record, whichever of the accepted shapes the agent used. */
type PseudocodeEntries = Extract<PseudocodigoArtifact["user_story_pseudocode"], Record<string, unknown>>;

function asRecord(value: PseudocodigoArtifact["user_story_pseudocode"]): PseudocodeEntries {
  if (!Array.isArray(value)) return value;
  const record: PseudocodeEntries = {};
  value.forEach((entry, index) => {
    const id = entry.user_story_id ?? entry.story_id ?? entry.id ?? `US-${String(index + 1).padStart(3, "0")}`;
    const code = entry.pseudocode ?? entry.code;
    record[String(id)] = typeof code === "string" ? code : entry;
  });
  return record;
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(itemText).join("\n");
  if (isPlainObject(value) && typeof value.pseudocode === "string") return value.pseudocode;
  return itemText(value);
}

/** Puts a step before the function's closing line, or at the end when there is none. */
function insertStep(code: string, step: string[]): string {
  const lines = code.replace(/\s+$/, "").split("\n");
  const end = lines.findLastIndex((line) => /^\s*END\b/i.test(line));
  if (end >= 0) lines.splice(end, 0, ...step);
  else lines.push(...step);
  return lines.join("\n");
}

/** The ENSURE step a request asks for: "Validate the card expiry" -> "ENSURE validate the card expiry". */
const ensureStep = (directive: Directive) =>
  `ENSURE ${lowerFirst(directive.subject.replace(/\b(?:US|FR)-\d+\b:?\s*/gi, "")).trim() || lowerFirst(directive.sentence)}`;

/** A comment on a function adds its step before the END; on a line, right after that line, indented like it. */
const PSEUDOCODE_RULES: PartRules<PseudocodigoArtifact> = {
  addToText: (code, directive) => ({ value: insertStep(code, [`  ${ensureStep(directive)}`]), did: `gained the step "${ensureStep(directive)}"` }),
  lineAfter: (line, directive) => ({ value: `${/^\s*/.exec(line)?.[0] ?? ""}${ensureStep(directive)}`, did: `the step "${ensureStep(directive)}"` }),
};

export function revisePseudocodigo(request: AgentRequest): EnvelopeOf<"pseudocodigo"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "pseudocodigo")), request, PSEUDOCODE_RULES);
  const { artifact, changes, outcomes } = revision;
  const entries = asRecord(artifact.user_story_pseudocode);
  const ids = Object.keys(entries);

  for (const directive of generalDirectives(request)) {
    const named = directive.ids.filter((id) => ids.includes(id));
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, PSEUDOCODE_RULES, /^user_story_pseudocode\[[^\]]+\]$/, "function");
    } else if (directive.kind === "add") {
      const unknown = directive.ids.filter((id) => /^US-/.test(id) && !ids.includes(id));
      for (const id of unknown) {
        entries[id] = [`FUNCTION ${camelCase(directive.subject)}(actor, input)`, `  // ${id}: ${sentenceCase(directive.subject)} (added at review)`, `  PERFORM ${lowerFirst(directive.subject)}`, "  RETURN result", "END FUNCTION"].join("\n");
        ids.push(id);
        changes.added.push(`user_story_pseudocode: ${id}`);
        outcomes.push(`Added pseudocode for ${id}.`);
      }
      if (unknown.length > 0) continue;
      const relevant = ids.filter((id) => overlap(directive.subject, textOf(entries[id])) >= 0.5);
      // Named stories first; else those the words fit; else it is a rule for every function ("validate all input").
      const targets = named.length > 0 ? named : relevant.length > 0 ? relevant : ids;
      const step = [`  // Review: ${sentenceCase(directive.sentence)}`, `  ENSURE ${lowerFirst(directive.subject.replace(/\b(?:US|FR)-\d+\b:?\s*/gi, "")).trim() || lowerFirst(directive.sentence)}`];
      for (const id of targets) {
        entries[id] = insertStep(textOf(entries[id]), step);
        changes.modified.push(`user_story_pseudocode: ${id} gained the step "${step[1]?.trim()}"`);
      }
      outcomes.push(`Added the step "${step[1]?.trim()}" to ${joinList(targets)}.`);
    } else if (directive.kind === "remove") {
      const removed: string[] = [];
      if (named.length > 0 && /\b(pseudocode|function|entry|entries|stor(?:y|ies))\b/i.test(directive.sentence)) {
        for (const id of named) {
          delete entries[id];
          removed.push(`user_story_pseudocode: ${id}`);
        }
      } else {
        for (const id of named.length > 0 ? named : ids) {
          const lines = textOf(entries[id]).split("\n");
          const kept = lines.filter((line) => /^\s*(FUNCTION|END)\b/i.test(line) || overlap(directive.subject.replace(/\b(?:US|FR)-\d+\b/gi, ""), line) < 0.6);
          if (kept.length !== lines.length) {
            entries[id] = kept.join("\n");
            removed.push(`user_story_pseudocode: ${id}, ${lines.length - kept.length} lines about "${directive.subject}"`);
          }
        }
      }
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join("; ")}.`);
      } else {
        outcomes.push(`No pseudocode matched "${directive.subject}", so nothing was removed.`);
      }
    } else {
      const modified: string[] = [];
      for (const id of named.length > 0 ? named : ids) {
        const text = textOf(entries[id]);
        const next = text
          .split("\n")
          .map((line) => replaceWording(line, directive.subject, directive.replacement ?? "") ?? line)
          .join("\n");
        if (next !== text) {
          entries[id] = next;
          modified.push(`user_story_pseudocode: ${id} "${directive.subject}" -> "${directive.replacement}"`);
        }
      }
      if (modified.length > 0) {
        changes.modified.push(...modified);
        outcomes.push(`Changed ${modified.join("; ")}.`);
      } else {
        const step = [`  // Review: ${sentenceCase(directive.sentence)}`, `  ENSURE ${lowerFirst(directive.replacement ?? directive.subject)}`];
        for (const id of named.length > 0 ? named : ids) {
          entries[id] = insertStep(textOf(entries[id]), step);
          changes.modified.push(`user_story_pseudocode: ${id} gained the step "${step[1]?.trim()}"`);
        }
        outcomes.push(`No pseudocode contained "${directive.subject}", so the step "${step[1]?.trim()}" was added instead.`);
      }
    }
  }
  if (Object.keys(entries).length === 0) {
    outcomes.push("Every entry was removed at the reviewer's request.");
  }
  artifact.user_story_pseudocode = entries;
  return revisionEnvelope("pseudocode", request, revision);
}
