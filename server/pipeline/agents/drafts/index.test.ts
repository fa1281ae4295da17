/**
 * The built-in deterministic agents: drafts in each artifact type's shape, derived from the brief and the
 * earlier artifacts in the context; revisions that apply the reviewer's feedback to the agent's last envelope.
 */
import { describe, expect, it } from "vitest";
import { BRIEFS, feedbackCall, firstCall, runPipeline } from "../../../testing/agentTestkit";
import { type ArtifactType, ARTIFACT_TYPES, type TestCase, parseEnvelope } from "../../artifacts";
import { AgentInputError } from "../request";
import { draft } from "./index";

const superApp = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const clinic = runPipeline(BRIEFS.clinic.domain, BRIEFS.clinic.brief);

const names = (items: unknown[]) => items.map((item) => (typeof item === "string" ? item : String((item as { name?: string; title?: string }).name ?? (item as { title?: string }).title)));
const stories = (envelopes: typeof superApp) => envelopes.agile.artifact.epics.flatMap((epic) => epic.user_stories);
const testCases = (envelopes: typeof superApp) => envelopes.qa.artifact.test_suites.flatMap((suite) => suite.test_cases as TestCase[]);

describe("first drafts", () => {
  it("every agent's envelope passes its artifact schema, for briefs from two domains", () => {
    for (const envelopes of [superApp, clinic]) {
      for (const type of ARTIFACT_TYPES) {
        const parsed = parseEnvelope(type, envelopes[type]);
        expect(parsed.success, `${type}: ${parsed.success ? "" : parsed.error}`).toBe(true);
        expect(envelopes[type].justification.length).toBeGreaterThan(40);
        expect(envelopes[type].changes_made.added.length).toBeGreaterThan(0);
      }
    }
  });

  it("is deterministic: the same requests give byte-identical envelopes", () => {
    expect(JSON.stringify(runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief))).toBe(JSON.stringify(superApp));
  });

  it("requirements: capabilities are the brief's clauses, with their actors, dependencies and quality targets", () => {
    const artifact = superApp.requirements.artifact;
    expect(names(artifact.core_capabilities)).toEqual(
      expect.arrayContaining(["Order food", "Book rides", "Pay bills", "Manage catalogs", "Track orders", "Accept ride requests", "See the route on a map"]),
    );
    const orderFood = artifact.core_capabilities.find((item) => typeof item === "object" && item.name === "Order food") as Record<string, unknown>;
    expect(orderFood).toMatchObject({ id: "CAP-001", actor: "Customers", description: "Customers can order food." });
    expect(names(artifact.external_dependencies)).toEqual(expect.arrayContaining(["Stripe"]));
    expect(artifact.quality_attributes).toEqual(["The app must support 100k concurrent users.", "The app must respond within 300 ms."]);
    expect(artifact.identified_domains).toEqual(expect.arrayContaining(["super-app", "Payments and billing", "Mobility and logistics"]));
    expect(artifact.problem_statement_refined).toBe(
      "The product is a super-app. It serves three groups: customers, who order food, book rides and pay bills; merchants, who manage their catalogs and track orders; " +
        "and drivers, who accept ride requests and see the route on a map. A rule from the brief: payments must go through Stripe. " +
        "It depends on Stripe and a maps and geolocation provider. It must meet two quality targets set in the brief.",
    );

    const clinicArtifact = clinic.requirements.artifact;
    expect(names(clinicArtifact.core_capabilities)).toEqual(["Book appointments with doctors", "Receive SMS reminders through Twilio", "Manage schedules", "Write prescriptions", "Export monthly reports"]);
    // A standard is not a system to integrate.
    expect(names(clinicArtifact.external_dependencies)).toEqual(["Twilio"]);
    expect(clinicArtifact.quality_attributes).toEqual(["All patient data must be encrypted.", "The system must comply with HIPAA."]);
  });

  it("inception: one {id,title,description} functional requirement per capability, NFRs from the quality targets, risks per dependency", () => {
    const artifact = superApp.inception.artifact;
    const capabilities = superApp.requirements.artifact.core_capabilities;
    expect(artifact.functional_requirements.map((requirement) => requirement.id)).toEqual(capabilities.map((_, index) => `FR-${String(index + 1).padStart(3, "0")}`));
    expect(artifact.functional_requirements.map((requirement) => requirement.title)).toEqual(names(capabilities));
    expect(artifact.functional_requirements[0]).toMatchObject({ id: "FR-001", title: "Order food", description: "The system shall allow customers to order food." });
    const nonFunctional = artifact.non_functional_requirements.map((requirement) => `${requirement.title}: ${requirement.description}`);
    expect(nonFunctional).toEqual(expect.arrayContaining(["Scalability: The app must support 100k concurrent users.", "Performance: The app must respond within 300 ms."]));
    expect(artifact.risk_matrix.map((risk) => (risk as { risk: string }).risk)).toEqual(expect.arrayContaining(["Stripe is unavailable or changes its API"]));
    expect(names(artifact.stakeholders)).toEqual(expect.arrayContaining(["Customers", "Merchants", "Drivers"]));
    expect(artifact.scope_in).toEqual(expect.arrayContaining(["Order food", "Integration with Stripe"]));
  });

  it("agile: every functional requirement has a user story, numbered US-001.. across epics", () => {
    const all = stories(superApp);
    expect(all.map((story) => story.id)).toEqual(all.map((_, index) => `US-${String(index + 1).padStart(3, "0")}`));
    const covered = all.flatMap((story) => story.functional_requirement_ids as string[]).sort();
    expect(covered).toEqual(superApp.inception.artifact.functional_requirements.map((requirement) => requirement.id).sort());
    const orderFood = all.find((story) => story.title === "Order food");
    expect(orderFood?.story).toBe("As a customer, I want to order food, so that I get the food I need without phoning anyone.");
    for (const story of all) expect(story.acceptance_criteria?.length).toBeGreaterThanOrEqual(2);
    const payBills = all.find((story) => story.title === "Pay bills");
    expect(payBills?.acceptance_criteria).toEqual(expect.arrayContaining([expect.stringContaining("Given Stripe is unavailable")]));
    expect(superApp.agile.artifact.epics.map((epic) => epic.title)).toEqual(["Ordering and commerce", "Mobility and logistics", "Payments and billing"]);
    expect(clinic.agile.artifact.epics.map((epic) => epic.title)).toEqual(["Scheduling and bookings", "Notifications and messaging", "Healthcare", "Reporting and analytics"]);
  });

  it("diagramacion: entities and relationships from the stories, one sequence block per story", () => {
    const model = superApp.diagramacion.artifact.entity_relationship_model as { entities: { name: string }[]; relationships: { from: string; to: string; label: string }[] };
    expect(model.entities.map((entity) => entity.name)).toEqual(expect.arrayContaining(["Customer", "Merchant", "Driver", "Ride", "Bill", "Catalog"]));
    expect(model.relationships).toEqual(expect.arrayContaining([expect.objectContaining({ from: "Customer", to: "Ride", label: "books" })]));
    const source = superApp.diagramacion.artifact.mermaid_sequence_diagram;
    expect(source.startsWith("sequenceDiagram\n")).toBe(true);
    for (const story of stories(superApp)) expect(source).toContain(`: ${story.id} `);
    expect(source).toContain("participant X1 as Stripe");
    expect(source).toMatch(/A1->>APP: pay bills\n\s+APP->>API: POST \/bills\n\s+API->>X1: /);
  });

  it("pseudocodigo: one function per story id, shaped by the story", () => {
    const byStory = superApp.pseudocodigo.artifact.user_story_pseudocode as Record<string, string>;
    expect(Object.keys(byStory)).toEqual(stories(superApp).map((story) => story.id));
    for (const code of Object.values(byStory)) expect(code).toMatch(/^FUNCTION \w+\(.*\)\n[\s\S]*\nEND FUNCTION$/);
    const payBills = stories(superApp).find((story) => story.title === "Pay bills");
    expect(byStory[payBills?.id ?? ""]).toContain("CALL Stripe");
    const trackOrders = stories(superApp).find((story) => story.title === "Track orders");
    expect(byStory[trackOrders?.id ?? ""]).toContain("SELECT Order WHERE merchant_id = merchant.id");
  });

  it("qa: numbered test cases that cover every story, plus the non-functional requirements", () => {
    const cases = testCases(superApp);
    expect(cases.map((testCase) => testCase.id)).toEqual(cases.map((_, index) => `TC-${String(index + 1).padStart(3, "0")}`));
    for (const story of stories(superApp)) {
      expect(cases.filter((testCase) => testCase.user_story_id === story.id).length, story.id).toBeGreaterThanOrEqual(2);
    }
    const suites = superApp.qa.artifact.test_suites.map((suite) => suite.name);
    expect(suites).toEqual(["Ordering and commerce", "Mobility and logistics", "Payments and billing", "Non-functional requirements"]);
    expect(cases.find((testCase) => testCase.title === "Pay bills: Stripe unavailable")?.type).toBe("integration");
  });
});

