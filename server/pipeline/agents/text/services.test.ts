/** How prose names an external service. */
import { describe, expect, it } from "vitest";
import { serviceReference } from "./services";

describe("serviceReference", () => {
  it("writes a kind of service with an article and a named one as it is", () => {
    expect([serviceReference("Payment gateway", "a"), serviceReference("SMS gateway"), serviceReference("Stripe", "a")]).toEqual(["a payment gateway", "the SMS gateway", "Stripe"]);
  });
});
