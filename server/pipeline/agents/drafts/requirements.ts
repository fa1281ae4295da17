/**
 * The requirements agent: reads the brief sentence by sentence into who must be able to do what (capabilities),
 * which outside systems that needs, which business domains it touches and which quality targets it sets,
 * and states the assumptions the brief leaves open.
 */
import type { EnvelopeOf, RequirementsArtifact } from "../../artifacts";
import { type Directive, fieldsNamed, mentions, parseFeedback, revisionJustification } from "../feedback";
import { type AgentRequest, AgentInputError, briefOf, domainOf, previousArtifact } from "../request";
import {
  type ExtractedCapability,
  capabilitiesIn,
  domainsIn,
  externalServicesIn,
  isQualityText,
  itemText,
  joinList,
  lowerFirst,
  nextNumber,
  padId,
  roleName,
  sentenceCase,
  shorten,
  splitSentences,
  primaryDomain,
  qualityTargetsIn,
} from "../text";
import { type Changes, copyOf, envelope, label, noChanges, recordNote, removeMatching, renameMatching } from "./shared";

type CapabilityItem = {
  id: string;
  name: string;
  description: string;
  actor: string;
  kind: ExtractedCapability["kind"];
  domain?: string;
};

function describeCapability(capability: ExtractedCapability): string {
  if (capability.kind === "person") return `${capability.actor} can ${capability.action}.`;
  if (capability.kind === "system") return `The system must ${capability.action}.`;
  return `${sentenceCase(capability.action)}.`;
}

function capabilityItem(capability: ExtractedCapability, id: string): CapabilityItem {
  const name = sentenceCase(shorten(capability.action, 10));
  // The action decides the domain; the sentence only when the action alone names none ("customers can order food, book rides and pay bills").
  const domain = primaryDomain(capability.action) ?? primaryDomain(capability.sentence);
  return { id, name, description: describeCapability(capability), actor: capability.actor, kind: capability.kind, ...(domain ? { domain } : {}) };
}

function productName(domain: string): string {
  return domain ? `${domain} product` : "product";
}

export function draftRequirements(request: AgentRequest): EnvelopeOf<"requirements"> {
  const brief = briefOf(request);
  const domain = domainOf(request);
  if (brief === "") throw new AgentInputError("requirements: the brief is empty; the requirements agent drafts from context.brief");
  const sentences = splitSentences(brief);

  const seen = new Set<string>();
  const extracted: ExtractedCapability[] = [];
  for (const sentence of sentences) {
    for (const capability of capabilitiesIn(sentence)) {
      const key = capability.action.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        extracted.push(capability);
      }
    }
  }
  const qualityTargets = sentences.filter((sentence) => isQualityText(sentence) && capabilitiesIn(sentence).length === 0).flatMap(qualityTargetsIn);
  // A brief that only describes ("A recipe planner for families") still yields something to build: its descriptive sentences.
  if (extracted.length === 0) {
    const descriptive = sentences.filter((sentence) => !isQualityText(sentence));
    for (const sentence of descriptive.length > 0 ? descriptive : sentences.slice(0, 1)) {
      extracted.push({ actor: "User", action: lowerFirst(sentence), sentence, kind: "person" });
    }
  }
  const capabilities = extracted.map((capability, index) => capabilityItem(capability, padId("CAP", index + 1)));
  const services = externalServicesIn(brief);
  const domains = [...new Set([...(domain ? [domain] : []), ...domainsIn(brief)])];
  const roles = [...new Set(capabilities.filter((capability) => capability.kind === "person").map((capability) => capability.actor))];

  const assumptions: string[] = [];
  if (roles.length > 0 && !domainsIn(brief).includes("Identity and access")) {
    assumptions.push(`The brief does not describe sign-up or sign-in: ${joinList(roles.map((role) => role.toLowerCase()))} are assumed to have accounts whose role decides what they may do.`);
  }
  for (const service of services) assumptions.push(`${service.name} offers an API and a test environment the product can integrate against.`);
  if (qualityTargets.length === 0) {
    assumptions.push(`The brief sets no load, response-time or availability targets; the first release is sized for a pilot of the ${productName(domain)} and measured before targets are fixed.`);
  } else {
    assumptions.push(`The quality targets stated in the brief apply to production load: ${qualityTargets.map((target) => lowerFirst(target.replace(/\.$/, ""))).join("; ")}.`);
  }
  assumptions.push(`The ${capabilities.length} capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it.`);

  const lead = sentences[0] ? `${sentenceCase(sentences[0])}.` : "";
  const who = roles.length > 0 ? joinList(roles.map((role) => role.toLowerCase())) : "its users";
  const shown = capabilities.slice(0, 6).map((capability) => lowerFirst(capability.name));
  const doWhat = capabilities.length > 6 ? `${shown.join(", ")} and ${capabilities.length - 6} more` : joinList(shown);
  const problem = [
    lead,
    `The ${productName(domain)} must let ${who} ${doWhat}.`,
    services.length > 0 ? `It depends on ${joinList(services.map((service) => service.name))}.` : "",
    qualityTargets.length > 0 ? `It must meet ${qualityTargets.length} quality target${qualityTargets.length === 1 ? "" : "s"} set in the brief.` : "",
  ]
    .filter(Boolean)
    .join(" ");

  const artifact: RequirementsArtifact = {
    problem_statement_refined: problem,
    identified_domains: domains.length > 0 ? domains : [`Core ${productName(domain)} operations`],
    core_capabilities: capabilities,
    external_dependencies: services.map((service) => ({ name: service.name, purpose: service.purpose })),
    assumptions,
    quality_attributes: qualityTargets,
  };
  const changes: Changes = {
    added: [
      "problem_statement_refined",
      `identified_domains: ${artifact.identified_domains.map(itemText).join("; ")}`,
      ...capabilities.map((capability) => `core_capabilities: ${capability.id} "${capability.name}"`),
      ...services.map((service) => `external_dependencies: ${service.name}`),
      ...assumptions.map((assumption) => `assumptions: "${assumption}"`),
      ...qualityTargets.map((target) => `quality_attributes: "${target}"`),
    ],
    removed: [],
    modified: [],
  };
  const justification =
    `Drafted from the ${sentences.length}-sentence brief${domain ? ` for the "${domain}" domain` : ""}: ` +
    `${capabilities.length} capabilities read from the sentences that say who does what (${joinList(roles.length > 0 ? roles : ["the system"])}), ` +
    `${services.length} external dependencies named or implied by the brief, ${qualityTargets.length} quality target(s) kept as quality_attributes, ` +
    `and ${assumptions.length} assumptions where the brief is silent.`;
  return envelope(artifact, changes, justification);
}

