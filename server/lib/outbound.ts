/**
 * THE outbound-address policy: which addresses this server may open a connection to when a URL comes from a user
 * (a step's `utils.http`, a search endpoint, a worker's webhook). Every caller goes through `checkUrl` or
 * `policedFetch`; none opens its own connection to a user's URL.
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
 * The check is made on the addresses the host name RESOLVES to (all of them: one refused address refuses the URL),
 * never on the name alone, and again on every redirect, before it is followed. IPv4 addresses written inside IPv6
 * (::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged as the IPv4 address they reach.
 *
 * Pinning: `policedFetch` connects to the address `checkUrl` approved, not to whatever a second DNS lookup answers
 * (a rebinding name could answer a public address to the check and 169.254.169.254 to the connect). It sends each
 * request through an undici Agent of its own whose `connect.lookup` answers only the approved address. The URL keeps
 * its host name, so the Host header, TLS SNI and certificate checks are those of the name, as with no pinning;
 * rewriting the URL to the IP with a Host header would break HTTPS (the certificate names the host, not the IP).
 * It uses undici's own `fetch` with that Agent: Node 20's built-in fetch bundles an older undici whose dispatcher
 * interface is not guaranteed to match the npm package's Agent.
 */
import { promises as dns, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, type RequestInit as UndiciRequestInit, type Response, fetch as undiciFetch } from "undici";
import { ConfigError } from "../config";

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
const isIpLiteral = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

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

/** `dns.promises.lookup(host, { all: true })`, or a stand-in for it. */
export type ResolveHost = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

export interface CheckOptions {
  /** Resolves host names; `dns.promises.lookup` unless given (tests stub it). */
  lookup?: ResolveHost;
}

/** A refusal; `dnsCode` when the host name could not be resolved (ENOTFOUND, EAI_AGAIN...): no address was judged, and a later try may resolve. */
export type CheckResult = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string; dnsCode?: string };

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
function parseTarget(url: string | URL): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${String(url)}" is not an absolute URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `${parsed.protocol} URLs are refused: only http and https`;
  return parsed;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Why `url` may not be reached at `address` (its address ranges, then this server's own routes), or undefined. */
function refusalAt(url: URL, address: string, policy: OutboundPolicy): string | undefined {
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

/**
 * Whether `url` may be fetched under `policy`: an http(s) URL whose host (an IP literal, or a name resolved with all
 * its addresses) has no refused address. `address` is the one to connect to; nothing is connected here.
 */
export async function checkUrl(url: string | URL, policy: OutboundPolicy, options: CheckOptions = {}): Promise<CheckResult> {
  const parsed = parseTarget(url);
  if (typeof parsed === "string") return { ok: false, reason: parsed };
  const host = hostOf(parsed);
  let addresses: LookupAddress[];
  if (isIpLiteral(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    try {
      const resolve: ResolveHost = options.lookup ?? dns.lookup;
      addresses = await resolve(host, { all: true });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return { ok: false, reason: `${host} could not be resolved: ${error instanceof Error ? error.message : String(error)}`, dnsCode: typeof code === "string" ? code : "EAI_FAIL" };
    }
    if (addresses.length === 0) return { ok: false, reason: `${host} resolves to no address` };
  }
  for (const { address } of addresses) {
    const reason = refusalAt(parsed, address, policy);
    if (reason) return { ok: false, reason };
  }
  const first = addresses[0] as LookupAddress;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A URL the policy refused (`reason` says why), or a chain of redirects longer than allowed. */
export class OutboundRefusal extends Error {
  override name = "OutboundRefusal";
  constructor(
    readonly url: string,
    readonly reason: string,
    /** Set when the host name could not be resolved rather than being refused (CheckResult's `dnsCode`). */
    readonly dnsCode?: string,
  ) {
    super(`outbound request to ${redactUrl(url)} refused: ${reason}`);
  }
}

/** The URL with its query's values and credentials blanked, for messages (a query may hold an API key). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, "…");
    return parsed.href;
  } catch {
    return url;
  }
}

export interface PolicedRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Re-sendable, for a 307/308 redirect. */
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

export interface PolicedFetchOptions extends CheckOptions {
  policy: OutboundPolicy;
  /** Redirects followed (each checked first); one more fails. Default 5; 0 answers the redirect itself. */
  maxRedirects?: number;
}

export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin, as browsers do. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** An Agent whose every connection goes to `address`, whatever the URL's host name resolves to by then. */
/**
 * One connection pool per checked address, kept for the next request to it: a worker or agent called again and
 * again (every dispatch of a run) reuses its keep-alive connections instead of opening one per request. A pool only
 * ever connects to its own address, so reusing it cannot reach an address the policy did not check. The least
 * recently used pools are closed beyond `MAX_POOLS`.
 */
const pools = new Map<string, Agent>();
const MAX_POOLS = 256;

function pinnedAgent(address: string, family: 4 | 6): Agent {
  const key = `${family}/${address}`;
  const pooled = pools.get(key);
  if (pooled) {
    pools.delete(key);
    pools.set(key, pooled);
    return pooled;
  }
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const agent = new Agent({ connect: { lookup } });
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldest, evicted] = pools.entries().next().value as [string, Agent];
    pools.delete(oldest);
    void evicted.close().catch(() => undefined);
  }
  return agent;
}

/**
 * `fetch`, under the outbound policy: the URL and every redirect target are checked (`checkUrl`) before anything is
 * sent to them, and each request is pinned to the address that was checked. Redirects are followed here, at most
 * `maxRedirects`; a 303 (or a 301/302 of a POST) becomes a GET without a body, and credentials are dropped when the
 * origin changes. Throws OutboundRefusal when a URL is refused; otherwise answers like fetch (an HTTP error status
 * is an answer, not a throw). The caller reads or cancels the body, which returns its connection to the pool.
 */
export async function policedFetch(url: string | URL, request: PolicedRequest, options: PolicedFetchOptions): Promise<Response> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = new URL(url);
  let method = (request.method ?? "GET").toUpperCase();
  let body = request.body;
  const headers = { ...request.headers };
  for (let redirects = 0; ; redirects++) {
    const checked = await checkUrl(current, options.policy, options);
    if (!checked.ok) throw new OutboundRefusal(current.href, redirects ? `${checked.reason} (redirect ${redirects})` : checked.reason, checked.dnsCode);
    const agent = pinnedAgent(checked.address, checked.family);
    const init: UndiciRequestInit = { method, headers, redirect: "manual", dispatcher: agent, ...(body !== undefined ? { body } : {}), ...(request.signal ? { signal: request.signal } : {}) };
    const response: Response = await undiciFetch(current, init);
    const location = response.headers.get("location");
    // The caller reads (or cancels) the body; its connection then goes back to the address's pool.
    if (!REDIRECTS.has(response.status) || location === null || maxRedirects === 0) return response;
    await response.body?.cancel();
    if (redirects >= maxRedirects) throw new OutboundRefusal(current.href, `more than ${maxRedirects} redirects`);
    const next = new URL(location, current);
    if (next.origin !== current.origin) for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
    }
    current = next;
  }
}

/** The body of `response` as bytes, failing with `tooLarge(limit)` as soon as it passes `maxBytes` (the rest is not read). */
export async function readBodyLimited(response: Response, maxBytes: number, tooLarge: (maxBytes: number) => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
