/**
 * What a page of the app reads first, answered with the page itself.
 *
 * On a slow network every request costs a round trip before its first byte (562.5 ms on DevTools' "Fast 3G"), and the
 * app could not ask who is signed in, then for a run's conversation, before its script had arrived: two round trips
 * in a row after the page's own. So when the server answers index.html for one of the app's routes, it calls the
 * procedures that route reads first, through `createCaller` with the context of the page's own request (the same
 * identity, so the same role checks answer exactly what the app's own calls would), and the page carries the answers
 * (server/http/webAppRoutes.ts embeds them; web/src/lib/pageData.ts seeds the app's query cache with them).
 *
 * No one signed in: nothing (the sign-in page asks for itself). A read that is refused or fails is left out, and the
 * app asks for it as before and shows that answer (a run that does not exist, a database away for a moment).
 */
import { randomBytes } from "node:crypto";
import { appPagePaths } from "../http/paths";
import type { AuthStatus } from "../people/schemas";
import type { AppContext } from "./context";
import { createCaller } from "./router";

/** The procedures a page may carry the answer of: the app seeds only these (and under their own query keys). */
export type PageQueryPath = "auth.status" | "pipeline.agents" | "pipeline.conversation" | "pipeline.changes";

/** One answer: the procedure, its input (absent for none) and what it answered, as JSON. */
export interface PageQuery {
  path: PageQueryPath;
  input?: unknown;
  data: unknown;
}

export interface PageData {
  queries: PageQuery[];
  /**
   * The session's CSRF token, masked: `auth.status` is carried with `csrfToken: null`, and this is the token XORed with
   * a random pad new for each page, both in hex (`pad.masked`). The page is compressed, and a secret that is the same
   * in every answer beside text others may write (a brief, a comment) is what a compression side channel (BREACH)
   * reads; a token masked anew each time is never the same twice. Null without a session (a bearer token needs none).
   */
  csrf: string | null;
}

/** Hono's `:param` pattern of a route, matched against a path (each parameter decoded), or null. */
function match(pattern: string, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  const found = new RegExp(`^${source}/?$`).exec(pathname);
  if (!found) return null;
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
  } catch {
    return null; // a malformed %-escape names no run
  }
}

/** The CSRF token XORed with a fresh random pad: `pad.masked`, in hex. */
export function maskCsrfToken(token: string): string {
  const bytes = Buffer.from(token, "utf8");
  const pad = randomBytes(bytes.length);
  const masked = Buffer.from(bytes.map((byte, i) => byte ^ pad[i]!));
  return `${pad.toString("hex")}.${masked.toString("hex")}`;
}

/** What the page at `pathname` reads first, answered for the caller of `ctx`; null for no one signed in. */
export async function pageQueries(ctx: AppContext, pathname: string): Promise<PageData | null> {
  if (ctx.identity.kind === "anonymous") return null;
  const caller = createCaller(ctx);
  // A refused or failed read is left out: the app asks for it itself and shows what it answers. (An internal error is
  // logged when the app's own call meets it again.)
  const answer = <T>(path: PageQueryPath, read: () => Promise<T>, input?: unknown): Promise<PageQuery | null> =>
    read().then(
      (data) => (input === undefined ? { path, data } : { path, input, data }),
      () => null,
    );
  const reads: Promise<PageQuery | null>[] = [answer("auth.status", () => caller.auth.status())];
  const run = match(appPagePaths.pipelineRun.pattern, pathname);
  if (run?.runId) {
    // The conversation's first reads (web/src/app/routes.tsx ConversationPage, features/pipeline-conversation/api/get-conversation.ts).
    const input = { runId: run.runId };
    reads.push(answer("pipeline.agents", () => caller.pipeline.agents()));
    reads.push(answer("pipeline.conversation", () => caller.pipeline.conversation(input), input));
    reads.push(answer("pipeline.changes", () => caller.pipeline.changes(input), input));
  }
  const queries = (await Promise.all(reads)).filter((query) => query !== null);
  const status = queries.find((query) => query.path === "auth.status");
  // No answer to who is signed in (the database is away): the page carries nothing, and the app asks as before.
  if (!status) return null;
  const { csrfToken, ...rest } = status.data as AuthStatus;
  status.data = { ...rest, csrfToken: null } satisfies AuthStatus;
  return { queries, csrf: csrfToken ? maskCsrfToken(csrfToken) : null };
}
