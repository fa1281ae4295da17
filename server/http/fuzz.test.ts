/**
 * A property-based fuzz of every front door, on every test database: fast-check generates bad requests for each
 * operation of the served `/openapi.json` and each tRPC procedure of the router (bad path parameters: NUL, lone
 * surrogates, huge strings; wrong types, missing fields, deep nesting, oversized bodies, wrong content types, random
 * bytes), with and without the bootstrap operator token. No answer may be a 5xx or show a stack trace or SQL, the server
 * must answer /health after, and a run created before must be unchanged, row for row.
 *
 * FUZZ_RUNS sets the number of requests per database (default 2,100; `npm run fuzz` sends 12,000), FUZZ_SEED replays a
 * run. Every request goes to the test server on 127.0.0.1; URLs inside generated bodies are loopback (port 9, nothing
 * listens) or not URLs at all, so no worker or agent is pointed off this machine.
 */
import { sql } from "drizzle-orm";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { MAX_JSON_DEPTH } from "../lib/inputCheck";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, uxNode } from "../testing/flows";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { appRouter } from "../trpc/router";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_100);
const SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
const TOKEN = "fuzz-bootstrap-operator-token-0123456789abcdef";
const LOOPBACK_URL = "http://127.0.0.1:9/fuzz";
const MiB = 1024 * 1024;

interface Probe {
  family: string;
  /** The operation (`POST /runs/{run_id}/retry`) or procedures (`trpc pipeline.getRun`) aimed at. */
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyKeys: string[];
  example: unknown;
}

interface Procedure {
  name: string;
  type: "query" | "mutation";
  keys: string[];
}

// ---- text and JSON pieces -------------------------------------------------------------------------------------------

/** Percent-encodes any JS string, lone surrogates included (as the WTF-8 bytes encodeURIComponent refuses to write). */
function percentEncode(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(text[i]!);
  }
  return out;
}

const codeUnits = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength });

/** Text PostgreSQL cannot store, and text that is merely odd. */
const poisonText = fc.oneof(
  fc.constantFrom("\u0000", "abc\u0000def", "\udfff\ud800", "\ud800", "x\udc00y", "\u0000\ud800", "😀\udc00"),
  codeUnits(24),
);
const oddText = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.constantFrom("", " ", "..", "%", "%zz", "' OR 1=1 --", "<img src=x onerror=alert(1)>", "{{inputs.x}}", "$ARGUMENTS", "😀", "RUN_1", "null", "-1", "NaN"),
  fc.uuid(),
);

