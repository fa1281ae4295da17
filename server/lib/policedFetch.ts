/**
 * `fetch` under the outbound-address policy (outboundPolicy.ts). The check is made on the addresses the host name
 * RESOLVES to (all of them: one refused address refuses the URL), never on the name alone, and again on every
 * redirect, before it is followed.
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
import { Agent, type RequestInit as UndiciRequestInit, type Response, fetch as undiciFetch } from "undici";
import { type OutboundPolicy, hostOf, isIpLiteral, parseTarget, refusalAt } from "./outboundPolicy";

/** `dns.promises.lookup(host, { all: true })`, or a stand-in for it. */
export type ResolveHost = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

export interface CheckOptions {
  /** Resolves host names; `dns.promises.lookup` unless given (tests stub it). */
  lookup?: ResolveHost;
}

/** A refusal; `dnsCode` when the host name could not be resolved (ENOTFOUND, EAI_AGAIN...): no address was judged, and a later try may resolve. */
export type CheckResult = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string; dnsCode?: string };

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
