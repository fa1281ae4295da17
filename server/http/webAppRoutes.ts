/**
 * The built single-page app (`vite build` writes it to dist/web): its hashed files under /assets, and index.html for
 * the app's own routes (`/`, `/app`, `/app/...`, so no API path is shadowed).
 *
 * An asset's name carries the hash of its content, so it never changes: it is cached for a year without asking again
 * (`Cache-Control: public, max-age=31536000, immutable`). The build writes a brotli (`.br`) and a gzip (`.gz`) copy of
 * each script and stylesheet beside it (vite.config.ts); a browser that accepts one gets it with `Content-Encoding`,
 * any other client the file itself, and every answer says it `Vary: Accept-Encoding`. index.html names the current
 * assets, so a browser asks again each time (`Cache-Control: no-cache`) and sees a new build at once.
 */
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const assetCacheControl = "public, max-age=31536000, immutable";
export const pageCacheControl = "no-cache";

/** The app's routes over the build in `root`, or null when there is no build (API only: tests, `npm run dev`). */
export function webAppRoutes(root: string): Hono | null {
  const indexPath = join(root, "index.html");
  if (!existsSync(indexPath)) return null;
  const index = readFileSync(indexPath, "utf8");
  const app = new Hono();
  app.use("/assets/*", async (c, next) => {
    await next();
    // Only a file that was found is immutable: a 404 may become a file with the next build.
    if (c.res.status !== 200 && c.res.status !== 206) return;
    c.header("Cache-Control", assetCacheControl);
    c.header("Vary", "Accept-Encoding");
  });
  app.use("/assets/*", serveStatic({ root, precompressed: true }));
  const page = (c: Context) => c.html(index, 200, { "Cache-Control": pageCacheControl });
  app.get("/", page);
  app.get("/app", page);
  app.get("/app/*", page);
  return app;
}
