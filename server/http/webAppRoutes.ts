/**
 * The built single-page app (`vite build` writes it to dist/web): its hashed files under /assets, and index.html for
 * the app's own routes (`/`, `/app`, `/app/...`, so no API path is shadowed).
 *
 * An asset's name carries the hash of its content, so it never changes: it is cached for a year without asking again
 * (`Cache-Control: public, max-age=31536000, immutable`). The build writes a brotli (`.br`) and a gzip (`.gz`) copy of
 * each script and stylesheet beside it (vite.config.ts); a browser that accepts one gets it with `Content-Encoding`,
 * any other client the file itself, and every answer says it `Vary: Accept-Encoding`. index.html names the current
 * assets, so a browser asks again each time (`Cache-Control: no-cache`) and sees a new build at once.
 *
 * A page may carry the answers of what it reads first (`preload`, server/trpc/pageQueries.ts), for the person who
 * asked: a `<script type="application/json">` at the end of the body, which the app reads before its first render
 * (web/src/lib/pageData.ts). Such a page is that person's only: kept by no shared cache (`private`), asked for again
 * each time, varying by the credentials it was answered for (`Vary: Cookie, Authorization`), and compressed (gzip, as
 * the app's tRPC reads are), since a conversation's answer is a hundred kilobytes of JSON.
 *
 * Such a page also comes drawn: the server renders the app's own components from those answers (web/src/serverRender.tsx,
 * built into dist/ssr beside dist/web) and puts the HTML inside `#root`, as an `inert` picture that the app's first
 * render replaces. So a conversation is on screen once the page and its stylesheet are in, without waiting for the main
 * script. Without that build, or when drawing fails (logged), the page goes without it: the app draws itself as before.
 *
 * The sections of the app loaded on demand (web/src/app/routes.tsx: the workflows, the step workflows, a plain
 * flow's run, the account pages) are named in the page answered for one of their addresses, as `modulepreload` and
 * stylesheet links read from the build's manifest, so a section opened directly loads beside the main script, not a
 * round trip after it.
 */
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { compress } from "hono/compress";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

export const assetCacheControl = "public, max-age=31536000, immutable";
export const pageCacheControl = "private, no-cache";
/** Who a page is answered for: the session cookie or the bearer token it came with. */
export const pageVary = "Cookie, Authorization";
/** The id of the element that carries a page's answers (web/src/lib/pageData.ts reads it). */
export const pageDataElementId = "stitch-page-data";

/** Each section the app loads on demand (its module, as the build's manifest names it), by the addresses it shows. */
export const sectionModules: { path: RegExp; module: string }[] = [
  // Not a run's graph (/app/workflows/runs/:runId/graph): that page is in the main script.
  { path: /^\/app\/workflows(\/(?!runs\/[^/]+\/graph\/?$).*)?$/, module: "src/app/sections/workflows.ts" },
  { path: /^\/app\/steps(\/(?!runs\/[^/]+\/graph\/?$).*)?$/, module: "src/app/sections/steps.ts" },
  { path: /^\/app\/flows\/runs\/[^/]+\/?$/, module: "src/app/sections/flows.ts" },
  // Two runs compared, of any front door (/app/runs/:a/compare/:b), or under the plain flows' runs.
  { path: /^\/app\/(flows\/)?runs\/[^/]+\/compare\/[^/]+\/?$/, module: "src/app/sections/flows.ts" },
  // The designer: the flows' list, a new flow, a flow's canvas and a run on it; not a run's graph (in the main script).
  { path: /^\/app\/flows(\/(?!runs\/[^/]+(\/graph)?\/?$).*)?$/, module: "src/app/sections/designer.tsx" },
  { path: /^\/app\/(people|tokens|audit|subscriptions|policies|settings)\/?$/, module: "src/app/sections/account.tsx" },
];

const ManifestChunk = z.object({ file: z.string(), imports: z.array(z.string()).optional(), css: z.array(z.string()).optional(), isEntry: z.boolean().optional() });
const Manifest = z.record(z.string(), ManifestChunk);

/**
 * The links that load a section's files (its script, the chunks it imports and its stylesheets) beside the main
 * script, from the build's manifest; none for a module the manifest does not name.
 */
