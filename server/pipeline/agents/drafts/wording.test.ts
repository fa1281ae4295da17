/**
 * How the built-in agents' drafts read: a brief is split into who does what (capabilities per actor and
 * action), and every agent downstream writes sentences a reviewer can read as an analyst's first draft.
 */
import { describe, expect, it } from "vitest";
import { BRIEFS, type PipelineEnvelopes, feedbackCall, runPipeline } from "../../../testing/agentTestkit";
import { ARTIFACT_TYPES, type TestCase, parseEnvelope } from "../../artifacts";
import { draft } from "./index";

const ride = runPipeline(BRIEFS.rideHailing.domain, BRIEFS.rideHailing.brief);
const clinicPortal = runPipeline(BRIEFS.clinicPortal.domain, BRIEFS.clinicPortal.brief);
const vendors = runPipeline(BRIEFS.streetVendors.domain, BRIEFS.streetVendors.brief);

type Capability = { id: string; name: string; description: string; actor: string; kind: string; domain?: string };
const capabilities = (envelopes: PipelineEnvelopes) => envelopes.requirements.artifact.core_capabilities as Capability[];
const stories = (envelopes: PipelineEnvelopes) => envelopes.agile.artifact.epics.flatMap((epic) => epic.user_stories);
const storyTitled = (envelopes: PipelineEnvelopes, title: string) => stories(envelopes).find((story) => story.title === title);
const testCases = (envelopes: PipelineEnvelopes) => envelopes.qa.artifact.test_suites.flatMap((suite) => suite.test_cases as TestCase[]);

/** Every sentence an envelope holds, with where it is, so a failure names the field. */
function strings(value: unknown, path: string): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${path}[${index}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => strings(item, `${path}.${key}`));
  return [];
}

/** Mistakes the drafts used to make, and others of the same kind. */
const MISREADINGS: [string, RegExp][] = [
  ["a count of 1 with a plural noun", /\b1 (?:capabilities|stories|requirements|dependencies|targets|entities|items|risks|components|functions|suites|test cases|epics|roles|assumptions)\b/],
  ["a count with (s)", /\(s\)/],
  ['"a" before a vowel', /\ba (?:[aei]\w*|o(?!ne)\w*)\b/],
  ['"an" before a consonant', /\ban [bcdfgjklmnpqrtvwxyz]/],
  ["a modal followed by an article", /\b(?:can|to|must|shall) (?:a|an) (?:[a-z-]+ ){0,2}(?:app|portal|wallet|platform)\b/],
  ['the old "let user" phrasing', /\blet user\b|\bAs a User\b/],
  ["a doubled word", /\b(\w+) \1\b/i],
  ["a value rendered as text", /\bundefined\b|\bNaN\b|\[object Object\]/],
  ["a space before punctuation or a doubled full stop", / [.,;]|\.\./],
];

describe("briefs from five domains", () => {
  const all: [string, PipelineEnvelopes][] = [
    ["ride-hailing", ride],
    ["clinic portal", clinicPortal],
    ["street vendors", vendors],
    ["super-app", runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief)],
    ["clinic", runPipeline(BRIEFS.clinic.domain, BRIEFS.clinic.brief)],
  ];

  it.each(all)("every artifact of the %s brief passes its schema", (_, envelopes) => {
    for (const type of ARTIFACT_TYPES) {
      const parsed = parseEnvelope(type, envelopes[type]);
      expect(parsed.success, `${type}: ${parsed.success ? "" : parsed.error}`).toBe(true);
    }
  });

  it.each(all)("no sentence of the %s brief's drafts has a known misreading", (_, envelopes) => {
    const found = ARTIFACT_TYPES.flatMap((type) =>
      strings(envelopes[type], type)
        .filter(([path]) => !path.endsWith("mermaid_sequence_diagram") && !path.includes("user_story_pseudocode"))
        .flatMap(([path, text]) => MISREADINGS.filter(([, pattern]) => pattern.test(text)).map(([mistake]) => `${path}: ${mistake}: "${text}"`)),
    );
    expect(found).toEqual([]);
  });
});

