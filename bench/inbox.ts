/**
 * The reviewer's inbox at scale: `npm run bench:inbox` (add `-- --help` for the options).
 *
 * It seeds 10,000 open and 100,000 decided decisions (by default) over some thousands of engine runs with bulk
 * `INSERT ... SELECT generate_series` statements, on embedded PGlite in a temporary directory and, when DATABASE_URL
 * is set, on a scratch database beside the one it names (created and dropped here). Then it times, through the real
 * `DecisionQueries` (the page of 50 and the `open_for_me` count the inbox answers in one response) and
 * `countOpenForMe` (the navigation's count), the first page of every view for a reviewer and an operator, without
 * and with a search, and prints the median and p95 of the timed rounds (cases interleaved within each round, after
 * warm-up rounds). Last it prints `EXPLAIN (ANALYZE, BUFFERS)` of the statements those same calls send (captured
 * from the store's query builders, run with their own parameters), so one can see which index serves each filter.
 * Timings never fail the run; a wrong page does (a view answering rows it should not).
 */
import { type SQL, sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { type Database, type Executor, openDatabase, rows } from "../db/client";
import { DecisionQueries } from "../server/decisions/queries";
import type { DecisionListQuery, DecisionPage } from "../server/decisions/schemas";
import type { Identity } from "../server/people/schemas";
import { type ScratchDatabase, createScratchDatabase } from "../server/testing/scratchDatabases";
import { UsageError, optionsRefused, readFlags } from "./flags";
import { fixed, grouped, median, percentile, table } from "./report";

// ---- Options ----------------------------------------------------------------------------------------

const whole = (min: number) => z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(min, `must be at least ${min}`);
const Options = z.object({
  open: whole(1).default(10_000),
  decided: whole(0).default(100_000),
  /** Decisions per engine run, on average: how many runs the decisions are spread over. */
  perRun: whole(1).default(10),
  rounds: whole(1).default(30),
  warmup: whole(0).default(5),
  databases: z.enum(["both", "pglite", "postgres"]).default("both"),
  plans: z.enum(["full", "none"]).default("full"),
  /** Leave the seeded databases behind (their names are printed) to explore them by hand. */
  keep: z.boolean().default(false),
});
type Options = z.infer<typeof Options>;

const usage = `usage: npm run bench:inbox -- [--open=10000] [--decided=100000] [--per-run=10] [--rounds=30] [--warmup=5] [--databases=both|pglite|postgres] [--plans=full|none] [--keep]
  PGlite runs in a temporary directory. PostgreSQL runs in a scratch database beside DATABASE_URL's (skipped when it is unset).
  --rounds: timed rounds (every case once a round, interleaved); medians and p95 are over these.
  --plans=none: only the timings.
  --keep: leave the seeded databases behind (the scratch database's URL and PGlite's directory are printed); drop or delete them yourself.`;

function parseOptions(argv: readonly string[]): Options {
  // --keep is a switch; every other option is a --name=value flag.
  const flags = readFlags(argv.filter((arg) => arg !== "--keep"), {
    open: "open", decided: "decided", "per-run": "perRun", rounds: "rounds", warmup: "warmup", databases: "databases", plans: "plans",
  } satisfies Record<string, keyof Options>, usage);
  const parsed = Options.safeParse({ ...flags, ...(argv.includes("--keep") ? { keep: true } : {}) });
  if (!parsed.success) throw optionsRefused(parsed.error);
  return parsed.data;
}

// ---- The data ---------------------------------------------------------------------------------------

/** 16 reviewers and 4 operators; the benchmark's reviewer is the first, its operator the last. */
const ACCOUNTS = 20;
const REVIEWERS = 16;

const DOMAINS = [
  "community tool library", "school bus routing", "farmers market payments", "clinic appointment reminders", "city bike sharing",
  "food bank inventory", "volunteer shift planning", "public library e-lending", "parking permit renewals", "recycling pickup schedule",
  "small business grants", "museum ticketing", "tenant repair requests", "youth sports registration", "hospital bed tracking",
  "wildfire alerting", "flood sensor network", "river water quality", "energy co-op billing", "solar panel monitoring",
  "fleet maintenance", "warehouse picking", "invoice matching", "payroll corrections", "expense approvals",
  "customer churn model", "fraud case triage", "loan pre-approval", "insurance claims intake", "pharmacy refills",
  "language exchange matching", "campus room booking", "exam proctoring", "alumni donations", "research data catalogue",
  "court date reminders", "permit inspections", "snow plough dispatch", "street light outages", "noise complaints",
];
/** A domain that appears once in a thousand decisions: the rare search. */
const RARE_DOMAIN = "lighthouse keepers roster";
const AGENTS = ["Requirements", "Architecture", "Data model", "API design", "Test plan", "Security review", "Release notes"];
const WORKFLOWS = ["release-notes", "incident-triage", "vendor-onboarding"];
const MESSAGES = ["Prepare the release notes for", "Triage the incident reported by", "Onboard the new supplier for", "Summarise the feedback on"];

/** A version 4 UUID made of the md5 of a text expression: the same id for the same text, as the app's UUID checks accept. */
const id = (text: string) => sql.raw(`overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`);

const textArray = (values: readonly string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ")}]::text[]`);

/**
 * Seeds accounts, flows, engine runs and decisions with set-based statements. Every choice comes from hashtext() of
 * the row's number, so two seedings of the same size are the same data (but for gen_random_uuid() ids and now()).
 */
async function seed(database: Database, o: Options): Promise<{ aRunId: string }> {
  const total = o.open + o.decided;
  const runs = Math.max(1, Math.round(total / o.perRun));
  await database.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO accounts (id, name, email, role)
      SELECT ${id(`'account' || n`)}, 'Bench person ' || n, 'bench' || n || '@example.test', CASE WHEN n <= ${REVIEWERS} THEN 'reviewer' ELSE 'operator' END
      FROM generate_series(1, ${ACCOUNTS}) AS n`);
    await tx.execute(sql`
      INSERT INTO stitch_flows (id, name, graph)
      SELECT ${id(`'flow' || k`)}, name, '{"nodes":[],"edges":[]}'::jsonb
      FROM (VALUES (0, 'pipeline'), (1, 'release-notes'), (2, 'incident-triage'), (3, 'vendor approvals')) AS f(k, name)`);
    // A quarter of the runs are the pipeline's, half YAML workflows', a quarter plain flows'.
    await tx.execute(sql`
      INSERT INTO stitch_runs (id, flow_id, status, owner, owner_run_id, created_at, updated_at)
      SELECT ${id(`'run' || k`)}, ${id(`'flow' || (k % 4)`)}, 'running',
        CASE k % 4 WHEN 0 THEN 'pipeline' WHEN 3 THEN NULL ELSE 'yaml' END,
        CASE k % 4 WHEN 0 THEN 'RUN_' || (1790000000000 + k * 977) || substr(md5('r' || k), 1, 6) WHEN 3 THEN NULL ELSE ${id(`'run' || k`)}::text END,
        now() - make_interval(secs => abs(hashtext('c' || k)) % (400 * 86400)), now()
      FROM generate_series(1, ${runs}) AS k`);
    await tx.execute(sql`
      WITH s AS (
        SELECT i, i <= ${o.open} AS open,
          abs(hashtext('a' || i)) % 1000 AS a,
          abs(hashtext('d' || i)) % 1000 AS d,
          abs(hashtext('s' || i)) % 100 AS st,
          abs(hashtext('t' || i)) AS t,
          abs(hashtext('w' || i)) AS w,
          (i - 1) % ${runs} + 1 AS k
        FROM generate_series(1, ${total}) AS i
      ), r AS (
        SELECT s.*, ${id(`'run' || k`)} AS engine_run_id, k % 4 AS door,
          CASE WHEN t % 1000 = 0 THEN ${RARE_DOMAIN} ELSE (${textArray(DOMAINS)})[t % ${DOMAINS.length} + 1] END AS domain,
          CASE WHEN open
            THEN now() - make_interval(secs => w % (30 * 86400) + (w % 1000003) / 1000003.0)
            ELSE now() - make_interval(secs => 86400 + w % (365 * 86400) + (w % 1000003) / 1000003.0) END AS waiting_since,
          -- Who may take it: most are any reviewer's; 15% claimed by or assigned to a reviewer, 3% to an operator;
          -- 7% for operators, 2% for analysts.
          CASE WHEN a < 150 THEN 1 + a % ${REVIEWERS} WHEN a < 180 THEN ${REVIEWERS + 1} + a % ${ACCOUNTS - REVIEWERS} END AS assignee,
          CASE WHEN a < 150 THEN 'reviewer' WHEN a < 250 THEN 'operator' WHEN a < 270 THEN 'analyst' ELSE 'reviewer' END AS role
        FROM s
      ), closing AS (
        SELECT r.*, CASE WHEN NOT open THEN waiting_since + make_interval(secs => 60 + w % (72 * 3600)) END AS decided_at FROM r
      )
      INSERT INTO decisions (engine_run_id, node_key, front_door, run_id, kind, title, context, state, waiting_since, due_at,
        assignee_role, assignee_account_id, assignee_name, self_approval, decided_by_id, decided_by, decided_at, outcome)
      SELECT engine_run_id,
        (${textArray(["review_", "approve_", "answer_", "gate_"])})[door + 1] || i,
        (${textArray(["pipeline", "yaml", "yaml", "flow"])})[door + 1],
        CASE door WHEN 0 THEN 'RUN_' || (1790000000000 + k * 977) || substr(md5('r' || k), 1, 6) ELSE engine_run_id::text END,
        CASE door WHEN 0 THEN 'review' WHEN 3 THEN 'completion' ELSE CASE WHEN t % 3 = 0 THEN 'answer' ELSE 'approval' END END,
        CASE door
          WHEN 0 THEN 'Review ' || (${textArray(AGENTS)})[t % ${AGENTS.length} + 1] || ' v' || (1 + t % 3) || ' of ' || domain
          WHEN 3 THEN 'Complete "gate" of ' || engine_run_id
          ELSE CASE WHEN t % 3 = 0 THEN 'Answer' ELSE 'Approve' END || ' "' || (${textArray(["publish", "escalate", "sign_off"])})[t % 3 + 1] || '" of '
            || (${textArray(WORKFLOWS)})[door] || ' (' || (${textArray(MESSAGES)})[t % ${MESSAGES.length} + 1] || ' ' || domain || ')'
        END,
        CASE door WHEN 0 THEN domain WHEN 3 THEN '' ELSE (${textArray(MESSAGES)})[t % ${MESSAGES.length} + 1] || ' ' || domain END,
        CASE WHEN open THEN 'open' WHEN st < 90 THEN 'decided' WHEN st < 96 THEN 'expired' ELSE 'cancelled' END,
        waiting_since,
        -- A fifth have a due time, 1 to 14 days after they started waiting: the older open ones are overdue.
        CASE WHEN d < 200 THEN waiting_since + make_interval(days => 1 + d % 14) END,
        role,
        CASE WHEN assignee IS NOT NULL THEN ${id(`'account' || assignee`)} END,
        CASE WHEN assignee IS NOT NULL THEN 'Bench person ' || assignee END,
        door <> 0,
        CASE WHEN NOT open AND st < 90 THEN ${id(`'account' || coalesce(assignee, 1 + w % ${ACCOUNTS})`)} END,
        CASE WHEN NOT open AND st < 90 THEN 'Bench person ' || coalesce(assignee, 1 + w % ${ACCOUNTS}) END,
        decided_at,
        CASE WHEN open THEN NULL WHEN st >= 96 THEN 'cancelled' WHEN st >= 90 THEN 'reject'
          WHEN door = 0 THEN (${textArray(["approve", "approve", "approve", "request_changes", "reject"])})[w % 5 + 1]
          WHEN door = 3 THEN 'complete' WHEN t % 3 = 0 THEN 'answer' ELSE 'approve' END
      FROM closing
      -- A row sits where its last write put it: an open decision where it opened, a closed one where it closed.
      ORDER BY coalesce(decided_at, waiting_since)`);
  });
  // Statistics and the visibility map, as autovacuum would leave them (this project's PostgreSQL runs without it).
  await database.run((db) => db.execute(sql`VACUUM ANALYZE accounts, stitch_flows, stitch_runs, decisions`));
  const [row] = await database.run((db) =>
    rows<{ run_id: string }>(db, sql`SELECT run_id FROM decisions WHERE engine_run_id = ${id(`'run' || ${Math.ceil(runs / 2)}`)} LIMIT 1`),
  );
  return { aRunId: row!.run_id };
}

// ---- The cases --------------------------------------------------------------------------------------

interface Caller {
  label: string;
  identity: Identity;
}

interface Case {
  label: string;
  query: DecisionListQuery;
}

function callersOf(): Caller[] {
  const person = (n: number, role: "reviewer" | "operator"): Identity => ({ kind: "token", accountId: "", name: `Bench person ${n}`, role, tokenId: "00000000-0000-0000-0000-000000000000" });
  return [
    { label: "reviewer", identity: person(1, "reviewer") },
    { label: "operator", identity: person(ACCOUNTS, "operator") },
  ];
}

/** The account ids, read back (they are md5-derived in SQL). */
async function withAccountIds(database: Database, callers: Caller[]): Promise<Caller[]> {
  const ids = await database.run((db) => rows<{ name: string; id: string }>(db, sql`SELECT name, id::text AS id FROM accounts`));
  return callers.map((c) => {
    const id = ids.find((row) => row.name === c.identity.name)?.id;
    if (!id) throw new Error(`no account ${c.identity.name}`);
    return { ...c, identity: { ...c.identity, accountId: id } as Identity };
  });
}

const COMMON_SEARCH = "tool library";
const RARE_SEARCH = "lighthouse";

function casesOf(aRunId: string): Case[] {
  const base: [string, Partial<DecisionListQuery>][] = [
    ["mine", { view: "mine" }],
    ["role", { view: "role" }],
    ["unassigned", { view: "unassigned" }],
    ["overdue", { view: "overdue" }],
    ["decided", { view: "decided" }],
    ["all", { view: "all" }],
    ["all, state=decided", { view: "all", state: "decided" }],
    ["all, state=all", { view: "all", state: "all" }],
    ["all, state=all, run_id", { view: "all", state: "all", run_id: aRunId }],
  ];
  const cases: Case[] = [];
  for (const [q, suffix] of [[undefined, ""], [COMMON_SEARCH, ` q="${COMMON_SEARCH}"`], [RARE_SEARCH, ` q="${RARE_SEARCH}"`]] as const) {
    for (const [label, query] of base) {
      if (query.run_id && q) continue;
      cases.push({ label: `${label}${suffix}`, query: { view: "role", limit: 50, ...query, ...(q ? { q } : {}) } });
    }
  }
  return cases;
}

// ---- Checks: a page holds only what its view selects -----------------------------------------------

function checkPage(page: DecisionPage, c: Case, caller: Caller, roles: readonly string[]): void {
  const q = c.query;
  const state = q.state ?? (q.view === "decided" ? "decided" : "open");
  const me = caller.identity.accountId;
  const wrong = page.items.find((d) => {
    if (state === "open" && d.state !== "open") return true;
    if (state === "decided" && d.state === "open") return true;
    if (q.view === "mine" && d.assignee.id !== me) return true;
    if (q.view === "role" && (!roles.includes(d.assignee.role) || (d.assignee.id !== null && d.assignee.id !== me))) return true;
    if (q.view === "unassigned" && d.assignee.id !== null) return true;
    if (q.view === "overdue" && (d.due_at === null || Date.parse(d.due_at) >= Date.now())) return true;
    if (q.run_id && d.run_id !== q.run_id) return true;
    if (q.q && !`${d.title}\n${d.context}`.toLowerCase().includes(q.q.toLowerCase())) return true;
    return false;
  });
  if (wrong) throw new Error(`${c.label} for the ${caller.label} answered a decision it should not: ${JSON.stringify(wrong)}`);
  for (let i = 1; i < page.items.length; i++) {
    if (page.items[i - 1]!.waiting_since < page.items[i]!.waiting_since) throw new Error(`${c.label}: not newest first`);
  }
}

// ---- Plans: the statements the real calls send, explained -------------------------------------------

/**
 * An executor whose selects are explained instead of run: the store builds its query as always, and awaiting the
 * builder runs `EXPLAIN (ANALYZE, BUFFERS)` of that statement with its parameters and answers no rows.
 */
function explainingExecutor(db: Executor, explain: string, sink: string[][]): Executor {
  const wrap = <T extends object>(target: T): T => {
    const proxy: T = new Proxy(target, {
      get(t, prop) {
        if (prop === "then" && "getSQL" in t) {
          const statement = (t as unknown as { getSQL(): SQL }).getSQL();
          return (resolve: (v: unknown) => void, reject: (e: unknown) => void) =>
            rows<Record<string, string>>(db, sql`${sql.raw(explain)} ${statement}`)
              .then((plan) => sink.push(plan.map((line) => Object.values(line)[0]!)))
              .then(() => resolve([]), reject);
        }
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(t, args);
          if (out === t) return proxy;
          return out && typeof out === "object" && ("getSQL" in out || "from" in out) ? wrap(out) : out;
        };
      },
    });
    return proxy;
  };
  const refuse = () => {
    throw new Error("the inbox only reads");
  };
  return { select: ((...args: unknown[]) => wrap((db.select as (...a: unknown[]) => object)(...args))) as Executor["select"], execute: refuse, insert: refuse, update: refuse, delete: refuse } as unknown as Executor;
}

function explainingDatabase(database: Database, explain: string, sink: string[][]): Database {
  return {
    kind: database.kind,
    run: (fn) => database.run((db) => fn(explainingExecutor(db, explain, sink))),
    runApart: (fn) => database.runApart((db) => fn(explainingExecutor(db, explain, sink))),
    transaction: () => Promise.reject(new Error("the inbox only reads")),
    listen: database.listen,
    close: async () => {},
  };
}

/** "Index Scan Backward using decisions_state_idx", ... : the plan's scans on one line. */
function scansOf(plan: readonly string[]): string {
  const scans = plan
    .map((line) => /(Parallel )?(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan)( Backward)?( using (\S+))? on (\S+)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => (m[2] === "Seq Scan" ? `Seq Scan ${m[6]}` : `${m[2] === "Index Only Scan" ? "index-only " : m[2] === "Bitmap Index Scan" ? "bitmap " : ""}${m[5] ?? m[6]}${m[3] ? " (backward)" : ""}`));
  return [...new Set(scans)].join(" + ");
}

// ---- The measurement ---------------------------------------------------------------------------------

interface Row {
  caller: string;
  label: string;
  list: number[];
  rows: number;
}

async function measure(kind: "pglite" | "postgres", o: Options): Promise<void> {
  let scratch: ScratchDatabase | null = null;
  let dir: string | null = null;
  let database: Database;
  if (kind === "postgres") {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, { tag: "inbox" });
    database = await openDatabase({ databaseUrl: scratch.url });
  } else {
    dir = mkdtempSync(join(tmpdir(), "stitch-inbox-"));
    database = await openDatabase({ dataDir: dir });
  }
  const name = kind === "pglite" ? "PGlite" : "PostgreSQL";
  try {
    const seeding = performance.now();
    const { aRunId } = await seed(database, o);
    const [counts] = await database.run((db) => rows<{ open: number; decided: number; overdue: number }>(db, sql`
      SELECT count(*) FILTER (WHERE state = 'open')::int AS open, count(*) FILTER (WHERE state <> 'open')::int AS decided,
        count(*) FILTER (WHERE state = 'open' AND due_at < now())::int AS overdue FROM decisions`));
    console.log(`\n${name}: seeded ${grouped(counts!.open)} open (${grouped(counts!.overdue)} overdue) and ${grouped(counts!.decided)} decided decisions in ${fixed((performance.now() - seeding) / 1000, 1)} s`);

    const queries = new DecisionQueries(database);
    const callers = await withAccountIds(database, callersOf());
    const cases = casesOf(aRunId);
    const rolesFor = (c: Caller) => (c.identity.role === "operator" ? ["analyst", "reviewer", "operator"] : ["analyst", "reviewer"]);
    const results: Row[] = callers.flatMap((caller) => cases.map((c) => ({ caller: caller.label, label: c.label, list: [] as number[], rows: 0 })));
    const countTimes = new Map<string, number[]>(callers.map((c) => [c.label, []]));
    const openForMe = new Map<string, number>();

    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} before ${o.warmup} warm-up and ${o.rounds} timed rounds`);
    for (let round = 0; round < o.warmup + o.rounds; round++) {
      const timed = round >= o.warmup;
      let at = 0;
      for (const caller of callers) {
        for (const c of cases) {
          const row = results[at++]!;
          const started = performance.now();
          const page = await queries.list(caller.identity, c.query);
          const ms = performance.now() - started;
          if (round === 0) {
            checkPage(page, c, caller, rolesFor(caller));
            row.rows = page.items.length;
            openForMe.set(caller.label, page.open_for_me);
          }
          if (timed) row.list.push(ms);
        }
        const started = performance.now();
        await queries.countOpenForMe(caller.identity);
        if (timed) countTimes.get(caller.label)!.push(performance.now() - started);
      }
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} after`);

    // One explained call per case (after the timings, so it does not warm anything they read).
    const plans = new Map<string, { page: string[]; count: string[] }>();
    const explain = "EXPLAIN (ANALYZE, BUFFERS)";
    for (const caller of callers) {
      for (const c of cases) {
        const sink: string[][] = [];
        await new DecisionQueries(explainingDatabase(database, explain, sink)).list(caller.identity, c.query);
        // list() sends the page and the count at once: the page's plan has a Limit over the ordered rows, the count's an Aggregate.
        const page = sink.find((p) => /^Limit/.test(p[0]!)) ?? sink[0]!;
        const count = sink.find((p) => p !== page) ?? [];
        plans.set(`${caller.label}|${c.label}`, { page, count });
      }
    }

    console.log(`\n${name}: the inbox's first page (DecisionQueries.list: ${50} decisions and the open_for_me count), ms over ${o.rounds} rounds`);
    console.log(
      table(
        ["caller", "view", "rows", "median ms", "p95 ms", "the page's scans"],
        results.map((r) => [r.caller, r.label, String(r.rows), fixed(median(r.list), 2), fixed(percentile(r.list, 95), 2), scansOf(plans.get(`${r.caller}|${r.label}`)!.page)]),
      ),
    );
    console.log(`\n${name}: the navigation's count (DecisionQueries.countOpenForMe), ms over ${o.rounds} rounds`);
    console.log(
      table(
        ["caller", "open for me", "median ms", "p95 ms", "scans"],
        callers.map((c) => [c.label, grouped(openForMe.get(c.label)!), fixed(median(countTimes.get(c.label)!), 2), fixed(percentile(countTimes.get(c.label)!, 95), 2), scansOf(plans.get(`${c.label}|${cases[0]!.label}`)!.count)]),
      ),
    );

    if (o.plans === "full") {
      console.log(`\n${name}: plans (${explain}) of the statements DecisionQueries.list sends`);
      for (const caller of callers) {
        for (const c of cases) {
          // The operator's pages differ from the reviewer's only in the role view (its roles) and mine (its account).
          if (caller.label === "operator" && !/^(role|mine)/.test(c.label)) continue;
          console.log(`\n-- ${c.label} (${caller.label})\n${plans.get(`${caller.label}|${c.label}`)!.page.join("\n")}`);
        }
        console.log(`\n-- the open_for_me count (${caller.label})\n${plans.get(`${caller.label}|${cases[0]!.label}`)!.count.join("\n")}`);
      }
    }
  } finally {
    await database.close();
    if (o.keep) console.log(`\n${name}: kept ${scratch ? scratch.url : dir}`);
    else {
      await scratch?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
}

try {
  const o = parseOptions(process.argv.slice(2));
  const kinds: ("pglite" | "postgres")[] = o.databases === "both" ? ["pglite", "postgres"] : [o.databases];
  if (kinds.includes("postgres") && !process.env.DATABASE_URL) {
    if (o.databases === "postgres") throw new UsageError("--databases=postgres needs DATABASE_URL (a scratch database is created beside it)");
    console.log("DATABASE_URL is not set: PGlite only");
  }
  for (const kind of kinds) if (kind === "pglite" || process.env.DATABASE_URL) await measure(kind, o);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  throw error;
}
