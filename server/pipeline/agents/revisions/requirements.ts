/**
 * How the requirements agent revises its artifact after a reviewer's feedback: comments change the parts they
 * point at; general feedback adds capabilities (or assumptions, dependencies, domains, quality targets), removes
 * or rewords items, and the scope assumption and the problem statement are restated from the revised list.
 * The first draft is in ../drafts/requirements.ts.
 */
import { isPlainObject } from "../../../lib/json";
import type { EnvelopeOf, RequirementsArtifact } from "../../artifacts";
import { type PartRules, applySplitRequest, applyToNamed, commentedRevision, generalDirectives, namedAnchors, revisionEnvelope } from "../comments";
import { SCOPE_ASSUMPTION, capabilityItem, problemStatement, scopeAssumption } from "../drafts/requirements";
import { type Directive, fieldsNamed, mentions } from "../feedback";
import { type AgentRequest, domainOf, previousArtifact } from "../request";
import { actorReference } from "../text/actors";
import { type ExtractedCapability, capabilitiesIn } from "../text/capabilities";
import { itemText, nextNumber, padId } from "../text/items";
import { count, joinList } from "../text/lists";
import { lowerFirst, sentenceCase } from "../text/normalize";
import { isQualityText } from "../text/quality";
import { externalServicesIn } from "../text/services";
import { baseOfThirdPerson, isBaseVerb } from "../text/verbs";
import { copyOf, label, recordNote, removeMatching, renameMatching } from "./shared";

const LIST_HINTS = {
  core_capabilities: /\b(capabilit(?:y|ies)|features?|CAP-\d+)\b/i,
  external_dependencies: /\b(dependenc(?:y|ies)|integrations?|services?|providers?|third[- ]part(?:y|ies))\b/i,
  assumptions: /\bassum\w*/i,
  identified_domains: /\bdomains?\b/i,
  quality_attributes: /\b(quality|targets?|nfrs?|non-functional)\b/i,
};

const DEPENDENCY_HINT = /\b(integrat\w*|dependenc\w*|third[- ]party|provider|external|api|gateway|service)\b/i;

const CAPABILITY_ITEM = /^core_capabilities\[[^\]]+\]$/;

/** A capability is where a rule about it goes (its description, the default); the last one cannot be removed. */
const REQUIREMENTS_RULES: PartRules<RequirementsArtifact> = {
  keepItem: (artifact, part) =>
    CAPABILITY_ITEM.test(part.anchor) && artifact.core_capabilities.length <= 1 ? "it is the only capability, and the requirements need one" : undefined,
};

/**
 * "a member who finds a tool taken should be able to join a waiting list" -> the clause without its relative part
 * ("a member should be able to join a waiting list") and the condition it states ("they find a tool taken").
 */
function mainClause(subject: string): { clause: string; condition?: string } {
  const relative = /^(.+?)\s+(?:who|that)\s+(.+?)\s+((?:should|must|can|could|shall|will|would|may)\s+.+)$/i.exec(subject);
  if (!relative?.[1] || !relative[2] || !relative[3]) return { clause: subject };
  // "who finds a tool taken" -> "they find a tool taken": the condition is said of the group.
  const [verb = "", ...rest] = relative[2].split(" ");
  return { clause: `${relative[1]} ${relative[3]}`, condition: [baseOfThirdPerson(verb) ?? verb, ...rest].join(" ") };
}

