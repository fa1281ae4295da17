/**
 * The app over a slow network: `npm run bench:web` (it builds the app first; add `-- --help` for the options).
 *
 * It starts the real server (built app + API, built-in agents) on a free port with embedded PGlite in a temporary
 * directory, drives one pipeline run through all six agents (each output approved over the REST API) and leaves a
 * second run waiting for its first review. Then, in Debian's Chromium through Playwright, with the network throttled
 * by the Chrome DevTools Protocol (`Network.emulateNetworkConditions`, DevTools' classic "Fast 3G" profile: 562.5 ms
 * latency, 1.6 Mbit/s down and 750 kbit/s up, both at 90 %), it loads:
 *
 * - the first page (`/app`) and the six-output conversation (`/app/runs/<id>`), each in a fresh browser context
 *   (cold cache) and again in the same context (warm cache: what a returning person downloads), and reports bytes on
 *   the wire (CDP `encodedDataLength`, headers included), requests, first-contentful-paint, and for the conversation
 *   "all outputs visible" (six output articles on screen) and "diagrams drawn" (every Mermaid figure has its SVG);
 * - the conversation of the waiting run, unthrottled, left open for `--idle` seconds after it has settled, counting
 *   the requests it makes meanwhile (its polling).
 *
 * Each measurement is repeated `--repeats` times; the medians are printed. Timings never fail the run.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { startServer } from "../server/app";
import { loadConfig } from "../server/config";
import { LOOPBACK_ALLOWED, freePort } from "../server/testing/harness";
import { optionsRefused, readFlags, runBench } from "./flags";
import { fixed, grouped, median, table } from "./report";

const token = "bench-web-token-0123456789abcdef-not-a-secret";
const auth = { authorization: `Bearer ${token}` };

/** DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts before it was renamed "Slow 4G"). */
const fast3g = { offline: false, latency: 150 * 3.75, downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((750 * 1000) / 8) * 0.9 };

const Options = z.object({
  repeats: z.coerce.number().int().min(1).default(3),
  idle: z.coerce.number().int().min(1).default(30),
  /** Also print each request of the conversation's cold loads, with its timing (where the time goes). */
  trace: z.enum(["on", "off"]).default("off"),
});
type Options = z.infer<typeof Options>;
const usage = "usage: npm run bench:web -- [--repeats=3] [--idle=30] [--trace]   (Chromium: CHROMIUM_PATH, default /usr/bin/chromium)";

function parseOptions(argv: readonly string[]): Options {
  // --trace is a switch; the others are --name=value flags.
  const flags = readFlags(argv.filter((arg) => arg !== "--trace"), { repeats: "repeats", idle: "idle" } satisfies Record<string, keyof Options>, usage);
  const parsed = Options.safeParse({ ...flags, ...(argv.includes("--trace") ? { trace: "on" } : {}) });
  if (!parsed.success) throw optionsRefused(parsed.error);
  return parsed.data;
}

interface Load {
  /** Each request: when it was sent and finished (ms from the first), its bytes and its address. */
  trace: string[];
  bytes: number;
  requests: number;
  fcp: number;
  /** Milliseconds from navigation to the page's own mark (outputs visible, diagrams drawn), when it has one. */
  marks: Record<string, number>;
}

/** Counts what the page downloads over CDP: bytes on the wire per finished request, and the requests. */
async function watchNetwork(context: BrowserContext, page: Page, throttle: boolean) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (throttle) await cdp.send("Network.emulateNetworkConditions", fast3g);
  const totals = { bytes: 0, requests: 0, urls: [] as string[], trace: [] as string[] };
  const sent = new Map<string, { url: string; at: number }>();
  let first: number | null = null;
  const ms = (seconds: number) => Math.round((seconds - first!) * 1000);
  cdp.on("Network.requestWillBeSent", (e) => {
    first ??= e.timestamp;
    sent.set(e.requestId, { url: e.request.url, at: e.timestamp });
  });
  cdp.on("Network.loadingFinished", (e) => {
    totals.bytes += e.encodedDataLength;
    totals.requests += 1;
    const request = sent.get(e.requestId);
    totals.urls.push(request?.url ?? "?");
    if (request) totals.trace.push(`${String(ms(request.at)).padStart(6)} → ${String(ms(e.timestamp)).padStart(6)} ms ${String(e.encodedDataLength).padStart(7)} B  ${request.url.replace(/^https?:\/\/[^/]+/, "")}`);
  });
  return totals;
}

