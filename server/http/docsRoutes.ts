/**
 * `GET /openapi.json` (the REST API's OpenAPI document) and `GET /docs` (Swagger UI on it), as the pipeline's
 * original FastAPI backend offered. Swagger UI is served from the installed swagger-ui-dist package, never a CDN: the server may
 * run without internet access.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Hono } from "hono";
import { buildOpenApiDocument } from "./openapi";
import { docsPaths as paths } from "./paths";

/** The only files of the package that are served; anything else under /docs/assets is a 404. */
export const docsAssets: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/**
 * Swagger UI's start-up, the page's only inline script: the Content-Security-Policy (securityHeaders.ts) allows it by
 * this exact text's hash. No validator badge: Swagger UI would fetch it from validator.swagger.io.
 */
const initScript = `
    window.ui = SwaggerUIBundle({
      url: "/openapi.json",
      dom_id: "#swagger-ui",
      deepLinking: true,
      displayRequestDuration: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
    });
  `;
export const docsInitScriptHash = `'sha256-${createHash("sha256").update(initScript, "utf8").digest("base64")}'`;

// Absolute URLs, so the page works at /docs and at /docs/ alike.
const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Stitch API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>${initScript}</script>
</body>
</html>
`;

export function docsRoutes(): Hono {
  const app = new Hono();
  // Built once: the document depends only on the code. Building it here also makes a broken schema conversion
  // fail at start-up rather than on the first request.
  const document = buildOpenApiDocument();
  const assetCache = new Map<string, Uint8Array<ArrayBuffer>>();

  app.get(paths.openapi.pattern, (c) => c.json(document));
  app.get(paths.docs.pattern, (c) => c.html(page));
  app.get(paths.docsSlash.pattern, (c) => c.html(page));
  app.get(paths.docsAsset.pattern, (c) => {
    const file = c.req.param("file");
    const contentType = docsAssets[file];
    if (!contentType) return c.json({ error: "not_found", message: `no documentation asset "${file}"`, detail: `no documentation asset "${file}"` }, 404);
    let content = assetCache.get(file);
    if (!content) {
      content = new Uint8Array(readFileSync(join(swaggerUiDir, file)));
      assetCache.set(file, content);
    }
    return c.body(content, 200, { "content-type": contentType, "cache-control": "public, max-age=3600" });
  });
  return app;
}
