/**
 * The inception agent: turns the requirements into a product vision, scope, stakeholders, an architecture
 * sketch, a risk matrix and numbered functional (one per capability) and non-functional requirements (one per
 * quality target, plus what the domains and dependencies call for). Its revision after a reviewer's feedback is
 * in ../revisions/inception.ts.
 */
import type { EnvelopeOf, InceptionArtifact, RequirementItem, Risk } from "../../artifacts";
import { type AgentRequest, briefOf, contextArtifact, domainOf } from "../request";
import { actorClause, actorReference, isSingularGroup } from "../text/actors";
import { productDescriptionIn } from "../text/clauses";
import { itemText, padId } from "../text/items";
import { overlap } from "../text/keywords";
import { count, joinClauses, joinList, numberWord } from "../text/lists";
import { lowerArticle, lowerFirst, sentenceCase } from "../text/normalize";
import { qualityCategory } from "../text/quality";
import { qualityTargetsOf } from "../text/qualityTargets";
import { serviceReference } from "../text/services";
import { deliveredBy, thirdPersonPhrase } from "../text/verbs";
import { type CapabilityFact, type Changes, actionsOf, capabilityFacts, envelope, groupsOf, qualityFacts, serviceFacts } from "./shared";

export function functionalRequirement(capability: CapabilityFact, id: string): RequirementItem {
  // "drivers get paid weekly", "patients receive reminders": done for them, not by them: the system ensures it rather than allowing it.
  const description =
    capability.kind === "person" && deliveredBy(capability.action)
      ? `The system shall ensure that ${actorClause(capability.actor, capability.action)}.`
      : capability.kind === "person"
      ? `The system shall allow ${actorReference(capability.actor)} to ${capability.action}.`
      : capability.kind === "system"
        ? `The system shall ${capability.action}.`
        : `The system shall enforce the rule that ${lowerFirst(capability.action)}.`;
  return { id, title: capability.name, description, capability_id: capability.id, actor: capability.actor, ...(capability.domain ? { domain: capability.domain } : {}) };
}

/** What the product does, said the way the brief would: "riders book trips and pay by card", "the system sends reminders". */
function capabilityClause(capability: CapabilityFact): string {
  if (capability.kind === "person") return actorClause(capability.actor, capability.action);
  if (capability.kind === "system") return `the system ${thirdPersonPhrase(capability.action)}`;
  return lowerFirst(capability.action);
}

/** "riders book trips and pay by card, drivers accept trips ..., and operations staff handle disputes" (base verbs, after "lets"). */
function whoDoesWhat(capabilities: readonly CapabilityFact[]): string {
  return joinClauses(groupsOf(capabilities).map((group) => `${actorReference(group)} ${joinList(actionsOf(group, capabilities).map((capability) => capability.action))}`));
}

/** How a risk of missing a quality target is reduced depends on the quality: load is measured, compliance is reviewed. */
const MITIGATION_BY_QUALITY: Record<string, string> = {
  Scalability: "Load-test against the target before release and size the infrastructure from the measurements",
  Performance: "Load-test against the target before release and size the infrastructure from the measurements",
  Availability: "Design for redundancy, rehearse failover and monitor availability from the first release",
  Recoverability: "Rehearse backup restore and failover before release",
  Security: "Review the design against the target and test it (threat model, penetration test) before release",
  "Compliance and privacy": "Review the design against the regulation with a compliance checklist and test it before release",
  Auditability: "Review the audit trail against the target and test it before release",
};

function nonFunctionalRequirements(targets: string[], groups: string[], services: string[], domains: string[]): RequirementItem[] {
  const items: { title: string; description: string }[] = targets.map((target) => ({ title: qualityCategory(target), description: sentenceCase(target).replace(/\.?$/, ".") }));
  const has = (title: string) => items.some((item) => item.title === title);
  if (!has("Security")) {
    items.push({
      title: "Security",
      description: `Every action is authorised by role (${groups.length > 0 ? joinList(groups.map(actorReference)) : "each user's role"}); personal data is encrypted in transit (TLS) and at rest.`,
    });
  }
  if (domains.includes("Payments and billing") && !has("Compliance and privacy")) {
    const gateway = services.find((service) => /stripe|paypal|adyen|braintree|square|mercado|payment/i.test(service));
    items.push({
      title: "Compliance and privacy",
      description: `Card data never reaches the product's servers: payments are tokenised by ${gateway ? serviceReference(gateway) : "the payment gateway"}, keeping the product out of PCI DSS card-data scope.`,
    });
  }
  if (services.length > 0) {
    items.push({
      title: "Integration resilience",
      description: `Calls to ${joinList(services.map((service) => serviceReference(service)))} time out, are retried with backoff, and fail visibly without duplicating work when the service is unavailable.`,
    });
  }
  if ((domains.includes("Payments and billing") || domains.includes("Identity and access")) && !has("Auditability")) {
    items.push({ title: "Auditability", description: "Every change to money or access rights is recorded with who made it and when, and the record cannot be edited." });
  }
  if (!has("Performance") && !has("Scalability")) {
    items.push({ title: "Performance", description: "Interactive requests answer within 1 second at the 95th percentile under the pilot's expected load (to be confirmed, see assumptions)." });
  }
  return items.map((item, index) => ({ id: padId("NFR", index + 1), ...item }));
}