async function firstContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const seen = performance.getEntriesByName("first-contentful-paint")[0];
        if (seen) return resolve(seen.startTime);
        new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: "paint", buffered: true });
      }),
  );
}

async function load(page: Page, context: BrowserContext, url: string, throttle: boolean, ready: (page: Page, start: number) => Promise<Record<string, number>>): Promise<Load> {
  const totals = await watchNetwork(context, page, throttle);
  const start = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  const marks = await ready(page, start);
  await page.waitForLoadState("networkidle");
  const fcp = await firstContentfulPaint(page);
  return { trace: totals.trace, bytes: totals.bytes, requests: totals.requests, fcp, marks };
}

const firstPageReady = async (page: Page, start: number) => {
  await atLeast(page, "textarea", 1);
  const shown = Date.now() - start;
  await appStarted(page);
  await page.getByRole("textbox", { name: "Brief" }).waitFor();
  return { "form shown": shown, usable: Date.now() - start };
};

/**
 * Polls the page every 25 ms until at least `n` elements match `selector` (and, with `labelled`, an `aria-label`
 * matching it) and every stylesheet of the page has loaded: on screen as a person sees it, whether the server drew
 * them (the page's inert first drawing) or the app did.
 */
async function atLeast(page: Page, selector: string, n: number, labelled?: RegExp) {
  const shown = () =>
    page.evaluate(
      ({ selector, labelled }) => {
        const styled = [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].every((link) => link.sheet !== null);
        const re = labelled ? new RegExp(labelled) : null;
        return styled ? [...document.querySelectorAll(selector)].filter((element) => !re || re.test(element.getAttribute("aria-label") ?? "")).length : 0;
      },
      { selector, labelled: labelled?.source },
    );
  for (const deadline = Date.now() + 120_000; (await shown()) < n; await page.waitForTimeout(25)) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} of ${selector} ${String(labelled ?? "")} after two minutes`);
  }
}

/** Polls until the app has drawn the page itself (the server's inert drawing, if any, replaced): it can be used. */
async function appStarted(page: Page) {
  const started = () => page.evaluate(() => document.querySelector("#root > .server-drawn") === null && document.querySelector("#root > *") !== null);
  for (const deadline = Date.now() + 120_000; !(await started()); await page.waitForTimeout(25)) {
    if (Date.now() > deadline) throw new Error("the app did not start within two minutes");
  }
}

const conversationReady = async (page: Page, start: number) => {
  await atLeast(page, "article", 6, /output, version \d+$/);
  const visible = Date.now() - start;
  await appStarted(page);
  const usable = Date.now() - start;
  // Every Mermaid figure has its drawing (the sequence diagram and the entity model).
  await atLeast(page, "[role=img] svg", 2);
  return { "outputs visible": visible, usable, "diagrams drawn": Date.now() - start };
};

type Ready = (page: Page, start: number) => Promise<Record<string, number>>;

async function measure(browser: Browser, url: string, ready: Ready, repeats: number) {
  const cold: Load[] = [];
  const warm: Load[] = [];
  for (let i = 0; i < repeats; i++) {
    const context = await browser.newContext({ extraHTTPHeaders: auth, viewport: { width: 1280, height: 860 } });
    try {
      cold.push(await load(await context.newPage(), context, url, true, ready));
      warm.push(await load(await context.newPage(), context, url, true, ready));
    } finally {
      await context.close();
    }
  }
  return { cold, warm };
}

async function idleRequests(browser: Browser, url: string, seconds: number): Promise<{ requests: number; bytes: number; urls: string[] }> {
  const context = await browser.newContext({ extraHTTPHeaders: auth });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole("article", { name: /output, version 1$/ }).waitFor();
    await page.waitForLoadState("networkidle");
    const totals = await watchNetwork(context, page, false);
    await page.waitForTimeout(seconds * 1000);
    return { requests: totals.requests, bytes: totals.bytes, urls: totals.urls };
  } finally {
    await context.close();
  }
}

// ---- The data: one run through all six agents, one waiting for its first review -------------------------------

async function api(base: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const RunSnapshot = z.object({ run_id: z.string(), status: z.string(), is_waiting_for_user: z.boolean().optional() });

async function waitFor(base: string, runId: string, done: (run: z.infer<typeof RunSnapshot>) => boolean) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const run = RunSnapshot.parse(await api(base, `/runs/${encodeURIComponent(runId)}`));
    if (done(run)) return run;
    if (run.status.startsWith("FAILED") || run.status === "CANCELLED") throw new Error(`run ${runId} ended ${run.status}`);
  }
  throw new Error(`run ${runId} made no progress in two minutes: ${JSON.stringify(await api(base, `/runs/${encodeURIComponent(runId)}`))}`);
}

const brief =
  "A ride-hailing app for a mid-sized city: riders book trips and pay by card, drivers accept trips and get paid weekly, and operations staff handle disputes.";

async function seed(base: string): Promise<{ finished: string; waiting: string }> {
  const finished = RunSnapshot.parse(await api(base, "/runs", { domain: "mobility", brief })).run_id;
  for (;;) {
    const run = await waitFor(base, finished, (r) => r.status === "COMPLETED" || r.is_waiting_for_user === true);
    if (run.status === "COMPLETED") break;
    await api(base, `/runs/${encodeURIComponent(finished)}/approve`, {});
    // The built-in agents may answer before the next look: the run then waits for the next approval already.
    await waitFor(base, finished, (r) => r.status !== run.status);
  }
  const waiting = RunSnapshot.parse(await api(base, "/runs", { domain: "libraries", brief })).run_id;
  await waitFor(base, waiting, (r) => r.is_waiting_for_user === true);
  return { finished, waiting };
}

// ---- Report -------------------------------------------------------------------------------------------------

function rows(name: string, loads: Load[]): string[][] {
  const markNames = Object.keys(loads[0]?.marks ?? {});
  return [
    [
      name,
      `${fixed(median(loads.map((l) => l.bytes)) / 1024, 1)} KB`,
      grouped(median(loads.map((l) => l.requests))),
      `${grouped(median(loads.map((l) => l.fcp)))} ms`,
      markNames.map((m) => `${m} ${grouped(median(loads.map((l) => l.marks[m]!)))} ms`).join(", "),
    ],
  ];
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(new URL("../dist/web/index.html", import.meta.url))) throw new Error("dist/web is missing: run `npx vite build` (npm run bench:web does)");
  const dataDir = await mkdtemp(join(tmpdir(), "stitch-bench-web-"));
  for (const name of Object.keys(process.env)) if (/^(N8N_|AGENT_WEBHOOK_|LLM_|OPENAI_|ANTHROPIC_|DATABASE_URL)/.test(name)) delete process.env[name];
  const port = await freePort();
  const server = await startServer(
    loadConfig({ NEXT_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DISPATCH_BACKOFF_MS: "100", DISPATCH_POLL_MS: "200", OUTBOUND_ALLOW: LOOPBACK_ALLOWED, STITCH_BOOTSTRAP_TOKEN: token }),
  );
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-quic"] });
  try {
    const { finished, waiting } = await seed(base);
    const first = await measure(browser, `${base}/app`, firstPageReady, options.repeats);
    const conversation = await measure(browser, `${base}/app/runs/${encodeURIComponent(finished)}`, conversationReady, options.repeats);
    const idle = await idleRequests(browser, `${base}/app/runs/${encodeURIComponent(waiting)}`, options.idle);
    console.log(`Fast 3G (${fast3g.latency} ms, ${grouped(fast3g.downloadThroughput)} B/s down), medians of ${options.repeats}:\n`);
    console.log(
      table(
        ["page", "transferred", "requests", "first contentful paint", "marks"],
        [
          ...rows("first page, cold", first.cold),
          ...rows("first page, warm", first.warm),
          ...rows("six-output conversation, cold", conversation.cold),
          ...rows("six-output conversation, warm", conversation.warm),
        ],
      ),
    );
    if (options.trace === "on") {
      for (const [i, loaded] of conversation.cold.entries()) console.log(`\nThe conversation, cold, load ${i + 1}:\n${loaded.trace.join("\n")}`);
    }
    const perTen = (idle.requests / options.idle) * 10;
    console.log(`\nA conversation waiting for review, open for ${options.idle} s: ${idle.requests} requests (${fixed(perTen, 1)} per 10 s), ${fixed(idle.bytes / 1024, 1)} KB`);
    const procedures = new Map<string, number>();
    for (const url of idle.urls) {
      const path = new URL(url).pathname;
      for (const name of path.startsWith("/trpc/") ? path.slice(6).split(",") : [path]) procedures.set(name, (procedures.get(name) ?? 0) + 1);
    }
    console.log([...procedures].sort((a, b) => b[1] - a[1]).map(([name, n]) => `  ${n} × ${name}`).join("\n"));
  } finally {
    await browser.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await runBench("bench:web", usage, main);