/** JSON text nested `depth` levels, written as text: the client must not overflow its own stack building it. */
const deepText = (depth: number, open: "[" | '{"a":') => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`;
const depths = fc.constantFrom(MAX_JSON_DEPTH + 1, 100, 1_000, 5_000, 20_000, 100_000);
const deepJson = fc.tuple(depths, fc.constantFrom<"[" | '{"a":'>("[", '{"a":')).map(([depth, open]) => deepText(depth, open));
const hugeJson = fc.constantFrom(10_000, 300_000).map((n) => JSON.stringify("a".repeat(n)));

/** A JSON value (as text) that does not belong where it is put. */
const badJsonValue = fc.oneof(
  { arbitrary: poisonText.map((s) => JSON.stringify(s)), weight: 4 },
  { arbitrary: oddText.map((s) => JSON.stringify(s)), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 3 },
  { arbitrary: fc.constantFrom("null", "true", "false", "0", "-1", "1e309", "1.5", "[]", "{}", '""', '[null]', '{"":{}}'), weight: 3 },
  { arbitrary: deepJson, weight: 2 },
  { arbitrary: hugeJson, weight: 1 },
);

/** Every http(s) URL inside an example replaced by a loopback address nothing listens on. */
function loopbackUrls(value: unknown): unknown {
  if (typeof value === "string") return /^https?:\/\//i.test(value) ? LOOPBACK_URL : value;
  if (Array.isArray(value)) return value.map(loopbackUrls);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loopbackUrls(v)]));
  return value;
}

const MARK = "\u0001fuzz-value\u0001";
/** `base` (an object, or {}) with `key` set to the raw JSON text `value`, or removed when `value` is undefined. */
function withField(base: unknown, key: string, value: string | undefined): string {
  const object = base && typeof base === "object" && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  if (value === undefined) {
    delete object[key];
    return JSON.stringify(object);
  }
  object[key] = MARK;
  return JSON.stringify(object).replace(JSON.stringify(MARK), () => value);
}

/** A JSON body (text) for an operation or a procedure with these fields and this example. */
function jsonBody(keys: string[], example: unknown): fc.Arbitrary<{ kind: string; text: string }> {
  const key = fc.oneof(fc.constantFrom(...(keys.length > 0 ? keys : ["input"])), oddText, poisonText);
  return fc.oneof(
    { arbitrary: fc.tuple(key, badJsonValue).map(([k, v]) => ({ kind: "bad field", text: withField(example, k, v) })), weight: 8 },
    { arbitrary: key.map((k) => ({ kind: "missing field", text: withField(example, k, undefined) })), weight: 2 },
    { arbitrary: fc.tuple(key, deepJson).map(([k, v]) => ({ kind: "deep", text: withField(example, k, v) })), weight: 2 },
    { arbitrary: badJsonValue.map((text) => ({ kind: "wrong root", text })), weight: 3 },
    { arbitrary: fc.constantFrom("{", "[1,", '{"a":}', "nul", "{'a':1}", '{"a":1}}', "\u0000", "\ufeff{}", '"\\ud800"').map((text) => ({ kind: "invalid json", text })), weight: 2 },
  );
}

const yamlText = fc.oneof(
  fc.constantFrom(
    "name: x\nnodes: []\n",
    "name: \u0000\nnodes:\n  - id: a\n    prompt: hi\n",
    `name: deep\nnodes: ${"[".repeat(5_000)}${"]".repeat(5_000)}\n`,
    `a: &a ["x","x","x","x"]\nb: &b [*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c]\ne: [*d,*d,*d,*d]\n`,
    "name: !!binary AAAA\n",
    ":\n  - : :\n",
  ),
  codeUnits(200),
);

const contentTypes = fc.constantFrom(
  "application/json", "application/json", "application/json", "text/plain", "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz", "application/yaml", "application/octet-stream", "application/json; charset=utf-16", "",
);

/** A request body, its content type and what kind of bad it is. */
function bodyFor(keys: string[], example: unknown): fc.Arbitrary<{ kind: string; body?: string | Uint8Array<ArrayBuffer>; type: string }> {
  return fc.oneof(
    { arbitrary: fc.tuple(jsonBody(keys, example), contentTypes).map(([json, type]) => ({ kind: json.kind, body: json.text, type })), weight: 16 },
    { arbitrary: fc.constantFrom({ kind: "no body", type: "" }, { kind: "empty body", body: "", type: "application/json" }), weight: 2 },
    { arbitrary: fc.integer({ min: MiB + 1, max: 2 * MiB }).map((size) => ({ kind: "oversized", body: `{"brief":"${"x".repeat(size)}"}`, type: "application/json" })), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => ({ kind: "random bytes", body: new Uint8Array(bytes), type: "application/octet-stream" })), weight: 2 },
    { arbitrary: fc.tuple(yamlText, fc.constantFrom("application/yaml", "text/yaml")).map(([body, type]) => ({ kind: "yaml", body, type })), weight: 1 },
    { arbitrary: fc.constantFrom("a=1&b=%00", "--fuzz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\u0000\r\n--fuzz--\r\n").map((body) => ({ kind: "form", body, type: "multipart/form-data; boundary=fuzz" })), weight: 1 },
  );
}

/** A path segment, percent-encoded. */
const segment = fc.oneof(
  { arbitrary: fc.constantFrom("%00", "abc%00def", "%ED%A0%80", "%ED%BF%BF%ED%A0%80", "%C0%80", "%FF", "%", "%2F", ".", "%2e%2e", "%25"), weight: 4 },
  { arbitrary: poisonText.map(percentEncode), weight: 3 },
  { arbitrary: oddText.map(percentEncode), weight: 3 },
  { arbitrary: fc.constantFrom(300, 2_000, 20_000).map((n) => "a".repeat(n)), weight: 1 },
);

const queryString = (names: string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...(names.length > 0 ? names : ["q"])), oddText.map(percentEncode)), segment), { maxLength: 3 })
    .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

/** With and without the operator token; now and then a wrong one, an odd x-actor, session cookie or CSRF token. */
const headersArb = fc
  .record({
    auth: fc.constantFrom("token", "token", "none", "none", "wrong"),
    actor: fc.option(fc.constantFrom("%00", "a%00b", "%ED%A0%80", "reviewer", "x".repeat(5_000)), { nil: undefined }),
    cookie: fc.option(fc.constantFrom("stitch_session=%00", "stitch_session=abc", `stitch_session=${"a".repeat(5_000)}`, "a=b; stitch_session=%ED%A0%80", "stitch_session="), { nil: undefined }),
    csrf: fc.option(fc.constantFrom("%00", "abc", ""), { nil: undefined }),
  })
  .map(({ auth, actor, cookie, csrf }) => ({
    ...(cookie === undefined ? {} : { cookie }),
    ...(csrf === undefined ? {} : { "x-csrf-token": csrf }),
    ...(auth === "token" ? { authorization: `Bearer ${TOKEN}` } : auth === "wrong" ? { authorization: "Bearer not-the-token" } : {}),
    ...(actor === undefined ? {} : { "x-actor": actor }),
  }));

const canHaveBody = (method: string) => method !== "GET" && method !== "HEAD";

// ---- requests -------------------------------------------------------------------------------------------------------

function restProbe(op: Operation): fc.Arbitrary<Probe> {
  const params = fc.tuple(...op.pathParams.map(() => segment));
  const method = fc.oneof({ arbitrary: fc.constant(op.method), weight: 9 }, { arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "GET", "POST"), weight: 1 });
  return fc.tuple(method, params, queryString(op.queryParams), headersArb, bodyFor(op.bodyKeys, op.example)).map(([m, values, query, headers, body]) => {
    let path = op.path;
    op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, values[i]!)));
    const withBody = canHaveBody(m) && body.body !== undefined;
    return {
      family: `rest ${withBody ? body.kind : "no body"}`,
      target: `${op.method} ${op.path}`,
      method: m,
      path: path + query,
      headers: { ...headers, ...(withBody && body.type ? { "content-type": body.type } : {}) },
      ...(withBody ? { body: body.body } : {}),
    };
  });
}

function trpcProbe(procedures: Procedure[]): fc.Arbitrary<Probe> {
  const call = fc.constantFrom(...procedures).chain((p) => jsonBody(p.keys, {}).map((input) => ({ p, input })));
  return fc.tuple(fc.array(call, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 0, max: 9 }), headersArb, contentTypes).map(([calls, batched, swap, headers, type]) => {
    const batch = batched || calls.length > 1;
    const names = calls.map((c) => c.p.name).join(",");
    const input = batch ? `{${calls.map((c, i) => `"${i}":${c.input.text}`).join(",")}}` : calls[0]!.input.text;
    const isQuery = calls[0]!.p.type === "query";
    const useGet = swap === 0 ? !isQuery : isQuery; // one in ten uses the method the procedure does not take
    const kinds = `${calls[0]!.input.kind}${batch ? ", batched" : ""}`;
    const target = `trpc ${names}`;
    if (useGet) return { family: `trpc GET ${kinds}`, target, method: "GET", path: `/trpc/${names}?${batch ? "batch=1&" : ""}input=${percentEncode(input)}`, headers };
    return { family: `trpc POST ${kinds}`, target, method: "POST", path: `/trpc/${names}${batch ? "?batch=1" : ""}`, headers: { ...headers, ...(type ? { "content-type": type } : {}) }, body: input };
  });
}

/**
 * Requests at the run that must not change, each carrying something the request guard refuses (a NUL in the query, a
 * deep body, a NUL or a lone surrogate in the body), so none of them can be a valid command on it.
 */
function protectedProbe(ops: Operation[], runId: string): fc.Arbitrary<Probe> {
  const aimed = ops.filter((op) => op.pathParams.length > 0);
  const poison = fc.constantFrom<{ query?: string; body?: string; kind: string }>(
    { kind: "nul query", query: "?reason=%00" },
    { kind: "deep body", body: `{"reason":${deepText(MAX_JSON_DEPTH + 1, "[")}}` },
    { kind: "nul body", body: '{"reason":"\\u0000","decision":"approve","output":"\\u0000"}' },
    { kind: "surrogate body", body: '{"output":"\\udfff\\ud800","feedback":"\\ud800"}' },
  );
  return fc.tuple(fc.constantFrom(...aimed), poison, headersArb).map(([op, p, headers]) => {
    let path = op.path;
    for (const name of op.pathParams) path = path.replace(`{${name}}`, /run/i.test(name) || name === "id" ? runId : "protected-gate");
    const bodyAllowed = canHaveBody(op.method) && p.body !== undefined;
    const query = p.query ?? (bodyAllowed ? "" : "?x=%00");
    return {
      family: `protected ${p.kind}`,
      target: `${op.method} ${op.path}`,
      method: op.method,
      path: path + query,
      headers: { ...headers, ...(bodyAllowed ? { "content-type": "application/json" } : {}) },
      ...(bodyAllowed ? { body: p.body } : {}),
    };
  });
}

// ---- what the server says ------------------------------------------------------------------------------------------

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  byFamily: Record<string, number>;
  failures: string[];
  /** Bad answers by status and operation: what a fix has to cover. */
  failuresByTarget: Record<string, number>;
}

const describeProbe = (p: Probe) => {
  const body = p.body === undefined ? "" : typeof p.body === "string" ? ` body(${p.body.length}): ${JSON.stringify(p.body.slice(0, 160))}` : ` bytes(${p.body.byteLength})`;
  return `${p.method} ${p.path.slice(0, 200)} ${JSON.stringify(p.headers).slice(0, 200)}${body}`;
};

/** Stack frames and SQL in an answer say how the server is built; clients are told what went wrong only. */
const leaks = /\n\s+at .+:\d+:\d+|"stack"|Failed query|\bselect .+ from\b|\binsert into\b/i;

async function send(base: string, probe: Probe, tally: Tally): Promise<void> {
  tally.requests++;
  tally.byFamily[probe.family] = (tally.byFamily[probe.family] ?? 0) + 1;
  let status: string;
  let text = "";
  try {
    const response = await fetch(base + probe.path, { method: probe.method, headers: probe.headers, body: probe.body, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    status = String(response.status);
    text = await response.text();
  } catch (error) {
    status = `network error (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`;
  }
  tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
  const bad = !/^[234]\d\d$/.test(status) ? status : leaks.test(text) ? `${status} leaking` : undefined;
  if (bad === undefined) return;
  tally.failures.push(`${bad} ${text.slice(0, 300)} <- ${probe.family}: ${describeProbe(probe)}`);
  tally.failuresByTarget[`${bad} ${probe.target}`] = (tally.failuresByTarget[`${bad} ${probe.target}`] ?? 0) + 1;
}

// ---- the operations and procedures ---------------------------------------------------------------------------------

type OpenApi = { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };

function operationsOf(doc: OpenApi): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? []) as { in: string; name: string }[];
      const content = (op.requestBody as { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> } | undefined)?.content ?? {};
      const json = content["application/json"] ?? Object.values(content)[0];
      const ref = json?.schema?.$ref?.split("/").pop();
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
        bodyKeys: Object.keys((ref && doc.components.schemas[ref]?.properties) ?? {}),
        example: loopbackUrls(json?.example ?? {}),
      });
    }
  }
  return operations;
}

/** A zod schema's top-level keys, through optionals and intersections. */
function keysOf(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown; def?: { left?: unknown; right?: unknown } } | undefined;
  if (!s) return [];
  if (s.shape) return Object.keys(s.shape);
  if (s.def?.left) return [...keysOf(s.def.left), ...keysOf(s.def.right)];
  return typeof s.unwrap === "function" ? keysOf(s.unwrap()) : [];
}

function proceduresOf(): Procedure[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription"; inputs: unknown[] } }>;
  return Object.entries(procedures)
    .filter(([, p]) => p._def.type !== "subscription")
    .map(([name, p]) => ({ name, type: p._def.type as "query" | "mutation", keys: keysOf(p._def.inputs[0]) }));
}

// ---- the test -------------------------------------------------------------------------------------------------------

describe.each(testDatabases)("fuzz of every front door on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let base: string;
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

  const post = async (path: string, body: unknown) => {
    const response = await fetch(base + path, { method: "POST", headers: auth, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return (await response.json()) as { id: string };
  };
  const snapshot = (runId: string) =>
    env.database.run(async (db) => ({
      run: await rows(db, sql`SELECT * FROM stitch_runs WHERE id = ${runId}`),
      nodes: await rows(db, sql`SELECT * FROM stitch_node_states WHERE run_id = ${runId} ORDER BY node_id`),
      events: await rows(db, sql`SELECT * FROM stitch_run_events WHERE run_id = ${runId} ORDER BY id`),
      dispatches: await rows(db, sql`SELECT * FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY id`),
    }));

  beforeAll(async () => {
    env = await serverOn(testDatabase, { STITCH_BOOTSTRAP_TOKEN: TOKEN });
    base = env.server.url;
  });
  afterAll(async () => {
    await env?.close();
  });

  it(`answers ${RUNS} generated bad requests without a 5xx, stays up, and changes no run`, { timeout: 60_000 + RUNS * 40 }, async () => {
    const flow = await post("/api/stitch/flows", { name: "fuzz-protected", graph: graphOf([uxNode("protected-gate"), uxNode("protected-next")], chain("protected-gate", "protected-next")) });
    const run = await post(`/api/stitch/flows/${flow.id}/runs`, { input: { brief: "must not change" } });
    const before = await snapshot(run.id);
    expect(before.run).toHaveLength(1);

    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApi;
    const operations = operationsOf(doc);
    const procedures = proceduresOf();
    expect(operations.length).toBeGreaterThan(30);
    expect(procedures.length).toBeGreaterThan(30);

    // Every operation and every procedure is sent at least once, whatever the draw; the rest is drawn at random.
    const probes = fc.oneof(
      { arbitrary: fc.oneof(...operations.map(restProbe)), weight: 12 },
      { arbitrary: trpcProbe(procedures), weight: 6 },
      { arbitrary: protectedProbe(operations, run.id), weight: 1 },
    );
    const tally: Tally = { requests: 0, byStatus: {}, byFamily: {}, failures: [], failuresByTarget: {} };
    const started = Date.now();
    for (const op of operations) await send(base, fc.sample(restProbe(op), { numRuns: 1, seed: SEED })[0]!, tally);
    for (const p of procedures) await send(base, fc.sample(trpcProbe([p]), { numRuns: 1, seed: SEED })[0]!, tally);
    await fc.assert(
      fc.asyncProperty(probes, async (probe) => {
        await send(base, probe, tally);
      }),
      { numRuns: Math.max(0, RUNS - tally.requests), seed: SEED, endOnFailure: true },
    );

    const seconds = (Date.now() - started) / 1000;

    console.log(`fuzz on ${testDatabase.name}: ${JSON.stringify({ seed: SEED, requests: tally.requests, seconds, byStatus: tally.byStatus, byFamily: tally.byFamily, failures: tally.failures.length, failuresByTarget: tally.failuresByTarget })}`);
    expect(tally.failures.slice(0, 20), `seed ${SEED}: ${tally.failures.length} bad answers`).toEqual([]);
    expect(tally.requests).toBeGreaterThanOrEqual(RUNS);

    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await snapshot(run.id)).toEqual(before);
  });

  it("answers the issue's 500s with a 400 naming the field, and the node they aimed at still waits", async () => {
    const flow = await post("/api/stitch/flows", { name: "fuzz-regressions", graph: graphOf([uxNode("gate")]) });
    const run = await post(`/api/stitch/flows/${flow.id}/runs`, { input: null });
    const before = await snapshot(run.id);
    const trpcInput = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const cases: [string, RequestInit, RegExp][] = [
      ["/runs/%00", {}, /^path parameter run_id contains the NUL character/],
      ["/runs/abc%00def/artifacts/latest", {}, /^path parameter run_id contains the NUL character/],
      ["/runs/%00/artifacts/export", {}, /^path parameter run_id/],
      ["/runs/%00/retry", { method: "POST" }, /^path parameter run_id/],
      ["/runs/%00/reject", { method: "POST", body: '{"feedback":"x"}' }, /^path parameter run_id/],
      [`/api/stitch/complete/${run.id}/gate`, { method: "POST", body: '{"output": "\\udfff\\ud800"}' }, /^output contains a lone UTF-16 surrogate/],
      [`/api/stitch/complete/${run.id}/gate`, { method: "POST", body: `{"output": ${"[".repeat(5_000)}${"]".repeat(5_000)}}` }, /^output\.0\.0\.0\.0\.0\.\.\. is nested deeper than 64 levels/],
      [`/trpc/pipeline.getRun${trpcInput({ runId: "\u0000" })}`, {}, /^runId contains the NUL character/],
      [`/trpc/engine.runs.completeNode`, { method: "POST", body: JSON.stringify({ runId: run.id, nodeId: "gate", output: "\udfff\ud800" }) }, /^output contains a lone UTF-16 surrogate/],
    ];
    for (const [path, init, message] of cases) {
      const answer = await fetch(base + path, { ...init, headers: auth });
      expect(answer.status, path).toBe(400);
      const body = (await answer.json()) as { message?: string; error?: { message: string } };
      expect(body.message ?? body.error?.message, path).toMatch(message);
    }
    expect(await snapshot(run.id)).toEqual(before);
  });

  it("refuses two concurrent 50 MB bodies (REST and tRPC) with 413, reading neither whole", async () => {
    // Streamed 1 MB at a time; what the server pulled shows it stopped near the limit instead of reading 50 MB.
    // A server that closes while the client still sends may reset the connection before the client has read the
    // 413 (TCP discards what was not read yet): such an attempt says nothing either way and is made again.
    const refused = async (path: string) => {
      for (let attempt = 1; ; attempt++) {
        const body = countedStream(50 * MiB);
        try {
          return { status: await postStreamed(base + path, auth, body.stream), sent: body.sent() };
        } catch (error) {
          if (attempt >= 3 || !/EPIPE|ECONNRESET/.test(String((error as NodeJS.ErrnoException).code))) throw error;
          expect(body.sent()).toBeLessThan(20 * MiB);
        }
      }
    };
    const answers = await Promise.all(["/runs", "/trpc/pipeline.createRun"].map(refused));
    expect(answers.map((a) => a.status)).toEqual([413, 413]);
    for (const { sent } of answers) expect(sent).toBeLessThan(20 * MiB);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it("answers an internal error with 'internal error' only: no stack, no SQL, on REST and tRPC alike", async () => {
    const queries = env.server.pipeline.queries;
    const original = queries.getRun;
    queries.getRun = () => Promise.reject(new Error('Failed query: select "id", "brief" from "pipeline_runs" where "id" = $1\nparams: RUN_secret'));
    try {
      const rest = await fetch(`${base}/runs/RUN_secret`, { headers: auth });
      expect(rest.status).toBe(500);
      expect(await rest.json()).toEqual({ error: "internal", message: "internal error", detail: "internal error" });
      const trpc = await fetch(`${base}/trpc/pipeline.getRun?input=${encodeURIComponent(JSON.stringify({ runId: "RUN_secret" }))}`, { headers: auth });
      expect(trpc.status).toBe(500);
      const text = await trpc.text();
      expect(text).not.toMatch(leaks);
      expect(text).not.toMatch(/pipeline_runs|RUN_secret/);
      expect(JSON.parse(text)).toMatchObject({ error: { message: "internal error", data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } } });
    } finally {
      queries.getRun = original;
    }
  });
});

/** A stream of `size` bytes made 1 MB at a time as it is read, and how many bytes were read from it so far. */
/**
 * POSTs a streamed body and answers the response's status as soon as it arrives. The server answers 413 and closes
 * the connection while the body is still being sent, so the write that follows may fail (EPIPE, ECONNRESET): that is
 * the refusal working, not an error (fetch would report it instead of the answer it already received).
 */
function postStreamed(url: string, headers: Record<string, string>, stream: ReadableStream<Uint8Array>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject); // after the answer, a no-op
    const body = Readable.fromWeb(stream as import("node:stream/web").ReadableStream<Uint8Array>);
    body.on("error", () => undefined);
    body.pipe(request);
  });
}

function countedStream(size: number): { stream: ReadableStream<Uint8Array>; sent(): number } {
  const chunk = new Uint8Array(MiB).fill(0x61);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, sent: () => sent };
}
