/**
 * How the inception agent revises its artifact after a reviewer's feedback: comments change the parts they point
 * at; general feedback adds risks, stakeholders, scope, vision, architecture components and functional or
 * non-functional requirements, and removes (into scope_out) or rewords items. The first draft is in
 * ../drafts/inception.ts.
 */
import type { EnvelopeOf, InceptionArtifact } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { functionalRequirement } from "../drafts/inception";
import type { CapabilityFact } from "../drafts/shared";
import { type Directive, fieldsNamed, mentions } from "../feedback";
import { type AgentRequest, previousArtifact } from "../request";
import { capabilitiesIn, capabilityName } from "../text/capabilities";
import { itemId, nextNumber, padId } from "../text/items";
import { lowerFirst, sentenceCase } from "../text/normalize";
import { isQualityText, qualityCategory } from "../text/quality";
import { isBaseVerb } from "../text/verbs";
import { copyOf, label, recordNote, removeMatching, renameMatching } from "./shared";

const LIST_HINTS = {
  functional_requirements: /\b(functional requirements?|FR-\d+|features?|capabilit(?:y|ies))\b/i,
  non_functional_requirements: /\b(non-functional|nfrs?|NFR-\d+|quality)\b/i,
  scope_in: /\bscope\b/i,
  scope_out: /\bout of scope\b/i,
  stakeholders: /\bstakeholders?\b/i,
  risk_matrix: /\b(risks?|R-\d+)\b/i,
};

function nextId(items: readonly unknown[], prefix: string, width = 3): string {
  return padId(prefix, nextNumber(items.map((item) => itemId(item) ?? ""), prefix), width);
}

/** Requirements, risks and stakeholders take what is asked for in their description, mitigation or interest (the defaults). */
const INCEPTION_RULES: PartRules<InceptionArtifact> = {};
const REQUIREMENT_ITEM = /^(?:non_)?functional_requirements\[[^\]]+\]$/;