describe("what the drafts accept and refuse", () => {
  it("refuses a call without the earlier artifacts its context should hold, naming what is missing", () => {
    expect(() => draft("inception", firstCall({ domain: "x", brief: "y" }))).toThrow(AgentInputError);
    expect(() => draft("inception", firstCall({ domain: "x", brief: "y" }))).toThrow("context.requirements is missing");
    expect(() => draft("requirements", firstCall({ domain: "x" }))).toThrow("the brief is empty");
    expect(() => draft("nope" as ArtifactType, firstCall({}))).toThrow('no built-in agent "nope"');
  });

  it("refuses a malformed earlier artifact with the field that is wrong", () => {
    expect(() => draft("inception", firstCall({ requirements: { artifact: { problem_statement_refined: "p", core_capabilities: "one" } } }))).toThrow(
      /context\.requirements\.core_capabilities/,
    );
  });

  it("reads a bare artifact or JSON text where the envelope is expected (some n8n set-ups send those)", () => {
    const fromEnvelope = draft("inception", firstCall({ domain: "super-app", brief: BRIEFS.superApp.brief, requirements: superApp.requirements }));
    const fromBare = draft("inception", firstCall({ domain: "super-app", brief: BRIEFS.superApp.brief, requirements: superApp.requirements.artifact }));
    const fromText = draft("inception", firstCall({ domain: "super-app", brief: BRIEFS.superApp.brief, requirements: JSON.stringify(superApp.requirements) }));
    expect(fromBare).toEqual(fromEnvelope);
    expect(fromText).toEqual(fromEnvelope);
  });

  it("builds on an n8n agent's looser output (capabilities as sentences)", () => {
    const requirements = {
      artifact: {
        problem_statement_refined: "Tenants report repairs.",
        identified_domains: ["property"],
        core_capabilities: ["Tenants can report repairs with photos", "Landlords can assign repairs to contractors"],
        external_dependencies: [],
        assumptions: ["Tenants have smartphones"],
      },
      changes_made: { added: [], removed: [], modified: [] },
      justification: "n8n",
    };
    const inception = draft("inception", firstCall({ domain: "rentals", brief: "Tenants report repairs; landlords assign them.", requirements }));
    expect(inception.artifact.functional_requirements).toEqual([
      expect.objectContaining({ id: "FR-001", title: "Report repairs with photos", description: "The system shall allow tenants to report repairs with photos." }),
      expect.objectContaining({ id: "FR-002", title: "Assign repairs to contractors", description: "The system shall allow landlords to assign repairs to contractors." }),
    ]);
    const agile = draft("agile", firstCall({ requirements, inception }));
    expect(agile.artifact.epics.flatMap((epic) => epic.user_stories).map((story) => story.story)).toEqual([
      expect.stringMatching(/^As a tenant, I want to report repairs with photos/),
      expect.stringMatching(/^As a landlord, I want to assign repairs to contractors/),
    ]);
  });
});

