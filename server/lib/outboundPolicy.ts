/**
 * THE outbound-address policy: which addresses this server may open a connection to when a URL comes from a user
 * (a step's `utils.http`, a search endpoint, a worker's webhook). Every caller goes through `checkUrl` or
 * `policedFetch` (policedFetch.ts), which resolve the URL's host and judge its addresses here; none opens its own
 * connection to a user's URL.
 *
 * - Link-local and cloud-metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200) and
 *   addresses that are no single host (0.0.0.0/8, ::, multicast, 240.0.0.0/4, broadcast) are ALWAYS refused, even
 *   when OUTBOUND_ALLOW lists them.
 * - Loopback (127.0.0.0/8, ::1) and private ranges (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10) are refused
 *   unless OUTBOUND_ALLOW (comma-separated CIDRs, addresses or host names) lists the address or the URL's host name.
 * - Every other (public) address is allowed.
 * - With `ownServer` (ownServer.ts), none of this server's own routes but its worker endpoints may be reached, at
 *   whatever address; its worker endpoints at NEXT_PUBLIC_BASE_URL are reached whatever OUTBOUND_ALLOW says.
 * `literalRefusal` answers, without resolving anything, for a URL stored now and fetched later (a Worker's webhook).
 *
 * IPv4 addresses written inside IPv6 (::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged as the IPv4
 * address they reach.
 */
import ipaddr from "ipaddr.js";
import { ConfigError } from "./configError";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const cidrs = (...texts: string[]): Range[] => texts.map((text) => ipaddr.parseCIDR(text));

/** Refused whatever OUTBOUND_ALLOW says: what a request from a user must never reach. */
const ALWAYS_REFUSED: { ranges: Range[]; why: string }[] = [
  {
    ranges: cidrs("169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32"),
    why: "a link-local or cloud-metadata address, which is always refused",
  },
  {
    ranges: cidrs("0.0.0.0/8", "::/128", "224.0.0.0/4", "240.0.0.0/4", "ff00::/8"),
    why: "not the address of a single host (unspecified, multicast, broadcast or reserved), which is always refused",
  },
];

/** Refused unless OUTBOUND_ALLOW lists them: this machine and private networks. */
const LOCAL_RANGES: Range[] = cidrs("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7");

/** IPv6 prefixes whose address carries an IPv4 address that the packet ends up at. */
const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
const SIX_TO_FOUR = ipaddr.parseCIDR("2002::/16");

export interface OutboundPolicy {
  /** Loopback or private ranges that may be reached. */
  readonly allowedRanges: readonly Range[];
  /** Host names (lower case, no trailing dot) whose loopback or private addresses may be reached; `*.x` for any under x. */
  readonly allowedHosts: readonly string[];
  /** This server as a destination (ownServer.ts): none of its own routes but its worker endpoints may be called. */
  readonly ownServer?: OwnServerRule;
}

/**
 * This server, seen as the target of one of its own outbound requests. A request it makes for a user must not
 * land on one of its own routes (a Worker at `/runs/{id}/cancel` would cancel a run on the author's behalf), except
 * the endpoints it serves to be called as a worker (the built-in agents).
 */
export interface OwnServerRule {
  /** Why a request to `url`, connecting to `address` (undefined: not resolved yet), would be this server calling one of its own routes; undefined when it would not. */
  refusal(url: URL, address: string | undefined): string | undefined;
  /** A worker endpoint of this server at its own base URL (NEXT_PUBLIC_BASE_URL): reached whatever OUTBOUND_ALLOW says, as it is this server. */
  isOwnWorker(url: URL): boolean;
}

/** Nothing but public addresses. */
export const PUBLIC_ONLY: OutboundPolicy = { allowedRanges: [], allowedHosts: [] };

const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, "");

/** An IP address as a URL's host name holds one after parsing: four-part decimal IPv4, or IPv6 (brackets removed). */
export const isIpLiteral = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

/**
 * OUTBOUND_ALLOW as a policy: comma-separated CIDRs (`127.0.0.1/8`, `fd12::/16`), single addresses (`10.1.2.3`) and
 * host names (`localhost`, `*.internal.example`). Blank or absent: public addresses only. Throws ConfigError naming
 * the entry it cannot read.
 */
