/**
 * `fetch` (and undici's `request`, for the engine's deliveries) under the outbound-address policy (outboundPolicy.ts).
 * The check is made on the addresses the host name RESOLVES to (all of them: one refused address refuses the URL),
 * never on the name alone, and again on every redirect, before it is followed.
 *
 * Pinning: `policedFetch` and `policedRequest` connect to the address `checkUrl` approved, not to whatever a second
 * DNS lookup answers (a rebinding name could answer a public address to the check and 169.254.169.254 to the
 * connect). Each request goes through an undici Agent of its own whose `connect.lookup` answers only the approved
 * address. The URL keeps its host name, so the Host header, TLS SNI and certificate checks are those of the name, as
 * with no pinning; rewriting the URL to the IP with a Host header would break HTTPS (the certificate names the host,
 * not the IP). They use undici's own `fetch` and `request` with that Agent: Node 20's built-in fetch bundles an older
 * undici whose dispatcher interface is not guaranteed to match the npm package's Agent.
 */
import { promises as dns, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { createRequire } from "node:module";
import { Agent, type Dispatcher, type RequestInit as UndiciRequestInit, type Response, fetch as undiciFetch } from "undici";
import { z } from "zod";
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
  const known = judgedLiterals.get(policy)?.get(String(url));
  if (known) return known;
  const parsed = parseTarget(url);
  if (typeof parsed === "string") return { ok: false, reason: parsed };
  const host = hostOf(parsed);
  if (isIpLiteral(host)) return judgedLiteral(String(url), policy, judged(parsed, [{ address: host, family: host.includes(":") ? 6 : 4 }], policy));
  let addresses: LookupAddress[];
  try {
    const resolve: ResolveHost = options.lookup ?? dns.lookup;
    addresses = await resolve(host, { all: true });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { ok: false, reason: `${host} could not be resolved: ${error instanceof Error ? error.message : String(error)}`, dnsCode: typeof code === "string" ? code : "EAI_FAIL" };
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} resolves to no address` };
  return judged(parsed, addresses, policy);
}

/** The policy's answer for a URL whose host has these addresses: refused if any one is. */
function judged(url: URL, addresses: readonly LookupAddress[], policy: OutboundPolicy): CheckResult {
  for (const { address } of addresses) {
    const reason = refusalAt(url, address, policy);
    if (reason) return { ok: false, reason };
  }
  const first = addresses[0] as LookupAddress;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The answers for URLs whose host is an IP address, by policy and URL: such an answer depends on nothing else (no name
 * is resolved), so a worker called at every dispatch is judged once. URLs with a host name are resolved and judged
 * at every request, as the pinning needs. At most `MAX_JUDGED` URLs a policy are kept; the oldest go first.
 */
const judgedLiterals = new WeakMap<OutboundPolicy, Map<string, CheckResult>>();
const MAX_JUDGED = 1024;

function judgedLiteral(url: string, policy: OutboundPolicy, result: CheckResult): CheckResult {
  let known = judgedLiterals.get(policy);
  if (!known) judgedLiterals.set(policy, (known = new Map()));
  if (known.size >= MAX_JUDGED) known.delete(known.keys().next().value as string);
  known.set(url, result);
  return result;
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

const DEFAULT_MAX_REDIRECTS = 5;

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

/** One request of a chain of redirects: where it goes and what it sends. */
interface Hop {
  url: URL;
  method: string;
  body: string | Uint8Array | undefined;
  headers: Record<string, string>;
}

/** What a redirect needs of an answer: its status, its Location, and how to let its body go. */
interface Answered {
  status: number;
  location: string | null;
  discard(): Promise<void>;
}

/**
 * The outbound policy around `send`: the URL and every redirect target are checked (`checkUrl`) before anything is
 * sent to them, and each request is pinned to the address that was checked. Redirects are followed here, at most
 * `maxRedirects`; a 303 (or a 301/302 of a POST) becomes a GET without a body, and credentials are dropped when the
 * origin changes. Throws OutboundRefusal when a URL is refused.
 */
async function followPoliced<A>(url: string | URL, request: PolicedRequest, options: PolicedFetchOptions, send: (hop: Hop, agent: Agent) => Promise<A>, answered: (answer: A) => Answered): Promise<A> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const hop: Hop = { url: new URL(url), method: (request.method ?? "GET").toUpperCase(), body: request.body, headers: { ...request.headers } };
  for (let redirects = 0; ; redirects++) {
    const checked = await checkUrl(hop.url, options.policy, options);
    if (!checked.ok) throw new OutboundRefusal(hop.url.href, redirects ? `${checked.reason} (redirect ${redirects})` : checked.reason, checked.dnsCode);
    const answer = await send(hop, pinnedAgent(checked.address, checked.family));
    const { status, location, discard } = answered(answer);
    // The caller reads (or lets go of) the body; its connection then goes back to the address's pool.
    if (!REDIRECTS.has(status) || location === null || maxRedirects === 0) return answer;
    await discard();
    if (redirects >= maxRedirects) throw new OutboundRefusal(hop.url.href, `more than ${maxRedirects} redirects`);
    const next = new URL(location, hop.url);
    if (next.origin !== hop.url.origin) for (const name of Object.keys(hop.headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete hop.headers[name];
    if (status === 303 || ((status === 301 || status === 302) && hop.method === "POST")) {
      if (hop.method !== "HEAD") hop.method = "GET";
      hop.body = undefined;
      for (const name of Object.keys(hop.headers)) if (/^content-/i.test(name)) delete hop.headers[name];
    }
    hop.url = next;
  }
}

/**
 * `fetch`, under the outbound policy (`followPoliced`: every URL checked, every request pinned, redirects followed
 * and checked). Answers like fetch (an HTTP error status is an answer, not a throw). The caller reads or cancels the
 * body, which returns its connection to the pool.
 */
export function policedFetch(url: string | URL, request: PolicedRequest, options: PolicedFetchOptions): Promise<Response> {
  return followPoliced(
    url,
    request,
    options,
    (hop, agent) => {
      const init: UndiciRequestInit = { method: hop.method, headers: hop.headers, redirect: "manual", dispatcher: agent, ...(hop.body !== undefined ? { body: hop.body } : {}), ...(request.signal ? { signal: request.signal } : {}) };
      return undiciFetch(hop.url, init);
    },
    (response) => ({ status: response.status, location: response.headers.get("location"), discard: async () => void (await response.body?.cancel()) }),
  );
}

/**
 * The ports the Fetch standard forbids ("bad ports": SMTP, IRC, X11 and others a request could be smuggled into),
 * as undici's own fetch holds them: `policedRequest` refuses them as `policedFetch` does.
 */
const badPorts = z.instanceof(Set<string>).parse(createRequire(import.meta.url)("undici/lib/web/fetch/constants.js").badPortsSet);

/** A request `policedRequest` refused to send: its port is one the Fetch standard forbids. */
export class BadPort extends Error {
  override name = "BadPort";
  constructor(readonly url: string) {
    super("bad port");
  }
}

/** What `policedRequest` answers: the status line and the whole body, as text. */
export interface PolicedAnswer {
  status: number;
  statusText: string;
  text: string;
}

/**
 * One request under the outbound policy, as `policedFetch` sends it (every URL checked, every request pinned,
 * redirects followed and checked, bad ports refused with `BadPort`), over undici's `request` rather than `fetch`:
 * no WHATWG Request, Response, Headers or stream objects, and no AbortSignal, so a small fraction of fetch's CPU per
 * request (measured: 0.03 ms against 0.29 ms, docs/design.md). The engine's deliveries go this way. `timeoutMs`
 * bounds the wait for the answer's headers and then for each part of its body; headers that do not come in time
 * throw undici's HeadersTimeoutError. The body is read whole (as empty when it breaks off).
 */
export async function policedRequest(url: string | URL, request: Omit<PolicedRequest, "signal"> & { timeoutMs: number }, options: PolicedFetchOptions): Promise<PolicedAnswer> {
  const answer = await followPoliced(
    url,
    request,
    options,
    async (hop, agent) => {
      if (badPorts.has(hop.url.port)) throw new BadPort(hop.url.href);
      return agent.request({
        origin: hop.url.origin,
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method as Dispatcher.HttpMethod,
        headers: hop.headers,
        ...(hop.body !== undefined ? { body: hop.body } : {}),
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
    },
    (data) => ({ status: data.statusCode, location: headerValue(data.headers.location), discard: () => data.body.dump() }),
  );
  // A body that breaks off (the connection closed, its timeout) reads as empty: the status line has answered.
  return { status: answer.statusCode, statusText: answer.statusText, text: await answer.body.text().catch(() => "") };
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
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
