/**
 * This server as the target of its own outbound requests (outboundPolicy.ts's `OwnServerRule`). The server never calls
 * its own routes for a user: a Worker whose webhookUrl is `http://127.0.0.1:PORT/runs/{id}/cancel` would otherwise
 * cancel that run on the author's behalf. The one exception is what it serves to be called as a worker (the built-in
 * agents' `POST /api/agents/builtin/{slug}`).
 *
 * A URL is this server when
 * - its origin is NEXT_PUBLIC_BASE_URL's (whatever it resolves to: a proxy in front is still this server), or
 * - its port is the one this server listens on and it connects to this machine: a loopback or unspecified address,
 *   or an address of one of this machine's network interfaces (HOST=0.0.0.0 listens on all of them). `localhost`
 *   counts as loopback before it is resolved, so a literal `http://localhost:PORT/...` is refused at registration.
 * Such a URL is refused unless its path (below the base URL's path, for the base origin) is a worker route. A worker
 * route at the base URL's origin is also reached whatever OUTBOUND_ALLOW says: it is this server, as configured.
 * Another name for a proxy in front of this server is not recognised; don't let such a proxy forward requests from
 * this server back to it.
 */
import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";
import type { OwnServerRule } from "./outboundPolicy";

export interface OwnServerOptions {
  /** NEXT_PUBLIC_BASE_URL. */
  baseUrl: string;
  /** The port this server listens on (undefined: not known; only the base URL's origin is recognised). */
  port: number | undefined;
  /** The routes it serves for being called as a worker, in the router's form (`/api/agents/builtin/:slug`). */
  workerRoutes: readonly string[];
  /** This machine's addresses; default: those of `os.networkInterfaces()`, read at each check. */
  localAddresses?: () => readonly string[];
}

const portOf = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));

/** A route pattern as a regular expression over a path: each `:param` is one segment with no percent-escape in it. */
function routeMatcher(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/%]+");
  return new RegExp(`^${escaped}$`);
}

const interfaceAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info ? [info.address] : []));

function normalAddress(text: string): string | undefined {
  try {
    return ipaddr.process(text).toNormalizedString();
  } catch {
    return undefined;
  }
}

export function ownServerRule(options: OwnServerOptions): OwnServerRule {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const workerRoutes = options.workerRoutes.map(routeMatcher);
  const shownRoutes = options.workerRoutes.map((route) => route.replace(/:(\w+)/g, "{$1}")).join(", ");
  const localAddresses = options.localAddresses ?? interfaceAddresses;

  /** The path a URL at the base origin names among this server's routes (the base URL's path taken off). */
  const routePath = (url: URL) => (url.origin === base.origin && basePath && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname);
  const isWorkerRoute = (url: URL) => workerRoutes.some((route) => route.test(routePath(url)));

  function isThisMachine(address: string): boolean {
    const normal = normalAddress(address);
    if (normal === undefined) return false;
    const range = ipaddr.process(address).range();
    if (range === "loopback" || range === "unspecified") return true;
    return localAddresses().some((local) => normalAddress(local) === normal);
  }

  function isThisServer(url: URL, address: string | undefined): boolean {
    if (url.origin === base.origin) return true;
    if (options.port === undefined || portOf(url) !== options.port) return false;
    const host = url.hostname.toLowerCase().replace(/\.$/, "");
    const seen = address ?? (host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : undefined);
    return seen !== undefined && isThisMachine(seen);
  }

  return {
    refusal(url, address) {
      if (!isThisServer(url, address) || isWorkerRoute(url)) return undefined;
      return `${url.origin}${url.pathname} is this server itself (NEXT_PUBLIC_BASE_URL, or the port it listens on), and the server calls none of its own routes as a worker except ${shownRoutes}`;
    },
    isOwnWorker: (url) => url.origin === base.origin && isWorkerRoute(url),
  };
}
