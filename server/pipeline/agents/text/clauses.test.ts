/** Reading briefs into clauses: who does what, with the actor carried into clauses that omit it. */
import { describe, expect, it } from "vitest";
import { capabilitiesIn } from "./capabilities";
import { productDescriptionIn, readClauses } from "./clauses";

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