describe("requirements: who does what", () => {
  it("splits a one-sentence brief into one capability per actor and action, carrying the actor into clauses that omit it", () => {
    expect(capabilities(ride).map((capability) => [capability.actor, capability.name, capability.description])).toEqual([
      ["Riders", "Book trips", "Riders can book trips."],
      ["Riders", "Pay by card", "Riders can pay by card."],
      ["Drivers", "Accept trips", "Drivers can accept trips."],
      ["Drivers", "Get paid weekly", "Drivers can get paid weekly."],
      ["Operations staff", "Handle disputes", "Operations staff can handle disputes."],
    ]);
    expect(capabilities(clinicPortal).map((capability) => [capability.actor, capability.name, capability.description])).toEqual([
      ["Patients", "Book appointments online", "Patients can book appointments online."],
      ["Doctors", "Manage schedules", "Doctors can manage their schedules."],
      ["Receptionists", "Confirm visits by SMS", "Receptionists can confirm visits by SMS."],
    ]);
    expect(capabilities(vendors).map((capability) => [capability.actor, capability.name, capability.description])).toEqual([
      ["Street vendors", "Accept QR payments", "Street vendors can accept QR payments."],
      ["Street vendors", "See daily totals", "Street vendors can see daily totals."],
      ["Back office", "Reconcile settlements with the bank every night", "The back office can reconcile settlements with the bank every night."],
    ]);
  });

  it("restates the problem per group instead of repeating the brief", () => {
    expect(ride.requirements.artifact.problem_statement_refined).toBe(
      "The product is a ride-hailing app for a mid-sized city. It serves three groups: riders, who book trips and pay by card; " +
        "drivers, who accept trips and get paid weekly; and operations staff, who handle disputes. It depends on a payment gateway.",
    );
    expect(vendors.requirements.artifact.problem_statement_refined).toBe(
      "The product serves two groups: street vendors, who accept QR payments and see daily totals; and the back office, " +
        "which reconciles settlements with the bank every night. It depends on a payment gateway and a banking interface.",
    );
  });

  it("gives each dependency the clauses that need it as its purpose, not the whole brief", () => {
    expect(ride.requirements.artifact.external_dependencies).toEqual([{ name: "Payment gateway", purpose: "Riders pay by card; drivers get paid weekly." }]);
    expect(clinicPortal.requirements.artifact.external_dependencies).toEqual([{ name: "SMS gateway", purpose: "Receptionists confirm visits by SMS." }]);
    expect(vendors.requirements.artifact.external_dependencies).toEqual([
      { name: "Payment gateway", purpose: "Street vendors accept QR payments." },
      { name: "Banking interface", purpose: "The back office reconciles settlements with the bank every night." },
    ]);
  });

  it("counts in words that agree with the number", () => {
    expect(ride.requirements.artifact.assumptions).toEqual(
      expect.arrayContaining([
        "The brief does not describe sign-up or sign-in: riders, drivers and operations staff are assumed to have accounts whose role decides what they may do.",
        "The payment gateway offers an API and a test environment the product can integrate against.",
        "The five capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it.",
      ]),
    );
    expect(ride.requirements.justification).toContain("5 capabilities from the clauses that say who does what (riders, drivers and operations staff), 1 external dependency");
    expect(ride.requirements.justification).toContain("no quality targets");
    const single = draft("requirements", { run_id: "R", context: { brief: "Tenants report repairs." }, is_feedback: false, feedback: "" });
    expect(single.artifact.assumptions).toContain("The single capability listed here makes up the first release; anything else is out of scope until a reviewer adds it.");
  });

  it("a revision that changes the number of capabilities restates the scope assumption", () => {
    const added = draft("requirements", feedbackCall(ride.requirements, "Add a capability to export trip reports as PDF."));
    expect(added.artifact.core_capabilities).toHaveLength(6);
    expect(added.artifact.assumptions).toContain("The six capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it.");
    expect(added.artifact.assumptions.filter((item) => String(item).includes("listed here"))).toHaveLength(1);
    expect(added.changes_made.modified).toContain('assumptions: "The six capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it."');
    const renamed = draft("requirements", feedbackCall(ride.requirements, 'Rename "Handle disputes" to "Resolve disputes".'));
    expect(renamed.artifact.assumptions).toContain("The five capabilities listed here make up the first release; anything else is out of scope until a reviewer adds it.");
    expect(renamed.changes_made.modified.some((line) => String(line).startsWith("assumptions:"))).toBe(false);
  });

  it("a revision restates the problem from the revised capabilities and quotes the feedback", () => {
    const feedback = "Add a capability for riders to rate drivers. Remove the dispute capability.";
    const revised = draft("requirements", feedbackCall(ride.requirements, feedback));
    expect(revised.artifact.problem_statement_refined).toBe(
      "The product is a ride-hailing app for a mid-sized city. It serves two groups: riders, who book trips, pay by card and rate drivers; " +
        "and drivers, who accept trips and get paid weekly. It depends on a payment gateway.",
    );
    expect(revised.changes_made).toEqual({
      added: ['core_capabilities: CAP-006 "Rate drivers"'],
      removed: ['core_capabilities: CAP-005 "Handle disputes"'],
      modified: ["problem_statement_refined"],
    });
    expect(revised.justification).toContain(`"${feedback}"`);
  });

  it("a reviewer's noun phrase becomes something the system supports, not a broken sentence", () => {
    const revised = draft("requirements", feedbackCall(vendors.requirements, "Cover refunds to customers"));
    expect(capabilities({ ...vendors, requirements: revised }).at(-1)).toMatchObject({ name: "Support refunds to customers", description: "The system must support refunds to customers.", kind: "system" });
  });
});

