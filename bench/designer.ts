/**
 * The flow designer with large flows: `npm run bench:designer` (it builds the app first). Not a test: it prints
 * medians, and docs/performance.md keeps the figures.
 *
 * It starts the real server (built app + API) with embedded PGlite in a temporary directory, stores flows of 50, 500
 * and 2,000 Worker nodes (a layered graph, each node fed by one or two of the layer before), and in Debian's Chromium
 * through Playwright measures for each, `--repeats` times:
 *
 * - open and draw: from navigation to the designer's first drawn nodes (`/app/flows/<id>`, a fresh page each time);
 * - tidy up: from the "Tidy up" click to the frame after the new layout is drawn;
 * - check: the check endpoint's answer for the flow's graph (`POST /api/stitch/flows/check`, from Node, round trip);
 * - frames per second while dragging a node (60 mouse moves) and while panning the canvas (60 moves on empty pane),
 *   counted with requestAnimationFrame in the page.
 */
import { type Browser, chromium, type Page } from "@playwright/test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { startServer } from "../server/app";
import { loadConfig } from "../server/config";
import { LOOPBACK_ALLOWED, freePort } from "../server/testing/harness";
import { optionsRefused, readFlags, runBench } from "./flags";
import { fixed, grouped, median, table } from "./report";

const token = "bench-designer-token-0123456789abcdef-not-a-secret";
const auth = { authorization: `Bearer ${token}` };

const Options = z.object({ repeats: z.coerce.number().int().min(1).default(3), sizes: z.string().default("50,500,2000") });
type Options = z.infer<typeof Options>;
const usage = "usage: npm run bench:designer -- [--repeats=3] [--sizes=50,500,2000]   (Chromium: CHROMIUM_PATH, default /usr/bin/chromium)";

function parseOptions(argv: readonly string[]): Options {
  const parsed = Options.safeParse(readFlags(argv, { repeats: "repeats", sizes: "sizes" } satisfies Record<string, keyof Options>, usage));
  if (!parsed.success) throw optionsRefused(parsed.error);
  return parsed.data;
}

/**
 * Layers of 10 Workers, each fed by the node above it in the layer before and, every third one, by its neighbour's; drawn
 * with each layer as a row, so "Tidy up" (layers as columns, left to right) moves every node.
 */
function layeredGraph(size: number) {
  const width = 10;
  const nodes = Array.from({ length: size }, (_, i) => ({
    id: `w-${i}`, type: "Worker" as const, position: { x: (i % width) * 260, y: Math.floor(i / width) * 120 },
    data: { label: `Worker ${i}`, webhookUrl: "http://127.0.0.1:9/work" },
  }));
  const edges = nodes.flatMap((_, i) => {
    if (i < width) return [];
    const above = i - width;
    const feeds = [{ id: `e-${above}-${i}`, source: `w-${above}`, target: `w-${i}` }];
    const neighbour = above + 1;
    if (i % 3 === 0 && neighbour % width !== 0) feeds.push({ id: `e-${neighbour}-${i}`, source: `w-${neighbour}`, target: `w-${i}` });
    return feeds;
  });
  return { nodes, edges };
}

