/**
 * Security headers on every answer, the app's pages and the API's alike (refusals and 404s included).
 *
 * The Content-Security-Policy keeps what an agent writes inert even if it slipped past the app's rendering: scripts
 * only from this server's own files, images, fonts and connections only to this server (so a Mermaid label
 * `<img src=http://...>` fetches nothing), no plugins, no `<base>` elsewhere, forms posting only here, and no page of
 * this server inside another's frame. Everything the app uses (the built React app, Mermaid at its strict security
 * level, React Flow, CodeMirror) and the Swagger UI of /docs run under it; the e2e specs check that the browser
 * reports no violation on any of them.
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { docsInitScriptHash } from "./docsRoutes";

/** The policy, directive by directive (hono writes `defaultSrc` as `default-src`). */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  // The /docs page's one inline script (Swagger UI's start-up) is allowed by its hash, and nothing else inline.
  scriptSrc: ["'self'", docsInitScriptHash],
  // Styles only: Mermaid writes a <style> element and style attributes into each SVG it draws, React Flow positions
  // nodes with style attributes, and CodeMirror and Swagger UI inject <style> elements. A style cannot run script.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // data: for the app's favicon, and the data: URLs Mermaid and Swagger UI draw icons with; nothing off this server.
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy,
    xContentTypeOptions: "nosniff",
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    // The server is reached over plain http (localhost, or behind a proxy that terminates TLS): HSTS is the proxy's to send.
    strictTransportSecurity: false,
  });
}