export function parseOutboundAllow(text: string | undefined): OutboundPolicy {
  const allowedRanges: Range[] = [];
  const allowedHosts: string[] = [];
  for (const entry of (text ?? "").split(",").map((part) => part.trim()).filter(Boolean)) {
    const bare = entry.replace(/^\[(.*)\]$/, "$1");
    if (bare.includes("/")) {
      try {
        allowedRanges.push(ipaddr.parseCIDR(bare));
        continue;
      } catch {
        throw new ConfigError(`OUTBOUND_ALLOW: "${entry}" is not a CIDR such as 10.0.0.0/8 or fd00::/8`);
      }
    }
    if (isIpLiteral(bare)) {
      const address = ipaddr.parse(bare);
      allowedRanges.push([address, address.kind() === "ipv4" ? 32 : 128]);
      continue;
    }
    const host = normalHost(bare);
    if (!HOST_NAME.test(host)) throw new ConfigError(`OUTBOUND_ALLOW: "${entry}" is neither a CIDR (10.0.0.0/8), an address nor a host name`);
    allowedHosts.push(host);
  }
  return { allowedRanges, allowedHosts };
}

/** The policy the environment sets (OUTBOUND_ALLOW). */
export const outboundPolicyFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): OutboundPolicy => parseOutboundAllow(env.OUTBOUND_ALLOW);

const inAny = (address: Address, ranges: readonly Range[]) => ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), else the address itself. */
function effectiveAddress(text: string): Address {
  const address = ipaddr.process(text);
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    const bytes = v6.toByteArray();
    if (v6.match(NAT64)) return ipaddr.fromByteArray(bytes.slice(12, 16));
    if (v6.match(SIX_TO_FOUR)) return ipaddr.fromByteArray(bytes.slice(2, 6));
  }
  return address;
}

const hostAllowed = (host: string, policy: OutboundPolicy) =>
  policy.allowedHosts.some((allowed) => (allowed.startsWith("*.") ? host.endsWith(allowed.slice(1)) : host === allowed));

/** Why `address` may not be reached for `host` under `policy`, or undefined when it may. */
export function refusalOf(address: string, host: string, policy: OutboundPolicy): string | undefined {
  let effective: Address;
  try {
    effective = effectiveAddress(address);
  } catch {
    return `${address} is not an IP address`;
  }
  const named = host === address ? `${address} is` : `${host} resolves to ${address}, which is`;
  for (const { ranges, why } of ALWAYS_REFUSED) if (inAny(effective, ranges)) return `${named} ${why}`;
  if (!inAny(effective, LOCAL_RANGES)) return undefined;
  if (inAny(effective, policy.allowedRanges) || hostAllowed(normalHost(host), policy)) return undefined;
  return `${named} a loopback or private address, refused unless OUTBOUND_ALLOW lists it (a CIDR such as ${effective.kind() === "ipv4" ? "10.0.0.0/8" : "fd00::/8"}) or the host name`;
}

/** The URL, or why it is not one this policy could allow (not absolute, not http or https). */
export function parseTarget(url: string | URL): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${String(url)}" is not an absolute URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `${parsed.protocol} URLs are refused: only http and https`;
  return parsed;
}

/** The host of a URL as the policy judges it: an IPv6 address without its brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Why `url` may not be reached at `address` (its address ranges, then this server's own routes), or undefined. */
export function refusalAt(url: URL, address: string, policy: OutboundPolicy): string | undefined {
  const host = hostOf(url);
  // This server's own worker endpoints are this server: its host name may be reached whatever its addresses.
  const ranges = policy.ownServer?.isOwnWorker(url) ? { ...policy, allowedHosts: [...policy.allowedHosts, normalHost(host)] } : policy;
  return refusalOf(address, host, ranges) ?? policy.ownServer?.refusal(url, address);
}

/**
 * What can be refused without resolving anything, for a URL stored now and fetched later (a Worker's webhook at
 * registration): not an http(s) URL, an IP address the policy refuses, or one of this server's own routes.
 * A host name is judged on its addresses only when fetched (`checkUrl`).
 */
export function literalRefusal(url: string | URL, policy: OutboundPolicy): string | undefined {
  const parsed = parseTarget(url);
  if (typeof parsed === "string") return parsed;
  const host = hostOf(parsed);
  return isIpLiteral(host) ? refusalAt(parsed, host, policy) : policy.ownServer?.refusal(parsed, undefined);
}