const LIST_HINTS = {
  core_capabilities: /\b(capabilit(?:y|ies)|features?|CAP-\d+)\b/i,
  external_dependencies: /\b(dependenc(?:y|ies)|integrations?|services?|providers?|third[- ]part(?:y|ies))\b/i,
  assumptions: /\bassum\w*/i,
  identified_domains: /\bdomains?\b/i,
  quality_attributes: /\b(quality|targets?|nfrs?|non-functional)\b/i,
};

const DEPENDENCY_HINT = /\b(integrat\w*|dependenc\w*|third[- ]party|provider|external|api|gateway|service)\b/i;

export function reviseRequirements(request: AgentRequest): EnvelopeOf<"requirements"> {
  const artifact = copyOf(previousArtifact(request, "requirements"));
  const changes = noChanges();
  const outcomes: string[] = [];
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

  const addCapability = (directive: Directive) => {
    const ids = artifact.core_capabilities.map((item) => (typeof item === "object" && item && "id" in item ? String(item.id) : ""));
    const read = capabilitiesIn(directive.subject)[0];
    const existingActors = artifact.core_capabilities.map((item) => (typeof item === "object" && item && typeof item.actor === "string" ? item.actor : "")).filter(Boolean);
    const actor = read?.actor ?? existingActors[0] ?? "User";
    const capability = capabilityItem(
      read ?? { actor, action: lowerFirst(directive.subject), sentence: directive.sentence, kind: actor === "System" ? "system" : "person" },
      padId("CAP", nextNumber(ids, "CAP")),
    );
    artifact.core_capabilities.push(capability);
    changes.added.push(`core_capabilities: ${capability.id} "${capability.name}"`);
    outcomes.push(`Added capability ${capability.id} "${capability.name}" for ${roleName(capability.actor).toLowerCase()}.`);
  };

  for (const directive of parseFeedback(request.feedback)) {
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
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
  if (changes.added.length + changes.removed.length + changes.modified.length > 0) {
    artifact.problem_statement_refined = reviseProblemStatement(artifact);
    changes.modified.push("problem_statement_refined");
  }
  return envelope(artifact, changes, revisionJustification("requirements", request.feedback, outcomes));
}

/** Keeps the problem statement in step with the capability list after a revision. */
function reviseProblemStatement(artifact: RequirementsArtifact): string {
  const base = artifact.problem_statement_refined.replace(/\s*Revised scope: .*$/s, "");
  const names = artifact.core_capabilities.map(itemText).map(lowerFirst);
  return `${base} Revised scope: ${names.length} capabilities (${joinList(names)}).`;
}