export function reviseRequirements(request: AgentRequest): EnvelopeOf<"requirements"> {
  const previous = copyOf(previousArtifact(request, "requirements"));
  const countBefore = previous.core_capabilities.length;
  const revision = commentedRevision(previous, request, REQUIREMENTS_RULES);
  const { artifact, changes, outcomes } = revision;
  const listsFor = (directive: Directive): Record<string, unknown[]> => {
    const lists: Record<string, unknown[]> = {
      core_capabilities: artifact.core_capabilities,
      external_dependencies: artifact.external_dependencies,
      assumptions: artifact.assumptions,
      identified_domains: artifact.identified_domains,
      ...(Array.isArray(artifact.quality_attributes) ? { quality_attributes: artifact.quality_attributes as unknown[] } : {}),
    };
    const named = fieldsNamed(directive, LIST_HINTS);
    return named ? Object.fromEntries(Object.entries(lists).filter(([field]) => (named as string[]).includes(field))) : lists;
  };

  const addCapability = (asked: Directive) => {
    // "a weekly overdue list (CSV), which the brief now asks for": the reviewer's aside is hers, not the capability's.
    const directive = { ...asked, subject: asked.subject.replace(/,?\s+(?:which|that|as|since|because)\s+(?:the brief|you|i|we|she|he|they|it)\b.*$/i, "").trim() };
    const ids = artifact.core_capabilities.map((item) => (typeof item === "object" && item && "id" in item ? String(item.id) : ""));
    const { clause, condition } = mainClause(directive.subject);
    const read = capabilitiesIn(clause)[0];
    const existingActors = artifact.core_capabilities
      .map((item) => (typeof item === "object" && item && typeof item.actor === "string" && item.actor !== "System" ? item.actor : ""))
      .filter(Boolean);
    // "Log every failed call" is something someone does; "refunds to customers" names a thing the product must support.
    const doing = isBaseVerb(directive.subject.split(" ")[0] ?? "");
    const fallback: ExtractedCapability = doing
      ? { actor: existingActors[0] ?? "Users", action: lowerFirst(directive.subject), sentence: directive.sentence, kind: "person" }
      : { actor: "System", action: `support ${lowerFirst(directive.subject)}`, sentence: directive.sentence, kind: "system" };
    const built = capabilityItem(read ?? fallback, padId("CAP", nextNumber(ids, "CAP")));
    const capability = condition ? { ...built, description: `${built.description.replace(/\.$/, "")} when they ${condition}.` } : built;
    artifact.core_capabilities.push(capability);
    changes.added.push(`core_capabilities: ${capability.id} "${capability.name}"`);
    outcomes.push(`Added capability ${capability.id} "${capability.name}" ${capability.kind === "person" ? `for ${actorReference(capability.actor)}` : "for the system to provide"}.`);
  };

  const generalChanges = () => changes.added.length + changes.removed.length + changes.modified.length;
  const commentChanges = generalChanges();
  for (const directive of generalDirectives(request)) {
    const named = namedAnchors(artifact, directive);
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, REQUIREMENTS_RULES, CAPABILITY_ITEM, "capability");
    } else if (directive.kind === "add" && named.length > 0 && capabilitiesIn(mainClause(directive.subject).clause)[0]?.kind !== "person") {
      // "CAP-001 is too vague: a reservation must be limited to 3 days": a rule about the capability named, so it goes into it.
      applyToNamed(revision, named, directive, REQUIREMENTS_RULES);
    } else if (directive.kind === "add") {
      const services = externalServicesIn(directive.subject);
      if (mentions(directive, /\bassum\w*/i)) {
        const assumption = `${sentenceCase(directive.subject)}.`;
        artifact.assumptions.push(assumption);
        changes.added.push(`assumptions: "${assumption}"`);
        outcomes.push(`Added the assumption "${assumption}".`);
      } else if (mentions(directive, DEPENDENCY_HINT) && services.length > 0) {
        for (const service of services) {
          artifact.external_dependencies.push({ name: service.name, purpose: directive.sentence });
          changes.added.push(`external_dependencies: ${service.name}`);
          outcomes.push(`Added ${service.name} to the external dependencies.`);
        }
      } else if (mentions(directive, DEPENDENCY_HINT) && !capabilitiesIn(directive.subject)[0]) {
        const name = sentenceCase(directive.subject);
        artifact.external_dependencies.push({ name, purpose: directive.sentence });
        changes.added.push(`external_dependencies: ${name}`);
        outcomes.push(`Added "${name}" to the external dependencies.`);
      } else if (mentions(directive, /\bdomains?\b/i)) {
        const name = sentenceCase(directive.subject);
        artifact.identified_domains.push(name);
        changes.added.push(`identified_domains: ${name}`);
        outcomes.push(`Added the domain "${name}".`);
      } else if (isQualityText(directive.subject) && capabilitiesIn(directive.subject).every((capability) => capability.kind !== "person")) {
        const target = `${sentenceCase(directive.subject)}.`;
        const targets = Array.isArray(artifact.quality_attributes) ? (artifact.quality_attributes as unknown[]) : [];
        targets.push(target);
        artifact.quality_attributes = targets;
        changes.added.push(`quality_attributes: "${target}"`);
        outcomes.push(`Added the quality target "${target}".`);
      } else {
        addCapability(directive);
      }
    } else if (directive.kind === "remove") {
      const removed = Object.entries(listsFor(directive)).flatMap(([field, items]) => removeMatching(items as unknown[], directive).map((item) => `${field}: ${label(item)}`));
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join(", ")}.`);
      } else {
        const assumption = `Out of scope at the reviewer's request: ${lowerFirst(directive.subject)}.`;
        artifact.assumptions.push(assumption);
        changes.added.push(`assumptions: "${assumption}"`);
        outcomes.push(`Nothing matched "${directive.subject}", so it is recorded as out of scope in the assumptions.`);
      }
    } else {
      const renamed = Object.entries(listsFor(directive)).flatMap(([field, items]) => renameMatching(items as unknown[], directive).map((line) => `${field}: ${line}`));
      if (renamed.length > 0) {
        changes.modified.push(...renamed);
        outcomes.push(`Changed ${renamed.join(", ")}.`);
      } else {
        addCapability({ ...directive, kind: "add", subject: directive.replacement ?? directive.subject });
        outcomes.push(`Nothing matched "${directive.subject}", so "${directive.replacement}" was added instead.`);
      }
    }
  }
  // The summaries follow the general feedback; comments change only the parts they name, unless the count is now wrong.
  const scopeAt = artifact.assumptions.findIndex((item) => typeof item === "string" && SCOPE_ASSUMPTION.test(item));
  const restated = scopeAssumption(artifact.core_capabilities.length);
  if (scopeAt >= 0 && artifact.assumptions[scopeAt] !== restated && (generalChanges() > commentChanges || artifact.core_capabilities.length !== countBefore)) {
    artifact.assumptions[scopeAt] = restated;
    changes.modified.push(`assumptions: "${restated}"`);
  }
  if (generalChanges() > commentChanges) {
    artifact.problem_statement_refined = reviseProblemStatement(artifact, domainOf(request));
    changes.modified.push("problem_statement_refined");
  }
  return revisionEnvelope("requirements", request, revision);
}