export function draftInception(request: AgentRequest): EnvelopeOf<"inception"> {
  const requirements = contextArtifact(request, "requirements", "inception");
  const domain = domainOf(request);
  const brief = briefOf(request);
  const product = domain ? `the ${domain} product` : "the product";
  const capabilities = capabilityFacts(requirements);
  const services = serviceFacts(requirements).map((service) => service.name);
  const groups = groupsOf(capabilities);
  const domains = requirements.identified_domains.map(itemText);
  const targets = [...qualityFacts(requirements), ...qualityTargetsOf(brief)].filter((target, index, all) => all.findIndex((other) => overlap(other, target) >= 0.8) === index);

  const functional = capabilities.map((capability, index) => functionalRequirement(capability, padId("FR", index + 1)));
  const nonFunctional = nonFunctionalRequirements(targets, groups, services, domains);

  const description = productDescriptionIn(brief);
  const systemActions = capabilities.filter((capability) => capability.kind === "system").map((capability) => capability.action);
  const builtOn = services.length > 0 ? `, built on ${joinList(services.map((service) => serviceReference(service, "a")))}` : "";
  const kept = capabilities.length === 1 ? "keeps this capability" : capabilities.length === 2 ? "keeps both capabilities" : `keeps all ${numberWord(capabilities.length)} capabilities`;
  const vision = [
    groups.length > 0
      ? `For ${joinList(groups.map(actorReference))}, ${product} is ${description ?? "one system"} that lets ${whoDoesWhat(capabilities)}${builtOn}.`
      : `${sentenceCase(product)} is ${description ?? "one system for its users"}${builtOn}.`,
    systemActions.length > 0 ? `The system itself must ${joinList(systemActions)}.` : "",
    `Unlike separate tools for each task, it ${kept} in one place with one shared history` +
      `${targets.length > 0 ? `, while meeting the brief's quality targets (${[...new Set(targets.map(qualityCategory))].map((category) => category.toLowerCase()).join("; ")})` : ""}.`,
  ]
    .filter(Boolean)
    .join(" ");

  const scopeIn = [...capabilities.map((capability) => capability.name), ...services.map((service) => `Integration with ${serviceReference(service, "a")}`)];
  const lowerBrief = brief.toLowerCase();
  const scopeOut = [
    ...services.map((service) => `Building or operating ${serviceReference(service, "a")} itself (it is integrated as an external service)`),
    ...(/\b(mobile|ios|android|app)\b/.test(lowerBrief) ? [] : ["Native iOS and Android apps (the brief does not ask for them; the first release is a responsive web app)"]),
    ...(/\b(report|analytics|dashboard|metric|totals?)\b/.test(lowerBrief) ? [] : ["Reporting and analytics dashboards beyond operational views"]),
    ...(/\b(language|locali|i18n|translat)/.test(lowerBrief) ? [] : ["Localisation into more than one language"]),
    ...(/\b(migrat|import|legacy|existing system)/.test(lowerBrief) ? [] : ["Migrating data from existing systems"]),
  ];

  const stakeholders = [
    ...groups.map((group) => ({
      name: group,
      interest: `${isSingularGroup(group) ? "Needs" : "Need"} to ${joinList(actionsOf(group, capabilities).map((capability) => capability.action))}`,
    })),
    { name: "Product owner", interest: `Owns the scope of ${product} and approves each artifact` },
    { name: "Operations and support", interest: `Runs ${product}${services.length > 0 ? ` and handles incidents with ${joinList(services.map((service) => serviceReference(service)))}` : ""}` },
  ];

  const modules = [...new Set(capabilities.map((capability) => capability.domain ?? "Core"))].map((name) => {
    const members = capabilities.filter((capability) => (capability.domain ?? "Core") === name);
    // One clause per group: "merchants manage their catalogs and track orders".
    const people = groupsOf(members).map((group) => actorClause(group, actionsOf(group, members).map((capability) => capability.action)));
    const others = members.filter((capability) => capability.kind !== "person").map(capabilityClause);
    return { name: `${name} module`, responsibility: sentenceCase([...people, ...others].join("; ")) };
  });
  const users = groups.length > 0 ? joinList(groups.map(actorReference)) : "users";
  const architecture = {
    style: modules.length > 4 ? "Modular monolith, split along business domains, with an integration layer" : "Modular monolith with an integration layer",
    components: [
      { name: "Web client", responsibility: `Screens for ${users}` },
      { name: "API backend", responsibility: "Authenticates requests, enforces roles and exposes one endpoint per capability" },
      ...modules,
      ...(services.length > 0 ? [{ name: "Integration adapters", responsibility: `Calls ${joinList(services.map((service) => serviceReference(service)))} with timeouts and retries` }] : []),
      { name: "PostgreSQL database", responsibility: "System of record for every entity and its history" },
    ],
    integrations: services,
    data_flow: `${sentenceCase(users)} -> Web client -> API backend -> domain modules -> PostgreSQL${services.length > 0 ? `; modules reach ${joinList(services.map((service) => serviceReference(service)))} only through the integration adapters` : ""}`,
  };

  const risks: Omit<Risk, "id">[] = [
    ...services.map((service) => ({
      risk: `${sentenceCase(serviceReference(service))} is unavailable or changes its API`,
      probability: "Medium",
      impact: /pay|stripe|paypal|adyen|bank/i.test(service) ? "High" : "Medium",
      mitigation: `Wrap ${serviceReference(service)} behind an adapter with timeouts, retries and a contract test; watch its status page`,
    })),
    ...targets.map((target) => ({
      risk: `Target not met: ${lowerArticle(target.replace(/\.$/, ""))}`,
      probability: "Medium",
      impact: "High",
      mitigation: MITIGATION_BY_QUALITY[qualityCategory(target)] ?? "Agree how the target is verified and test it before release",
    })),
    ...(capabilities.length > 6
      ? [{ risk: `${sentenceCase(numberWord(capabilities.length))} capabilities are too many for one release`, probability: "High", impact: "Medium", mitigation: "Release in increments, Must-have stories first" }]
      : []),
    ...(groups.length > 2
      ? [{ risk: `The needs of ${joinList(groups.map(actorReference))} conflict`, probability: "Medium", impact: "Medium", mitigation: "Review the epics with one representative of each group" }]
      : []),
    ...requirements.assumptions.slice(0, 3).map((assumption) => ({
      risk: `Assumption proves false: "${itemText(assumption).replace(/\.$/, "")}"`,
      probability: "Low",
      impact: "Medium",
      mitigation: "Confirm it with the stakeholders at the inception review",
    })),
  ];
  const riskMatrix = risks.map((risk, index) => ({ id: padId("R", index + 1, 2), ...risk }));

  const artifact: InceptionArtifact = {
    product_vision: vision,
    scope_in: scopeIn,
    scope_out: scopeOut.length > 0 ? scopeOut : ["Anything not listed in scope_in"],
    stakeholders,
    high_level_architecture: architecture,
    risk_matrix: riskMatrix,
    functional_requirements: functional,
    non_functional_requirements: nonFunctional,
  };
  const changes: Changes = {
    added: [
      "product_vision",
      `scope_in: ${count(scopeIn.length, "item")}`,
      `scope_out: ${count(artifact.scope_out.length, "item")}`,
      `stakeholders: ${joinList(stakeholders.map((stakeholder) => stakeholder.name))}`,
      `high_level_architecture: ${count(architecture.components.length, "component")}`,
      `risk_matrix: ${count(riskMatrix.length, "risk")}`,
      ...functional.map((requirement) => `functional_requirements: ${requirement.id} "${requirement.title}"`),
      ...nonFunctional.map((requirement) => `non_functional_requirements: ${requirement.id} "${requirement.title}"`),
    ],
    removed: [],
    modified: [],
  };
  const range = functional.length === 1 ? functional[0]?.id : `${functional[0]?.id} to ${functional[functional.length - 1]?.id}`;
  const justification =
    `One functional requirement per core capability (${count(functional.length, "requirement")}, ${range}); ` +
    `${count(nonFunctional.length, "non-functional requirement")} from ${targets.length > 0 ? `the ${count(targets.length, "quality target")} of the requirements plus ` : ""}what the domains (${domains.join("; ")}) and ` +
    `${count(services.length, "external dependency", "external dependencies")} call for; risks from each dependency, target and open assumption; stakeholders from the groups that act in the capabilities.`;
  return envelope(artifact, changes, justification);
}