export function sectionLinks(manifest: z.infer<typeof Manifest>, module: string): string {
  const closure = (keys: string[], skip: Set<string> = new Set()) => {
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || skip.has(chunk.file) || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const key of keys) visit(key);
    return { scripts, styles };
  };
  // What the page loads already: the main script (the entry) and what it imports, with their stylesheets.
  const loaded = closure(Object.keys(manifest).filter((key) => manifest[key]!.isEntry)).scripts;
  if (!manifest[module]) return "";
  const { scripts, styles } = closure([module], loaded);
  return [...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`), ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)].join("");
}

/** The answers a page carries for the request that asked for it (null: none, as for someone not signed in). */
export type PagePreload = (c: Context) => Promise<{ queries: readonly unknown[] } | null>;

/** The app drawn at `pathname` from the answers its page carries (web/src/serverRender.tsx `renderApp`): HTML. */
export type DrawApp = (pathname: string, queries: readonly unknown[]) => string;

const DrawingModule = z.object({ renderApp: z.custom<DrawApp>((value) => typeof value === "function", "renderApp must be a function") });

/** The server's build of the app's first drawing (`path`: dist/ssr/serverRender.js), or null when it was not built. */
export async function loadDrawing(path: string): Promise<DrawApp | null> {
  if (!existsSync(path)) return null;
  return DrawingModule.parse(await import(pathToFileURL(path).href)).renderApp;
}

/** `html`'s `#root` holding `drawn`, inert (the app's first render replaces it). */
export function withDrawing(html: string, drawn: string): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error("index.html has no empty #root");
  return html.replace(root, () => `<div id="root"><div class="server-drawn" inert>${drawn}</div></div>`);
}

/**
 * JSON inside a `<script>` element: no `<` (so no `</script>` or `<!--` ends or changes it), no `>` or `&`, and no
 * U+2028/U+2029, each written as its `\u` escape, which JSON.parse reads back as the same character.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** index.html with the page's answers at the end of its body. */
export function withPageData(index: string, data: unknown): string {
  const at = index.lastIndexOf("</body>");
  if (at < 0) throw new Error("index.html has no </body>");
  return `${index.slice(0, at)}<script type="application/json" id="${pageDataElementId}">${scriptSafeJson(data)}</script>${index.slice(at)}`;
}

/**
 * The app's routes over the build in `root`, or null when there is no build (API only: tests, `npm run dev`). A page
 * `preload` answers for is drawn by `drawing` (`loadDrawing`), when there is one.
 */
export function webAppRoutes(root: string, preload?: PagePreload, drawing: Promise<DrawApp | null> = Promise.resolve(null)): Hono | null {
  const indexPath = join(root, "index.html");
  if (!existsSync(indexPath)) return null;
  const index = readFileSync(indexPath, "utf8");
  // Each section's page: index.html with the links to its files before </head> (the build's manifest, when written).
  const manifestPath = join(root, ".vite", "manifest.json");
  const manifest = existsSync(manifestPath) ? Manifest.parse(JSON.parse(readFileSync(manifestPath, "utf8"))) : {};
  const sections = sectionModules.map(({ path, module }) => ({ path, index: index.replace("</head>", `${sectionLinks(manifest, module)}</head>`) }));
  // A build that cannot be loaded is said once, at start; the pages go without the drawing.
  drawing.catch((error: unknown) => console.error("The app's server drawing (dist/ssr) could not be loaded; pages go without it:", error));
  const draw = async (pathname: string, data: { queries: readonly unknown[] }, html: string): Promise<string> => {
    const renderApp = await drawing.catch(() => null);
    if (!renderApp) return html;
    try {
      return withDrawing(html, renderApp(pathname, data.queries));
    } catch (error) {
      console.error(`The app could not be drawn on the server for ${pathname}; the page goes without it:`, error);
      return html;
    }
  };
  const app = new Hono();
  app.use("/assets/*", async (c, next) => {
    await next();
    // Only a file that was found is immutable: a 404 may become a file with the next build.
    if (c.res.status !== 200 && c.res.status !== 206) return;
    c.header("Cache-Control", assetCacheControl);
    c.header("Vary", "Accept-Encoding");
  });
  app.use("/assets/*", serveStatic({ root, precompressed: true }));
  const page = async (c: Context) => {
    const data = preload ? await preload(c) : null;
    const html = sections.find((section) => section.path.test(c.req.path))?.index ?? index;
    const body = data ? withPageData(await draw(c.req.path, data, html), data) : html;
    return c.html(body, 200, { "Cache-Control": pageCacheControl, Vary: pageVary });
  };
  for (const path of ["/", "/app", "/app/*"]) app.use(path, compress({ threshold: 1024 }));
  app.get("/", page);
  app.get("/app", page);
  app.get("/app/*", page);
  return app;
}