export function reviseInception(request: AgentRequest): EnvelopeOf<"inception"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "inception")), request, INCEPTION_RULES);
  const { artifact, changes, outcomes } = revision;

  const addFunctional = (directive: Directive) => {
    const read = capabilitiesIn(directive.subject)[0];
    const title = capabilityName(read?.action ?? directive.subject);
    const capability: CapabilityFact = read
      ? { id: "", name: title, description: directive.sentence, action: read.action, actor: read.actor, kind: read.kind }
      : {
          id: "",
          name: title,
          description: directive.sentence,
          // "Log every failed call" is an action; "refund handling" names something the system must support.
          action: isBaseVerb(directive.subject.split(" ")[0] ?? "") ? lowerFirst(directive.subject) : `support ${lowerFirst(directive.subject)}`,
          actor: "System",
          kind: "system",
        };
    const requirement = { ...functionalRequirement(capability, nextId(artifact.functional_requirements, "FR")), source: "reviewer feedback" };
    delete (requirement as Record<string, unknown>).capability_id;
    artifact.functional_requirements.push(requirement);
    artifact.scope_in.push(requirement.title);
    changes.added.push(`functional_requirements: ${requirement.id} "${requirement.title}"`, `scope_in: "${requirement.title}"`);
    outcomes.push(`Added ${requirement.id} "${requirement.title}" and put it in scope.`);
  };

  for (const directive of generalDirectives(request)) {
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
      continue;
    }
    if (directive.kind === "split") {
      applySplitRequest(revision, directive, INCEPTION_RULES, REQUIREMENT_ITEM, "requirement");
      continue;
    }
    if (directive.kind === "add") {
      const subject = sentenceCase(directive.subject);
      if (mentions(directive, /\brisks?\b/i)) {
        const risk = { id: nextId(artifact.risk_matrix, "R", 2), risk: subject, probability: "Medium", impact: "Medium", mitigation: "Raised at review: agree an owner and a mitigation before the agile backlog is planned" };
        artifact.risk_matrix.push(risk);
        changes.added.push(`risk_matrix: ${risk.id} "${subject}"`);
        outcomes.push(`Added risk ${risk.id} "${subject}".`);
      } else if (mentions(directive, /\bstakeholders?\b/i)) {
        artifact.stakeholders.push({ name: subject, interest: `Named by the reviewer: ${directive.sentence}` });
        changes.added.push(`stakeholders: "${subject}"`);
        outcomes.push(`Added the stakeholder "${subject}".`);
      } else if (mentions(directive, /\b(out of scope|not in scope|exclude\w*)\b/i)) {
        artifact.scope_out.push(subject);
        changes.added.push(`scope_out: "${subject}"`);
        outcomes.push(`Put "${subject}" out of scope.`);
      } else if (mentions(directive, /\bvision\b/i)) {
        artifact.product_vision = `${artifact.product_vision.replace(/\s*$/, "")} It also ${lowerFirst(directive.subject).replace(/\.?$/, ".")}`;
        changes.modified.push("product_vision");
        outcomes.push("Extended the product vision.");
      } else if (mentions(directive, /\b(architecture|components?|modules?|layers?)\b/i)) {
        const component = { name: subject, responsibility: directive.sentence };
        const architecture = artifact.high_level_architecture;
        if (typeof architecture === "string") artifact.high_level_architecture = `${architecture}\n${subject}.`;
        else if (Array.isArray(architecture)) architecture.push(component);
        else if (Array.isArray(architecture.components)) (architecture.components as unknown[]).push(component);
        else architecture.components = [component];
        changes.modified.push(`high_level_architecture: added component "${subject}"`);
        outcomes.push(`Added the component "${subject}" to the architecture.`);
      } else if (mentions(directive, /\b(nfrs?|non-functional|quality)\b/i) || (isQualityText(directive.subject) && capabilitiesIn(directive.subject).every((capability) => capability.kind !== "person"))) {
        const requirement = { id: nextId(artifact.non_functional_requirements, "NFR"), title: qualityCategory(directive.subject), description: `${subject}.` };
        artifact.non_functional_requirements.push(requirement);
        changes.added.push(`non_functional_requirements: ${requirement.id} "${requirement.title}"`);
        outcomes.push(`Added ${requirement.id} (${requirement.title}): "${subject}".`);
      } else {
        addFunctional(directive);
      }
      continue;
    }
    const allLists: Record<string, unknown[]> = {
      functional_requirements: artifact.functional_requirements,
      non_functional_requirements: artifact.non_functional_requirements,
      scope_in: artifact.scope_in,
      stakeholders: artifact.stakeholders,
      risk_matrix: artifact.risk_matrix,
      ...(directive.kind === "modify" ? { scope_out: artifact.scope_out } : {}),
    };
    const named: string[] | undefined = fieldsNamed(directive, LIST_HINTS);
    const lists = named ? Object.fromEntries(Object.entries(allLists).filter(([field]) => named.includes(field))) : allLists;
    if (directive.kind === "remove") {
      const removedRequirements = "functional_requirements" in lists ? removeMatching(artifact.functional_requirements, directive) : [];
      const removed = [
        ...removedRequirements.map((item) => `functional_requirements: ${label(item)}`),
        ...Object.entries(lists)
          .filter(([field]) => field !== "functional_requirements")
          .flatMap(([field, items]) => removeMatching(items, directive).map((item) => `${field}: ${label(item)}`)),
      ];
      for (const requirement of removedRequirements) artifact.scope_out.push(`${requirement.title} (removed from scope at the reviewer's request)`);
      if (removedRequirements.length > 0) changes.added.push(...removedRequirements.map((requirement) => `scope_out: "${requirement.title}"`));
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join(", ")}.`);
      } else {
        const excluded = `${sentenceCase(directive.subject)} (excluded at the reviewer's request)`;
        artifact.scope_out.push(excluded);
        changes.added.push(`scope_out: "${excluded}"`);
        outcomes.push(`Nothing matched "${directive.subject}", so it is now listed out of scope.`);
      }
      continue;
    }
    const renamed = Object.entries(lists).flatMap(([field, items]) => renameMatching(items, directive).map((line) => `${field}: ${line}`));
    if (renamed.length > 0) {
      changes.modified.push(...renamed);
      outcomes.push(`Changed ${renamed.join(", ")}.`);
    } else {
      addFunctional({ ...directive, kind: "add", subject: directive.replacement ?? directive.subject });
      outcomes.push(`Nothing matched "${directive.subject}", so "${directive.replacement}" was added instead.`);
    }
  }
  return revisionEnvelope("inception", request, revision);
}
