/** An outbox row's payload is parsed where the dispatcher reads it back: what does not parse is named, never sent. */
import { describe, expect, it } from "vitest";
import { UnreadablePayload, callbackLeaseMs, timerAfterMs, workerPayloadOf } from "./dispatchPayloads";

const payload = { runId: "r", nodeId: "W", config: { webhookUrl: "http://127.0.0.1:9/w", leaseMs: 60_000 }, input: { a: 1 }, callbackUrl: "http://127.0.0.1:9/cb", attempt: 1 };

describe("dispatch payloads", () => {
  it("reads a Worker's payload, its callback lease and a timer's delay", () => {
    expect(workerPayloadOf(payload)).toEqual(payload);
    expect(callbackLeaseMs(payload)).toBe(60_000);
    expect(callbackLeaseMs({ ...payload, config: {} })).toBeUndefined();
    expect(callbackLeaseMs({ afterMs: 5 })).toBeUndefined();
    expect(timerAfterMs({ afterMs: 250 })).toBe(250);
  });

  it("refuses a payload of another shape, naming the field", () => {
    expect(() => workerPayloadOf({ ...payload, attempt: "one" })).toThrow(UnreadablePayload);
    expect(() => workerPayloadOf({ ...payload, attempt: "one" })).toThrow(/attempt/);
    expect(() => workerPayloadOf(null)).toThrow(UnreadablePayload);
    expect(() => timerAfterMs({})).toThrow(/afterMs/);
  });
});