describe("inception", () => {
  it("writes the vision and requirements per group, and ensures what is done for an actor rather than allowing it", () => {
    expect(ride.inception.artifact.product_vision).toBe(
      "For riders, drivers and operations staff, the product is a ride-hailing app for a mid-sized city that lets riders book trips and pay by card, " +
        "drivers accept trips and get paid weekly, and operations staff handle disputes, built on a payment gateway. " +
        "Unlike separate tools for each task, it keeps all five capabilities in one place with one shared history.",
    );
    expect(ride.inception.artifact.functional_requirements.map((requirement) => requirement.description)).toEqual([
      "The system shall allow riders to book trips.",
      "The system shall allow riders to pay by card.",
      "The system shall allow drivers to accept trips.",
      "The system shall ensure that drivers get paid weekly.",
      "The system shall allow operations staff to handle disputes.",
    ]);
    expect(vendors.inception.artifact.functional_requirements.at(-1)?.description).toBe("The system shall allow the back office to reconcile settlements with the bank every night.");
    expect(ride.inception.artifact.stakeholders.slice(0, 3)).toEqual([
      { name: "Riders", interest: "Need to book trips and pay by card" },
      { name: "Drivers", interest: "Need to accept trips and get paid weekly" },
      { name: "Operations staff", interest: "Need to handle disputes" },
    ]);
    expect(ride.inception.artifact.risk_matrix[0]).toMatchObject({ risk: "The payment gateway is unavailable or changes its API" });
  });
});

describe("agile", () => {
  it("writes each story for one member of the group, in the first person", () => {
    expect(storyTitled(ride, "Pay by card")?.story).toBe("As a rider, I want to pay by card, so that the payment is settled and I keep a receipt.");
    expect(storyTitled(ride, "Handle disputes")?.story).toBe("As an operations staff member, I want to handle disputes, so that each dispute is resolved and its outcome recorded.");
    expect(storyTitled(clinicPortal, "Manage schedules")?.story).toBe("As a doctor, I want to manage my schedules, so that my schedules stay accurate without extra paperwork.");
    expect(storyTitled(vendors, "Reconcile settlements with the bank every night")?.as_a).toBe("Back office member");
  });

  it("writes scenarios about one instance, and about the due date for what happens to the actor", () => {
    expect(storyTitled(ride, "Book trips")?.acceptance_criteria?.[0]).toBe("Given I am signed in as a rider, when I book a trip, then the trip is saved and I see a confirmation");
    expect(storyTitled(ride, "Pay by card")?.acceptance_criteria).toContain(
      "Given the payment gateway is unavailable, when I pay by card, then I see that it could not be completed and retrying does not do it twice",
    );
    expect(storyTitled(ride, "Get paid weekly")?.acceptance_criteria?.[0]).toBe("Given I am a driver with complete account details, when my payout is due, then the payout reaches me and I can see it in my account");
    expect(storyTitled(clinicPortal, "Confirm visits by SMS")?.acceptance_criteria?.[0]).toBe(
      "Given I am signed in as a receptionist, when I confirm a visit by SMS, then the visit is updated and I see a confirmation",
    );
  });

  it("describes each epic by who does what in it", () => {
    expect(ride.agile.artifact.epics.map((epic) => [epic.title, epic.description])).toEqual([
      ["Mobility and logistics", "Lets riders book trips and drivers accept trips."],
      ["Payments and billing", "Lets riders pay by card and drivers get paid weekly."],
      ["Support and dispute resolution", "Lets operations staff handle disputes."],
    ]);
    expect(vendors.agile.artifact.epics[0]?.description).toBe("Lets street vendors accept QR payments and the back office reconcile settlements with the bank every night.");
    expect(ride.agile.justification).toContain("grouped into 3 epics");
    expect(ride.agile.artifact.epics.map((epic) => epic.user_stories.length)).toEqual([2, 2, 1]);
  });
});