async function post(base: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function openAndDraw(browser: Browser, url: string): Promise<{ page: Page; ms: number }> {
  const context = await browser.newContext({ extraHTTPHeaders: auth, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(".react-flow__node").first().waitFor({ timeout: 180_000 });
  // From navigation start (the page's time origin) to the frame after the first nodes were in the DOM.
  const ms = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
  return { page, ms };
}

/**
 * From the click to the first frame that draws the new layout: React may render the click's change in a later task, so
 * the frames are watched until a node the layout moves is drawn where it now stands (at most 30 s).
 */
async function tidyUp(page: Page): Promise<number> {
  // As text: a function compiled by tsx would carry esbuild's `__name` helper, which the page does not have.
  return page.evaluate(`(async () => {
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Tidy up");
    const placed = () => [...document.querySelectorAll(".react-flow__node")].slice(0, 20).map((n) => n.style.transform).join("|");
    const before = placed();
    const start = performance.now();
    button.click();
    while (placed() === before && performance.now() - start < 30000) await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - start;
  })()`);
}

/** Frames per second while the mouse drags from `from` by (dx, dy) in 60 moves. */
async function dragFps(page: Page, from: { x: number; y: number }, dx: number, dy: number): Promise<number> {
  // As text: a function compiled by tsx would carry esbuild's `__name` helper, which the page does not have.
  await page.evaluate(`(() => {
    window.__frames = 0;
    window.__counting = true;
    const tick = () => { if (!window.__counting) return; window.__frames++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  const start = Date.now();
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) await page.mouse.move(from.x + (dx * i) / 60, from.y + (dy * i) / 60);
  await page.mouse.up();
  const elapsed = Date.now() - start;
  const frames = await page.evaluate(() => {
    const counter = window as unknown as { __frames: number; __counting: boolean };
    counter.__counting = false;
    return counter.__frames;
  });
  return (frames / elapsed) * 1000;
}

async function measureSize(browser: Browser, base: string, size: number, repeats: number) {
  const graph = layeredGraph(size);
  const flow = (await post(base, "/api/stitch/flows", { name: `Bench ${size}`, graph })) as { id: string };
  const open: number[] = [];
  const tidy: number[] = [];
  const check: number[] = [];
  const drag: number[] = [];
  const pan: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    await post(base, "/api/stitch/flows/check", { graph });
    check.push(performance.now() - started);
    const { page, ms } = await openAndDraw(browser, `${base}/app/flows/${flow.id}`);
    open.push(ms);
    const node = await page.locator(".react-flow__node").first().boundingBox();
    if (node) drag.push(await dragFps(page, { x: node.x + 20, y: node.y + 10 }, 200, 120));
    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (pane) pan.push(await dragFps(page, { x: pane.x + 8, y: pane.y + pane.height - 8 }, 300, -200));
    // The pan's last changes settle first: a click in the same frames is lost under them.
    await page.waitForTimeout(500);
    tidy.push(await tidyUp(page));
    // The drag and the tidy-up left a draft: discarded, so the next open draws the stored version again.
    await fetch(`${base}/api/stitch/flows/${flow.id}/draft`, { method: "DELETE", headers: auth });
    await page.context().close();
  }
  return [`${grouped(size)} nodes`, `${grouped(median(open))} ms`, `${grouped(median(tidy))} ms`, `${fixed(median(check), 1)} ms`, `${fixed(median(drag), 1)} fps`, `${fixed(median(pan), 1)} fps`];
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(new URL("../dist/web/index.html", import.meta.url))) throw new Error("dist/web is missing: run `npx vite build` (npm run bench:designer does)");
  const dataDir = await mkdtemp(join(tmpdir(), "stitch-bench-designer-"));
  for (const name of Object.keys(process.env)) if (/^(N8N_|AGENT_WEBHOOK_|LLM_|OPENAI_|ANTHROPIC_|DATABASE_URL)/.test(name)) delete process.env[name];
  const port = await freePort();
  const server = await startServer(
    loadConfig({ NEXT_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, OUTBOUND_ALLOW: LOOPBACK_ALLOWED, STITCH_BOOTSTRAP_TOKEN: token }),
  );
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-quic"] });
  try {
    const rows = [];
    for (const size of options.sizes.split(",").map(Number)) {
      rows.push(await measureSize(browser, base, size, options.repeats));
      console.error(`measured ${rows.at(-1)!.join(" | ")}`);
    }
    console.log(`The designer in Chromium (1440 x 900), medians of ${options.repeats}:\n`);
    console.log(table(["flow", "open and draw", "tidy up", "check (round trip)", "drag a node", "pan"], rows));
  } finally {
    await browser.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await runBench("bench:designer", usage, main);
