/**
 * The requirements agent: reads the brief sentence by sentence into who must be able to do what (capabilities),
 * which outside systems that needs, which business domains it touches and which quality targets it sets,
 * and states the assumptions the brief leaves open. Its revision after a reviewer's feedback is in
 * ../revisions/requirements.ts.
 */
import type { EnvelopeOf, RequirementsArtifact } from "../../artifacts";
import { type AgentRequest, AgentInputError, briefOf, domainOf } from "../request";
import { actorClause, actorReference, isSingularGroup, roleName } from "../text/actors";
import { type ExtractedCapability, capabilitiesIn, capabilityName } from "../text/capabilities";
import { productDescriptionIn, readClauses } from "../text/clauses";
import { domainsIn, primaryDomain } from "../text/domains";
import { itemText, padId } from "../text/items";
import { count, countInWords, joinList, numberWord } from "../text/lists";
import { lowerFirst, sentenceCase, splitSentences } from "../text/normalize";
import { isQualityText } from "../text/quality";
import { qualityTargetsOf } from "../text/qualityTargets";
import { externalServicesIn, serviceReference } from "../text/services";
import { isBaseVerb, thirdPersonPhrase } from "../text/verbs";
import { type Changes, envelope } from "./shared";

type CapabilityItem = {
  id: string;
  name: string;
  description: string;
  actor: string;
  kind: ExtractedCapability["kind"];
  domain?: string;
};

function describeCapability(capability: ExtractedCapability): string {
  if (capability.kind === "person") return `${sentenceCase(actorReference(capability.actor))} can ${capability.action}.`;
  if (capability.kind === "system") return `The system must ${capability.action}.`;
  return `${sentenceCase(capability.action)}.`;
}

export function capabilityItem(capability: ExtractedCapability, id: string, name = capabilityName(capability.action)): CapabilityItem {
  // The action decides the domain; the clause only when the action alone names none.
  const domain = primaryDomain(capability.action) ?? primaryDomain(capability.sentence);
  return { id, name, description: describeCapability(capability), actor: capability.actor, kind: capability.kind, ...(domain ? { domain } : {}) };
}

/** "riders, drivers and operations staff", or "the back office" on its own, with the verb that agrees. */
function groupsPhrase(groups: readonly string[]): { who: string; are: string } {
  const who = joinList(groups.map(actorReference));
  return { who, are: groups.length === 1 && isSingularGroup(groups[0] ?? "") ? "is" : "are" };
}

/** A brief that only describes ("A recipe planner for families") still yields something to build: using what it describes. */
function capabilitiesFromDescription(brief: string): ExtractedCapability[] {
  const descriptions = readClauses(brief).filter((clause) => clause.kind === "description" && !isQualityText(clause.text));
  const described = productDescriptionIn(brief);
  const sources = descriptions.length > 0 ? descriptions.slice(0, 1) : [];
  return sources.map((clause) => {
    const forWhom = /\bfor ((?:[a-z-]+ )?[a-z-]+s)\b/i.exec(clause.action);
    const actor = forWhom?.[1] ? sentenceCase(forWhom[1]) : "Users";
    const thing = (described ?? lowerFirst(clause.action)).replace(/\s+for (?:[a-z-]+ )?[a-z-]+s\b.*$/i, "");
    const action = isBaseVerb(thing.split(" ")[0] ?? "") ? thing : `use ${thing}`;
    return { actor, action, sentence: clause.text, kind: "person" as const };
  });
}

/** The assumption that bounds the first release; a revision that adds or removes capabilities restates it. */
export function scopeAssumption(capabilityCount: number): string {
  return capabilityCount === 1
    ? "The single capability listed here makes up the first release; anything else is out of scope until a reviewer adds it."
    : `The ${numberWord(capabilityCount)} capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it.`;
}
/** The assumption scopeAssumption writes, found again when a revision restates it. */
export const SCOPE_ASSUMPTION = /^The (?:single capability listed here makes|[\w-]+ capabilities listed here make) up the first release;/;

function productOf(domain: string): string {
  return domain ? `the ${domain} product` : "the product";
}

