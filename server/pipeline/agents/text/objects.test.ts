/** What an action works on, and one instance of it. */
import { describe, expect, it } from "vitest";
import { objectNoun, objectText, oneOf } from "./objects";

describe("objects of actions", () => {
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
});