describe("revisions on feedback (the context is the agent's last envelope)", () => {
  it("requirements: adds the capability asked for, removes the one named, and says so", () => {
    const feedback = "Add a capability for customers to rate drivers. Remove the map route capability.";
    const revised = draft("requirements", feedbackCall(superApp.requirements, feedback));
    const capabilities = names(revised.artifact.core_capabilities);
    expect(capabilities).toContain("Rate drivers");
    expect(capabilities).not.toContain("See the route on a map");
    expect(revised.artifact.core_capabilities.find((item) => typeof item === "object" && item.name === "Rate drivers")).toMatchObject({ id: "CAP-009", actor: "Customers" });
    // Only the capability list is touched: the map provider stays a dependency.
    expect(names(revised.artifact.external_dependencies)).toContain("Maps and geolocation provider");
    expect(revised.changes_made.added).toContain('core_capabilities: CAP-009 "Rate drivers"');
    expect(revised.changes_made.removed).toEqual(['core_capabilities: CAP-007 "See the route on a map"']);
    expect(revised.changes_made.modified).toContain("problem_statement_refined");
    expect(revised.artifact.problem_statement_refined).toContain("rate drivers");
    expect(revised.justification).toContain(`"${feedback}"`);
    expect(draft("requirements", feedbackCall(superApp.requirements, feedback))).toEqual(revised);
  });

  it("requirements: a remark that asks for nothing specific is kept as a review note", () => {
    const revised = draft("requirements", feedbackCall(superApp.requirements, "Too generic overall."));
    expect(revised.artifact.review_notes).toEqual(["Too generic overall"]);
    expect(revised.changes_made.added).toEqual(['review_notes: "Too generic overall"']);
  });

  it("inception: risk, quality requirement and a dropped requirement land where they belong", () => {
    const revised = draft("inception", feedbackCall(superApp.inception, "Add a risk about driver shortage at night. We need offline support for drivers. Please drop FR-008."));
    expect(revised.artifact.risk_matrix.at(-1)).toMatchObject({ risk: "Driver shortage at night" });
    expect(revised.artifact.non_functional_requirements.at(-1)).toMatchObject({ title: "Offline operation", description: "Offline support for drivers." });
    expect(revised.artifact.functional_requirements.map((requirement) => requirement.id)).not.toContain("FR-008");
    expect(revised.artifact.scope_out).toEqual(expect.arrayContaining([expect.stringContaining("Payments must go through Stripe")]));
    expect(revised.changes_made.removed).toEqual(['functional_requirements: FR-008 "Payments must go through Stripe"']);
  });

  it("agile: a wish becomes a story, a priority changes, a story gains a criterion", () => {
    const revised = draft("agile", feedbackCall(superApp.agile, "Drivers should be able to rate customers. Make US-003 a Must. US-001 needs a criterion for closed restaurants."));
    const all = revised.artifact.epics.flatMap((epic) => epic.user_stories);
    expect(all.find((story) => story.id === "US-009")).toMatchObject({ title: "Rate customers", as_a: "Driver", i_want: "to rate customers" });
    expect(all.find((story) => story.id === "US-003")?.priority).toBe("Must");
    expect(all.find((story) => story.id === "US-001")?.acceptance_criteria?.at(-1)).toBe("Given closed restaurants, when I order food, then the product handles it and tells me what happened");
    expect(revised.changes_made).toEqual({
      added: ['user_stories: US-009 "Rate customers" in EP-02'],
      removed: [],
      modified: ["US-003: priority Should -> Must", expect.stringMatching(/^US-001: acceptance criterion added/)],
    });
  });

  it("agile: removing a story by id removes it, and removing every story is refused", () => {
    const revised = draft("agile", feedbackCall(superApp.agile, "Remove US-002."));
    expect(revised.artifact.epics.flatMap((epic) => epic.user_stories).map((story) => story.id)).not.toContain("US-002");
    expect(revised.changes_made.removed).toEqual(['user_stories: US-002 "Manage catalogs"']);
    const ids = stories(superApp).map((story) => story.id).join(", ");
    expect(() => draft("agile", feedbackCall(superApp.agile, `Remove ${ids}.`))).toThrow("removes every user story");
  });

  it("diagramacion: new entity with its relationship, a new sequence step, a rename everywhere", () => {
    const revised = draft("diagramacion", feedbackCall(superApp.diagramacion, "Add a Notification entity related to Customer. Show the refund flow. Rename Food to Meal."));
    const model = revised.artifact.entity_relationship_model as { entities: { name: string }[]; relationships: { from: string; to: string }[] };
    expect(model.entities.map((entity) => entity.name)).toEqual(expect.arrayContaining(["Notification", "Meal"]));
    expect(model.entities.map((entity) => entity.name)).not.toContain("Food");
    expect(model.relationships).toEqual(expect.arrayContaining([expect.objectContaining({ from: "Customer", to: "Notification" }), expect.objectContaining({ from: "Customer", to: "Meal" })]));
    expect(revised.artifact.mermaid_sequence_diagram).toContain("A1->>API: refund flow");
    expect(revised.artifact.mermaid_sequence_diagram).toContain("insert Meal");
    expect(revised.artifact.mermaid_sequence_diagram).not.toContain("Food");
    expect(revised.changes_made.added).toEqual(["entity_relationship_model: entity Notification", "entity_relationship_model: Customer has Notification (1:N)"]);
  });

  it("pseudocodigo: the step lands in the story named, or in the functions the words fit", () => {
    const revised = draft("pseudocodigo", feedbackCall(superApp.pseudocodigo, "Validate the card expiry in US-007."));
    const byStory = revised.artifact.user_story_pseudocode as Record<string, string>;
    const before = superApp.pseudocodigo.artifact.user_story_pseudocode as Record<string, string>;
    expect(byStory["US-007"]).toContain("  ENSURE validate the card expiry\nEND FUNCTION");
    expect(byStory["US-001"]).toBe(before["US-001"]);
    expect(revised.changes_made.modified).toEqual(['user_story_pseudocode: US-007 gained the step "ENSURE validate the card expiry"']);
  });

  it("qa: a case for the story named, and the cases named removed", () => {
    const revised = draft("qa", feedbackCall(superApp.qa, "Add a test for expired cards in US-007. Remove the Track orders cases."));
    const cases = revised.artifact.test_suites.flatMap((suite) => suite.test_cases as TestCase[]);
    const added = cases.find((testCase) => testCase.title === "Expired cards");
    expect(added).toMatchObject({ id: `TC-${String(testCases(superApp).length + 1).padStart(3, "0")}`, user_story_id: "US-007", type: "negative" });
    expect(cases.some((testCase) => testCase.title.startsWith("Track orders"))).toBe(false);
    expect(revised.changes_made.removed).toHaveLength(3);
  });

  it("never modifies the context it was given", () => {
    const before = JSON.stringify(superApp.requirements);
    draft("requirements", feedbackCall(superApp.requirements, "Remove the pay bills capability."));
    expect(JSON.stringify(superApp.requirements)).toBe(before);
  });

  it("refuses feedback calls without feedback text or without the previous artifact", () => {
    expect(() => draft("qa", feedbackCall(superApp.qa, "   "))).toThrow("feedback is empty");
    expect(() => draft("qa", feedbackCall({}, "Add a case"))).toThrow("must carry the agent's last artifact");
  });
});
