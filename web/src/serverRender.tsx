/**
 * The app drawn on the server, for the page's first paint.
 *
 * The app's page answered for a signed-in person carries the answers of what that page reads first
 * (server/trpc/pageQueries.ts). The server also draws the page from them with the app's own components, and the HTML
 * goes inside `#root` (server/http/webAppRoutes.ts), so on a slow network a conversation is on screen as soon as the
 * page and its stylesheet have arrived, not after the main script too (on DevTools' "Fast 3G", about 0.7 s sooner).
 *
 * What is drawn here is a picture: it is `inert` (nothing in it can be clicked, focused or typed into, and Playwright
 * waits for what is not), and the app's first render replaces it (React's `createRoot` empties its container when it
 * first commits), with the same answers seeded in its query cache, so the page does not change under the reader's eyes.
 * Nothing is hydrated: what only the browser knows (drafts kept in the browser, its time zone, who is on screen) is
 * drawn by the app itself, and a difference between the two drawings costs nothing.
 *
 * Built by `vite build` as the `ssr` environment (vite.config.ts) into dist/ssr, which the server imports when present.
 */
import { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { App } from "./app/App";
import { type PageQuery, seedQueries } from "./lib/pageData";
import { ServerPathname } from "./lib/router";

/** A page query's shape: a procedure's path and its answer (and input); what is not one is left out. */
function isPageQuery(value: unknown): value is PageQuery {
  return typeof value === "object" && value !== null && "path" in value && typeof value.path === "string" && "data" in value;
}

/** The HTML of the app at `pathname`, drawn from `queries` (the answers the page carries, server/trpc/pageQueries.ts). */
export function renderApp(pathname: string, queries: readonly unknown[]): string {
  // Nothing is fetched while drawing (React Query asks from an effect, and effects do not run on the server): a read the
  // page does not carry is drawn as loading, as in the app's first render.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seedQueries(queryClient, queries.filter(isPageQuery), null);
  return renderToString(
    <StrictMode>
      <ServerPathname.Provider value={pathname}>
        <App queryClient={queryClient} />
      </ServerPathname.Provider>
    </StrictMode>,
  );
}
