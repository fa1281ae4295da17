// OUTBOUND_ALLOW read as the outbound-address policy (outboundPolicy.ts). How the policy judges the addresses a URL
// resolves to is tested through checkUrl and policedFetch (policedFetch.test.ts).
import { describe, expect, it } from "vitest";
import { ConfigError } from "./configError";
import { PUBLIC_ONLY, parseOutboundAllow } from "./outboundPolicy";

describe("parseOutboundAllow", () => {
  it("reads CIDRs, single addresses and host names, and treats blank as public only", () => {
    const policy = parseOutboundAllow(" 10.0.0.0/8, 192.168.1.7 , fd12::/16, Build.Internal., *.corp.example ");
    expect(policy.allowedRanges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(["10.0.0.0/8", "192.168.1.7/32", "fd12::/16"]);
    expect(policy.allowedHosts).toEqual(["build.internal", "*.corp.example"]);
    expect(parseOutboundAllow("")).toEqual(PUBLIC_ONLY);
    expect(parseOutboundAllow(undefined)).toEqual(PUBLIC_ONLY);
  });

  it("refuses an entry it cannot read, naming OUTBOUND_ALLOW and the entry", () => {
    expect(() => parseOutboundAllow("10.0.0.0/33")).toThrow(ConfigError);
    expect(() => parseOutboundAllow("10.0.0.0/8, not a host")).toThrow('OUTBOUND_ALLOW: "not a host"');
  });
});