/** "The product is a ride-hailing app ... It serves three groups: riders, who book trips and pay by card; ..." */
export function problemStatement(description: string | undefined, domain: string, extracted: ExtractedCapability[], services: string[], qualityTargets: string[]): string {
  const people = extracted.filter((capability) => capability.kind === "person");
  const groups = [...new Set(people.map((capability) => capability.actor))];
  const served = groups.map((group) => {
    const singularGroup = isSingularGroup(group);
    const actions = people.filter((capability) => capability.actor === group).map((capability) => (singularGroup ? thirdPersonPhrase(capability.action) : capability.action));
    return `${actorReference(group)}, ${singularGroup ? "which" : "who"} ${joinList(actions)}`;
  });
  const subject = description ? "It" : sentenceCase(productOf(domain));
  const system = extracted.filter((capability) => capability.kind === "system").map((capability) => capability.action);
  const rules = extracted.filter((capability) => capability.kind === "rule").map((capability) => capability.action);
  return [
    description ? `The product is ${description}.` : "",
    groups.length === 1 ? `${subject} serves ${served[0]}.` : "",
    groups.length > 1 ? `${subject} serves ${numberWord(groups.length)} groups: ${served.slice(0, -1).join("; ")}; and ${served[served.length - 1]}.` : "",
    system.length > 0 ? (groups.length > 0 ? `It must also ${joinList(system)}.` : `${subject} must ${joinList(system)}.`) : "",
    rules.length > 0 ? `${rules.length === 1 ? "A rule" : "Rules"} from the brief: ${rules.join("; ")}.` : "",
    services.length > 0 ? `It depends on ${joinList(services.map((service) => serviceReference(service, "a")))}.` : "",
    qualityTargets.length > 0 ? `It must meet ${countInWords(qualityTargets.length, "quality target")} set in the brief.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function draftRequirements(request: AgentRequest): EnvelopeOf<"requirements"> {
  const brief = briefOf(request);
  const domain = domainOf(request);
  if (brief === "") throw new AgentInputError("requirements: the brief is empty; the requirements agent drafts from context.brief");
  const sentences = splitSentences(brief);

  const seen = new Set<string>();
  const extracted: ExtractedCapability[] = [];
  for (const capability of capabilitiesIn(brief)) {
    const key = `${roleName(capability.actor)}|${capability.action}`.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      extracted.push(capability);
    }
  }
  if (extracted.length === 0) extracted.push(...capabilitiesFromDescription(brief));
  if (extracted.length === 0) extracted.push({ actor: "Users", action: `use ${productOf(domain)}`, sentence: brief, kind: "person" });
  const qualityTargets = qualityTargetsOf(brief);
  // Two groups doing the same thing ("riders rate trips", "drivers rate trips") get names that say who.
  const nameOf = (capability: ExtractedCapability) => {
    const name = capabilityName(capability.action);
    const shared = extracted.filter((other) => capabilityName(other.action) === name).length > 1;
    return shared && capability.kind === "person" ? capabilityName(actorClause(capability.actor, capability.action)) : name;
  };
  const capabilities = extracted.map((capability, index) => capabilityItem(capability, padId("CAP", index + 1), nameOf(capability)));
  const services = externalServicesIn(brief);
  const domains = [...new Set([...(domain ? [domain] : []), ...domainsIn(brief)])];
  const groups = [...new Set(capabilities.filter((capability) => capability.kind === "person").map((capability) => capability.actor))];

  const assumptions: string[] = [];
  if (groups.length > 0 && !domainsIn(brief).includes("Identity and access")) {
    const { who, are } = groupsPhrase(groups);
    assumptions.push(`The brief does not describe sign-up or sign-in: ${who} ${are} assumed to have accounts whose role decides what they may do.`);
  }
  for (const service of services) assumptions.push(`${sentenceCase(serviceReference(service.name))} offers an API and a test environment the product can integrate against.`);
  if (qualityTargets.length === 0) {
    assumptions.push(`The brief sets no load, response-time or availability targets; the first release is sized for a pilot of ${productOf(domain)} and measured before targets are fixed.`);
  } else {
    assumptions.push(`The quality targets stated in the brief apply to production load: ${qualityTargets.map((target) => lowerFirst(target.replace(/\.$/, ""))).join("; ")}.`);
  }
  assumptions.push(scopeAssumption(capabilities.length));

  const artifact: RequirementsArtifact = {
    problem_statement_refined: problemStatement(productDescriptionIn(brief), domain, extracted, services.map((service) => service.name), qualityTargets),
    identified_domains: domains.length > 0 ? domains : [`Core operations of ${productOf(domain)}`],
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
  const actors = groups.length > 0 ? joinList(groups.map(actorReference)) : "the system";
  const justification =
    `Drafted from the ${numberWord(sentences.length)}-sentence brief${domain ? ` for the "${domain}" domain` : ""}, read clause by clause: ` +
    `${count(capabilities.length, "capability", "capabilities")} from the clauses that say who does what (${actors}), ` +
    `${count(services.length, "external dependency", "external dependencies")} named or implied by the brief, ${count(qualityTargets.length, "quality target")} kept as quality_attributes, ` +
    `and ${count(assumptions.length, "assumption")} where the brief is silent.`;
  return envelope(artifact, changes, justification);
}
