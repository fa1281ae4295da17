/**
 * The answers the page came with. For someone signed in, the server answers an app page with what that page reads
 * first, read by the same tRPC procedures with the page request's own session (server/trpc/pageQueries.ts), in a
 * `<script type="application/json">` element (server/http/webAppRoutes.ts). Before the first render they are put in
 * the query cache under each procedure's own query key, so the page draws at once instead of asking for them over
 * the network first (on a slow network, a round trip each); its later reads and polling go on as before.
 *
 * Only the procedures listed here are seeded: anything else the element names is ignored. The session's CSRF token
 * comes masked (a random pad and the token XORed with it, so the compressed page never holds the same secret twice)
 * and is put back into `auth.status`'s answer and remembered for the changes the app sends.
 */
import type { QueryClient } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { rememberCsrfToken } from "./session";
import { type AuthStatus, trpc } from "./trpc";

/** The element's id (server/http/webAppRoutes.ts `pageDataElementId`). */
export const pageDataElementId = "stitch-page-data";

/** The procedures a page may carry the answer of (server/trpc/pageQueries.ts `PageQueryPath`). */
const procedures = {
  "auth.status": trpc.auth.status,
  "pipeline.agents": trpc.pipeline.agents,
  "pipeline.conversation": trpc.pipeline.conversation,
  "pipeline.changes": trpc.pipeline.changes,
};

export interface PageQuery {
  path: string;
  input?: unknown;
  data: unknown;
}

/** `pad.masked` in hex back to the token. */
function unmask(csrf: string): string | null {
  const [pad, masked] = csrf.split(".").map((hex) => hex.match(/../g)?.map((byte) => parseInt(byte, 16)) ?? []);
  if (!pad || !masked || pad.length !== masked.length || pad.length === 0) return null;
  return new TextDecoder().decode(new Uint8Array(masked.map((byte, i) => byte ^ pad[i]!)));
}

/** Seeds `queryClient` with the answers the page carries, once: the element is removed, so a client made again asks the server. */
export function seedFromPage(queryClient: QueryClient, doc: Document = document): void {
  const element = doc.getElementById(pageDataElementId);
  if (!element) return;
  element.remove();
  let page: { queries?: PageQuery[]; csrf?: string | null };
  try {
    page = JSON.parse(element.textContent ?? "") as typeof page;
  } catch {
    return; // unreadable: the app asks for everything itself
  }
  const csrfToken = page.csrf ? unmask(page.csrf) : null;
  seedQueries(queryClient, page.queries ?? [], csrfToken);
  if (page.queries?.some((query) => query.path === "auth.status")) rememberCsrfToken(csrfToken);
}

/**
 * Puts each answer in `queryClient` under its procedure's query key (`auth.status` with `csrfToken`); an answer of any
 * other procedure is ignored. The app's first render on the server (web/src/serverRender.tsx) seeds its client alike.
 */
export function seedQueries(queryClient: QueryClient, queries: readonly PageQuery[], csrfToken: string | null): void {
  for (const { path, input, data } of queries) {
    if (!Object.hasOwn(procedures, path)) continue;
    const procedure = procedures[path as keyof typeof procedures];
    const answer = path === "auth.status" ? { ...(data as AuthStatus), csrfToken } : data;
    queryClient.setQueryData(getQueryKey(procedure, input as never, "query"), answer);
  }
}
