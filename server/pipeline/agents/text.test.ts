/** The plain-language reading the built-in agents share: clauses and actors out of briefs, and English back. */
import { describe, expect, it } from "vitest";
import {
  actorClause,
  capabilitiesIn,
  count,
  countInWords,
  objectNoun,
  objectText,
  oneOf,
  pluralNoun,
  productDescriptionIn,
  readClauses,
  roleName,
  serviceReference,
  singular,
  withArticle,
} from "./text";

const said = (text: string) => readClauses(text).map((clause) => `${clause.kind}: ${clause.actor} | ${clause.action}`);

describe("readClauses", () => {
  it("splits at colons, commas and conjunctions and carries the actor into clauses that omit it", () => {
    expect(said("A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly, and operations staff handle disputes.")).toEqual([
      "description: System | A ride-hailing app for a mid-sized city",
      "person: Riders | book trips",
      "person: Riders | pay by card",
      "person: Drivers | accept trips",
      "person: Drivers | get paid weekly",
      "person: Operations staff | handle disputes",
    ]);
  });

  it("reads actors it has no list entry for, groups in the singular, and clauses after where / that lets", () => {
    expect(said("A clinic booking portal where patients book appointments online, doctors manage their schedules, and receptionists confirm visits by SMS.")).toEqual([
      "description: System | A clinic booking portal",
      "person: Patients | book appointments online",
      "person: Doctors | manage their schedules",
      "person: Receptionists | confirm visits by SMS",
    ]);
    expect(said("Street vendors accept QR payments and see daily totals; the back office reconciles settlements with the bank every night.")).toEqual([
      "person: Street vendors | accept QR payments",
      "person: Street vendors | see daily totals",
      "person: Back office | reconcile settlements with the bank every night",
    ]);
    expect(said("A mobile wallet that lets street vendors accept QR payments.")).toEqual(["description: System | A mobile wallet", "person: Street vendors | accept QR payments"]);
  });

  it("keeps lists of things with their verb, shares a lone verb's object, and resolves they and them", () => {
    expect(said("Customers can search and filter products, add them to a cart, and manage products, orders and invoices. Drivers accept trips. They also rate riders.")).toEqual([
      "person: Customers | search and filter products",
      "person: Customers | add products to a cart",
      "person: Customers | manage products, orders and invoices",
      "person: Drivers | accept trips",
      "person: Drivers | rate riders",
    ]);
  });

  it("tells people from the product and from rules about things, and writes each clause with its subject", () => {
    const clauses = readClauses("Payments must go through Stripe and be logged. The app must respond within 2 seconds. Each driver can accept trips.");
    expect(clauses.map((clause) => [clause.kind, clause.text])).toEqual([
      ["rule", "Payments must go through Stripe"],
      ["rule", "Payments must be logged"],
      ["system", "The app must respond within 2 seconds"],
      ["person", "Drivers can accept trips"],
    ]);
    // A quality target of the product is not a capability.
    expect(capabilitiesIn("The app must respond within 2 seconds.")).toEqual([]);
  });

  it("finds what the brief says the product is", () => {
    expect(productDescriptionIn("We are building a super-app where customers can order food.")).toBe("a super-app");
    expect(productDescriptionIn("A ride-hailing app for a mid-sized city: riders book trips.")).toBe("a ride-hailing app for a mid-sized city");
    expect(productDescriptionIn("Street vendors accept QR payments.")).toBeUndefined();
  });
});

describe("English for the drafts", () => {
  it.each([
    ["trip", "trips"],
    ["category", "categories"],
    ["box", "boxes"],
    ["person", "people"],
    ["operations staff", "operations staff"],
    ["staff member", "staff members"],
    ["status", "statuses"],
  ])("pluralNoun(%s) = %s", (one, many) => {
    expect(pluralNoun(one)).toBe(many);
  });

  it.each([
    ["trips", "trip"],
    ["courses", "course"],
    ["nurses", "nurse"],
    ["statuses", "status"],
    ["people", "person"],
    ["address", "address"],
  ])("singular(%s) = %s", (many, one) => {
    expect(singular(many)).toBe(one);
  });

  it("counts with the noun in the right number", () => {
    expect([count(0, "quality target"), count(1, "capability"), count(5, "capability")]).toEqual(["no quality targets", "1 capability", "5 capabilities"]);
    expect([countInWords(1, "group"), countInWords(3, "group")]).toEqual(["one group", "three groups"]);
  });

  it("picks the article by sound, acronyms included", () => {
    expect(["rider", "operations staff member", "user", "SMS gateway", "QR payment", "hour"].map(withArticle)).toEqual([
      "a rider",
      "an operations staff member",
      "a user",
      "an SMS gateway",
      "a QR payment",
      "an hour",
    ]);
  });

  it("names one member of a group for stories, and the group with a verb that agrees", () => {
    expect(["Riders", "Operations staff", "Back office", "Street vendors", "People"].map(roleName)).toEqual(["Rider", "Operations staff member", "Back office member", "Street vendor", "Person"]);
    expect(actorClause("Back office", ["reconcile settlements", "approve refunds"])).toBe("the back office reconciles settlements and approves refunds");
    expect(actorClause("Riders", "pay by card")).toBe("riders pay by card");
  });

  it("names what an action works on, making a noun of the verb when there is no object", () => {
    expect(["book appointments online", "accept ride requests", "pay by card", "get paid weekly", "see daily totals", "log in"].map(objectNoun)).toEqual([
      "Appointment",
      "Request",
      "Payment",
      "Payout",
      "Total",
      "Session",
    ]);
    expect(["accept ride requests", "accept QR payments", "receive SMS reminders through Twilio"].map(objectText)).toEqual(["ride request", "QR payment", "SMS reminder"]);
  });

  it("turns an action into one instance of it for a scenario", () => {
    expect(["book trips", "manage my schedules", "book appointments with doctors", "reconcile settlements with the bank every night", "order food", "pay by card"].map(oneOf)).toEqual([
      "book a trip",
      "manage my schedule",
      "book an appointment with a doctor",
      "reconcile a settlement with the bank",
      "order food",
      "pay by card",
    ]);
  });

  it("writes a kind of service with an article and a named one as it is", () => {
    expect([serviceReference("Payment gateway", "a"), serviceReference("SMS gateway"), serviceReference("Stripe", "a")]).toEqual(["a payment gateway", "the SMS gateway", "Stripe"]);
  });
});