describe("diagrams, pseudocode and test cases", () => {
  it("relates each role to the thing its story works on, with a verb for what it does", () => {
    const model = ride.diagramacion.artifact.entity_relationship_model as { relationships: { from: string; to: string; label: string }[] };
    expect(model.relationships.map((relationship) => `${relationship.from} ${relationship.label} ${relationship.to}`)).toEqual([
      "Rider books Trip",
      "Driver accepts Trip",
      "Rider pays Payment",
      "Driver receives Payout",
      "OperationsStaffMember handles Dispute",
    ]);
  });

  it("names the Mermaid participants by role and draws what happens to an actor as a scheduled run", () => {
    const source = ride.diagramacion.artifact.mermaid_sequence_diagram;
    expect(source).toContain("actor A1 as Rider\n  actor A2 as Driver\n  actor A3 as Operations staff member\n");
    expect(source).toContain("participant X1 as Payment gateway");
    expect(source).toContain("  API->>API: scheduled run - get paid weekly\n  API->>X1: request to pay the driver\n");
    expect(vendors.diagramacion.artifact.mermaid_sequence_diagram).toContain("actor A2 as Back office member");
  });

  it("names functions after the action, without the time and place words", () => {
    const byStory = vendors.pseudocodigo.artifact.user_story_pseudocode as Record<string, string>;
    expect(Object.values(byStory).map((code) => code.split("\n")[0])).toEqual([
      "FUNCTION acceptQrPayments(streetVendor, input)",
      "FUNCTION reconcileSettlements(backOfficeMember, input)",
      "FUNCTION seeDailyTotals(streetVendor, input)",
    ]);
    const payout = (ride.pseudocodigo.artifact.user_story_pseudocode as Record<string, string>)[storyTitled(ride, "Get paid weekly")?.id ?? ""];
    expect(payout).toMatch(/^FUNCTION payDriver\(driver, input\)\n {2}\/\/ US-004: Get paid weekly \(runs on a schedule for each driver\)/);
    expect(payout).not.toContain("REQUIRE driver is signed in");
    expect(payout).toContain('paymentGatewayResult <- CALL Payment gateway FOR "pay the driver" WITH idempotency key = input.id');
  });

  it("writes test steps about one instance and expected results about the role", () => {
    const bookTrip = testCases(ride).find((testCase) => testCase.title === "Book trips: succeeds with valid input");
    expect(bookTrip).toMatchObject({ steps: ["Open the trip screen", "Book a trip with valid details", "Submit"], expected_result: "The trip is saved and the rider sees a confirmation." });
    const payout = testCases(ride).find((testCase) => testCase.title === "Get paid weekly: succeeds with valid input");
    expect(payout).toMatchObject({
      preconditions: ["A driver with complete account details", "Payment gateway test environment reachable"],
      steps: ["Make a payout due for this driver", "Let the scheduled run process it", "Open the payout list"],
      expected_result: "The payout reaches the driver and they can see it in their account.",
    });
    expect(ride.qa.justification).toMatch(/^21 test cases \(TC-001 to TC-021\) in 4 suites/);
  });
});
