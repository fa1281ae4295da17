/**
 * The built app's files (webAppRoutes.ts): hashed assets precompressed by the build, sent in the encoding the client
 * accepts and cached for a year; index.html for the app's routes, asked for again each time and carrying what the
 * preload answers for the request (server/http/pageData.test.ts: the real answers). On a build of its own in
 * a temporary directory, written the way vite.config.ts's compression plugin writes one.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { assetCacheControl, pageDataElementId, sectionModules, webAppRoutes } from "./webAppRoutes";

const here = dirname(fileURLToPath(import.meta.url));

const script = Buffer.from(`export const greeting = ${JSON.stringify("hello, stitch ".repeat(400))};\n`);
const index = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head><body><div id="root"></div></body></html>`;

describe("the built app's files", () => {
  let root: string;
  let app: Hono;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "stitch-web-"));
    mkdirSync(join(root, "assets"));
    writeFileSync(join(root, "index.html"), index);
    writeFileSync(join(root, "assets/index-Ab12.js"), script);
    writeFileSync(join(root, "assets/index-Ab12.js.br"), brotliCompressSync(script));
    writeFileSync(join(root, "assets/index-Ab12.js.gz"), gzipSync(script));
    // A file the build did not compress (its copies would not have been smaller).
    writeFileSync(join(root, "assets/tiny-Cd34.css"), "a{}");
    app = webAppRoutes(root)!;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

  it("sends brotli to a browser that accepts it, and the bytes decode to the file", async () => {
    const answer = await get("/assets/index-Ab12.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("br");
    expect(answer.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await answer.arrayBuffer());
    expect(body.length).toBeLessThan(script.length / 10);
    expect(Number(answer.headers.get("content-length"))).toBe(body.length);
    expect(brotliDecompressSync(body).equals(script)).toBe(true);
  });

  it("sends gzip to a client that accepts gzip only", async () => {
    const answer = await get("/assets/index-Ab12.js", { "accept-encoding": "gzip" });
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(answer.headers.get("cache-control")).toBe(assetCacheControl);
    expect(answer.headers.get("vary")).toBe("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await answer.arrayBuffer())).equals(script)).toBe(true);
  });

  it("sends the file itself to a client that accepts no encoding, still cached and varying by encoding", async () => {
    for (const headers of [{}, { "accept-encoding": "identity" }] as Record<string, string>[]) {
      const answer = await get("/assets/index-Ab12.js", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-encoding")).toBeNull();
      expect(answer.headers.get("cache-control")).toBe(assetCacheControl);
      expect(answer.headers.get("vary")).toBe("Accept-Encoding");
      expect(Buffer.from(await answer.arrayBuffer()).equals(script)).toBe(true);
    }
  });

  it("sends a file without compressed copies as it is, to any client", async () => {
    const answer = await get("/assets/tiny-Cd34.css", { "accept-encoding": "br, gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(answer.headers.get("content-type")).toMatch(/^text\/css/);
    expect(answer.headers.get("cache-control")).toBe(assetCacheControl);
    expect(await answer.text()).toBe("a{}");
  });

  it("caches no missing asset: it may exist after the next build", async () => {
    const answer = await get("/assets/index-Zz99.js", { "accept-encoding": "br" });
    expect(answer.status).toBe(404);
    expect(answer.headers.get("cache-control")).toBeNull();
  });

  it("answers index.html for the app's routes, to be asked for again each time", async () => {
    for (const path of ["/", "/app", "/app/runs/RUN_1", "/app/people"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(answer.headers.get("cache-control"), path).toBe("private, no-cache");
      expect(answer.headers.get("vary"), path).toBe("Cookie, Authorization, Accept-Encoding");
      expect(await answer.text(), path).toBe(index);
    }
  });

  it("carries what the preload answers for the request, as inert JSON at the end of the body, and nothing for null", async () => {
    const data = { queries: [], text: "</script><script>alert(1)</script><!-- \u2028 & >", path: "" };
    const carrying = webAppRoutes(root, async (c) => (c.req.header("x-who") ? { ...data, path: c.req.path } : null))!;
    const html = await (await carrying.request("/app/runs/RUN_1", { headers: { "x-who": "rita" } })).text();
    const element = `<script type="application/json" id="${pageDataElementId}">`;
    expect(html.startsWith(index.slice(0, index.indexOf("</body>")) + element)).toBe(true);
    expect(html.endsWith("</script></body></html>")).toBe(true);
    const json = html.slice(html.indexOf(element) + element.length, html.lastIndexOf("</script>"));
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ ...data, path: "/app/runs/RUN_1" });
    expect(await (await carrying.request("/app/runs/RUN_1")).text()).toBe(index);
  });

  it("puts the drawing of a page that carries answers inside #root, inert; without answers, or when drawing fails, the page as built", async () => {
    const data = { queries: [{ path: "auth.status", data: { me: null } }] };
    const drawn: string[] = [];
    const drawing = webAppRoutes(root, async (c) => (c.req.header("x-who") ? data : null), Promise.resolve((pathname, queries) => {
      drawn.push(pathname);
      if (pathname === "/app/broken") throw new Error("cannot draw this one");
      return `<p>${pathname} from ${queries.length}</p>`;
    }))!;
    const who = { headers: { "x-who": "rita" } };
    const html = await (await drawing.request("/app/runs/RUN_1", who)).text();
    expect(html).toContain('<body><div id="root"><div class="server-drawn" inert><p>/app/runs/RUN_1 from 1</p></div></div><script type="application/json"');
    expect(await (await drawing.request("/app/runs/RUN_1")).text()).toBe(index);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const broken = await drawing.request("/app/broken", who);
      expect(broken.status).toBe(200);
      expect(await broken.text()).toContain('<div id="root"></div><script type="application/json"');
      expect(errors).toHaveBeenCalledWith(expect.stringContaining("could not be drawn on the server for /app/broken"), expect.any(Error));
    } finally {
      errors.mockRestore();
    }
    expect(drawn).toEqual(["/app/runs/RUN_1", "/app/broken"]);
  });

  it("names a section's files in the pages of its addresses (from the build's manifest), and only there", async () => {
    const manifest = {
      "index.html": { file: "assets/index-Ab12.js", isEntry: true, imports: ["_runtime-R1.js"], css: ["assets/index-Ab12.css"] },
      "_runtime-R1.js": { file: "assets/runtime-R1.js" },
      "_shared-S1.js": { file: "assets/shared-S1.js", imports: ["_runtime-R1.js"], css: ["assets/shared-S1.css"] },
      "src/app/sections/workflows.ts": { file: "assets/workflows-W1.js", isDynamicEntry: true, imports: ["_runtime-R1.js", "index.html", "_shared-S1.js"], css: ["assets/workflows-W1.css"] },
      "src/app/sections/flows.ts": { file: "assets/flows-F1.js", isDynamicEntry: true, imports: ["_runtime-R1.js"] },
      "src/app/sections/designer.tsx": { file: "assets/designer-D1.js", isDynamicEntry: true, imports: ["_runtime-R1.js"], css: ["assets/designer-D1.css"] },
    };
    const built = mkdtempSync(join(tmpdir(), "stitch-web-"));
    try {
      mkdirSync(join(built, ".vite"));
      writeFileSync(join(built, "index.html"), index);
      writeFileSync(join(built, ".vite/manifest.json"), JSON.stringify(manifest));
      const sectioned = webAppRoutes(built)!;
      const links = async (path: string) => (await (await sectioned.request(path)).text()).match(/<link [^>]*>/g) ?? [];
      const workflows = [
        `<link rel="modulepreload" crossorigin href="/assets/workflows-W1.js">`,
        `<link rel="modulepreload" crossorigin href="/assets/shared-S1.js">`,
        `<link rel="stylesheet" crossorigin href="/assets/workflows-W1.css">`,
        `<link rel="stylesheet" crossorigin href="/assets/shared-S1.css">`,
      ];
      for (const path of ["/app/workflows", "/app/workflows/new", "/app/workflows/runs/R1", "/app/workflows/nightly"]) expect(await links(path), path).toEqual(workflows);
      // The designer's pages load the designer; a flow run's conversation its own section.
      const designer = [`<link rel="modulepreload" crossorigin href="/assets/designer-D1.js">`, `<link rel="stylesheet" crossorigin href="/assets/designer-D1.css">`];
      for (const path of ["/app/flows", "/app/flows/new", "/app/flows/F1", "/app/flows/runs/R1/design"]) expect(await links(path), path).toEqual(designer);
      expect(await links("/app/flows/runs/R1")).toEqual([`<link rel="modulepreload" crossorigin href="/assets/flows-F1.js">`]);
      // The main script's own pages, a run's graph (in the main script too), and a section the manifest does not name.
      for (const path of ["/app", "/app/runs/R1", "/app/workflows/runs/R1/graph", "/app/flows/runs/R1/graph", "/app/workflowsx", "/app/people"]) expect(await links(path), path).toEqual([]);
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  it("names sections the app has", () => {
    for (const { module } of sectionModules) expect(existsSync(join(here, "../../web", module)), module).toBe(true);
  });

  it("is absent without a build", () => {
    expect(webAppRoutes(join(root, "nothing-here"))).toBeNull();
  });
});