/**
 * Keeps the problem statement in step with the capability list after a revision: restated from the revised
 * capabilities when they carry who does what (this agent's own shape), otherwise the revised scope is appended.
 */
function reviseProblemStatement(artifact: RequirementsArtifact, domain: string): string {
  const items = artifact.core_capabilities;
  const structured = items.every((item) => typeof item === "object" && item !== null && typeof item.actor === "string" && typeof item.description === "string");
  if (structured) {
    const extracted = items.map((item): ExtractedCapability => {
      const record = isPlainObject(item) ? item : {};
      const description = String(record.description);
      const kind = record.kind === "system" || record.kind === "rule" ? record.kind : "person";
      const read = capabilitiesIn(description)[0];
      return { actor: String(record.actor), action: read?.action ?? lowerFirst(itemText(item)), sentence: description, kind };
    });
    // The product's description came from the brief, which a revision does not see; the first draft's sentence keeps it.
    const description = /^The product is (.+?)\.(?:\s|$)/.exec(artifact.problem_statement_refined)?.[1];
    const services = artifact.external_dependencies.map(itemText).filter((name) => name.trim() !== "");
    const targets = Array.isArray(artifact.quality_attributes) ? (artifact.quality_attributes as unknown[]).map(itemText) : [];
    return problemStatement(description, domain, extracted, services, targets);
  }
  const base = artifact.problem_statement_refined.replace(/\s*Revised scope: .*$/s, "");
  const names = items.map(itemText).map(lowerFirst);
  return `${base} Revised scope: ${count(names.length, "capability", "capabilities")} (${joinList(names)}).`;
}
