/**
 * The bundle's files go into the tools a team uses next, proven with clients nobody here wrote: the backlog CSVs
 * parsed by csv-parse under each importer's column names (Jira, Linear, GitHub), every `.feature` parsed by the
 * Cucumber project's Gherkin parser, the DDL applied to a fresh PostgreSQL database (PGlite, and the run's
 * PostgreSQL server when it has one), and every diagram of the HTML report drawn by Chromium with the network shut.
 */
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { PGlite } from "@electric-sql/pglite";
import { chromium } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { connectPostgres } from "../../../db/client";
import { BRIEFS, PIPELINE_STEPS, runPipeline } from "../../testing/agentTestkit";
import { createScratchDatabase, postgresServerUrl } from "../../testing/databases";
import { ARTIFACT_TYPES } from "../artifacts";
import { type BundleArtifact, type BundleRun, buildBundle, exportPayloadOf } from "./bundle";

const STEPS = PIPELINE_STEPS;

/** An n8n agent's own diagrams: a reserved word as an entity, types PostgreSQL does not spell that way, an N:M, a key to nowhere. */
const N8N_DIAGRAMS = {
  artifact: {
    entity_relationship_model: {
      entities: [
        { name: "Order", attributes: [{ name: "id", type: "UUID", key: "PK" }, { name: "placedAt", type: "datetime" }, { name: "total", type: "money" }, { name: "user", type: "string" }, { name: "customer_id", type: "uuid", key: "FK" }] },
        { name: "Customer", attributes: [{ name: "id", type: "uuid", key: "PK" }, { name: "email", type: "email" }, { name: "vip", type: "bool" }] },
        { name: "Product Line", attributes: [{ name: "code", type: "varchar(20)", key: "PK" }, { name: "specs", type: "object" }, { name: "warehouse_id", type: "uuid", key: "FK" }] },
        { name: "Audit", attributes: ["what", "when"] },
      ],
      relationships: [
        { from: "Customer", to: "Order", cardinality: "1:N", label: "places" },
        { from: "Order", to: "Product Line", cardinality: "N:M", label: "contains" },
        { from: "Customer", to: "Audit", cardinality: "1:N", label: "is \"audited\"\nby" },
      ],
    },
    mermaid_sequence_diagram: "sequenceDiagram\n  Customer->>API: place order\n  API-->>Customer: 201",
  },
  changes_made: { added: [], removed: [], modified: [] },
  justification: "",
};

function bundleOf(domain: string, brief: string, override: Partial<Record<string, unknown>> = {}): Record<string, Uint8Array> {
  const envelopes = runPipeline(domain, brief) as Record<string, unknown>;
  const stored: BundleArtifact[] = ARTIFACT_TYPES.map((type, index) => ({ artifact_type: type, version: 1, created_at: `2026-03-01T10:0${index}:00Z`, content: override[type] ?? envelopes[type] }));
  const run: BundleRun = { domain, briefs: [{ version: 1, brief, by: "Ana Analyst" }], steps: STEPS };
  return unzipSync(buildBundle(exportPayloadOf("RUN_1", "2026-03-01T11:00:00Z", stored), stored, run));
}

const BUNDLES: [string, Record<string, Uint8Array>, ReturnType<typeof runPipeline>][] = [
  ["super-app", bundleOf(BRIEFS.superApp.domain, BRIEFS.superApp.brief), runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief)],
  ["tool library", bundleOf(BRIEFS.toolLibrary.domain, BRIEFS.toolLibrary.brief), runPipeline(BRIEFS.toolLibrary.domain, BRIEFS.toolLibrary.brief)],
  ["clinic", bundleOf(BRIEFS.clinic.domain, BRIEFS.clinic.brief), runPipeline(BRIEFS.clinic.domain, BRIEFS.clinic.brief)],
];

const text = (files: Record<string, Uint8Array>, name: string) => strFromU8(files[name] as Uint8Array);
const storiesOf = (envelopes: ReturnType<typeof runPipeline>) => envelopes.agile.artifact.epics.flatMap((epic) => epic.user_stories);

describe.each(BUNDLES)("the %s bundle's backlog", (_, files, envelopes) => {
  const stories = storiesOf(envelopes);
  const read = (name: string) => parse(text(files, name), { columns: true, skip_empty_lines: true }) as Record<string, string>[];

  it("Jira: epics and stories under Issue Id / Parent Id, with summary, description and its acceptance criteria, type, priority and story points", () => {
    const rows = read("backlog/jira.csv");
    expect(Object.keys(rows[0]!)).toEqual(["Issue Id", "Parent Id", "Issue Type", "Summary", "Description", "Priority", "Story Points", "Epic Name"]);
    const storyRows = rows.filter((row) => row["Issue Type"] === "Story");
    const epicRows = rows.filter((row) => row["Issue Type"] === "Epic");
    expect(storyRows).toHaveLength(stories.length);
    expect(epicRows.map((row) => row["Issue Id"])).toEqual(envelopes.agile.artifact.epics.map((epic) => epic.id));
    for (const [index, story] of stories.entries()) {
      const row = storyRows[index]!;
      expect(row.Summary).toBe(`${story.id} ${story.title}`);
      for (const criterion of story.acceptance_criteria ?? []) expect(row.Description).toContain(`- ${String(criterion)}`);
      expect(row.Description).toContain("Acceptance criteria:");
      expect(["High", "Medium", "Low"]).toContain(row.Priority);
      expect(Number(row["Story Points"])).toBe(story.story_points);
      expect(epicRows.map((epic) => epic["Issue Id"])).toContain(row["Parent Id"]);
    }
  });

  it("Linear: Title, Description, Priority, Estimate, Labels (the type and the epic), Status", () => {
    const rows = read("backlog/linear.csv");
    expect(Object.keys(rows[0]!)).toEqual(["Title", "Description", "Priority", "Estimate", "Labels", "Status"]);
    expect(rows.map((row) => row.Title)).toEqual(stories.map((story) => `${story.id} ${story.title}`));
    for (const row of rows) {
      expect(row.Labels).toMatch(/^User story, EP-\d+ /);
      expect(Number.isInteger(Number(row.Estimate))).toBe(true);
    }
  });

  it("GitHub: title, body with the acceptance criteria, labels, milestone (the epic)", () => {
    const rows = read("backlog/github.csv");
    expect(Object.keys(rows[0]!)).toEqual(["title", "body", "labels", "milestone"]);
    expect(rows).toHaveLength(stories.length);
    for (const row of rows) {
      expect(row.body).toContain("Acceptance criteria:");
      expect(row.labels).toMatch(/^user story,priority: (high|medium|low)/);
      expect(row.milestone).toMatch(/^EP-\d+ /);
    }
  });
});

describe.each(BUNDLES)("the %s bundle's test cases as Gherkin", (_, files, envelopes) => {
  it("every .feature parses with Cucumber's parser: one Scenario per test case, tagged with its id and story, ending in its expected result", () => {
    const features = Object.keys(files).filter((name) => name.endsWith(".feature"));
    const suites = envelopes.qa.artifact.test_suites;
    expect(features).toHaveLength(suites.length);
    const parser = new Parser(new AstBuilder(IdGenerator.uuid()), new GherkinClassicTokenMatcher());
    const scenarios = features.flatMap((name) => {
      const document = parser.parse(text(files, name));
      expect(document.feature?.name).toMatch(/^TS-\d+ /);
      return (document.feature?.children ?? []).flatMap((child) => (child.scenario ? [child.scenario] : []));
    });
    const cases = suites.flatMap((suite) => suite.test_cases as { id: string; user_story_id: string; expected_result: string; steps: string[] }[]);
    expect(scenarios).toHaveLength(cases.length);
    for (const [index, testCase] of cases.entries()) {
      const scenario = scenarios[index]!;
      // A non-functional case covers no one story.
      expect(scenario.tags.map((tag) => tag.name)).toEqual(expect.arrayContaining([`@${testCase.id}`, ...(testCase.user_story_id ? [`@${testCase.user_story_id}`] : [])]));
      expect(scenario.steps.at(-1)?.keyword.trim()).toBe("Then");
      expect(scenario.steps.at(-1)?.text).toBe(testCase.expected_result.replace(/\s+/g, " ").trim());
      expect(scenario.steps.filter((step) => step.keyword.trim() === "When" || step.keyword.trim() === "And").length).toBeGreaterThanOrEqual(testCase.steps.length);
    }
  });
});

const ddlCases: [string, Record<string, Uint8Array>][] = [
  ...BUNDLES.map(([name, files]): [string, Record<string, Uint8Array>] => [name, files]),
  ["an n8n agent's diagrams", bundleOf(BRIEFS.superApp.domain, BRIEFS.superApp.brief, { diagramacion: N8N_DIAGRAMS })],
];

describe.each(ddlCases)("the %s bundle's schema.sql", (_, files) => {
  const tablesIn = (sql: string) => [...sql.matchAll(/^CREATE TABLE "([^"]+)"/gm)].map((match) => match[1]);

  /** The run's PostgreSQL server when it has one (a scratch database made for this), else an in-memory PGlite. */
  async function freshDatabase(): Promise<{ exec(sql: string): Promise<void>; query<T>(sql: string): Promise<T[]>; close(): Promise<void> }> {
    if (!postgresServerUrl) {
      const database = new PGlite();
      return { exec: async (sql) => void (await database.exec(sql)), query: async <T>(sql: string) => (await database.query<T>(sql)).rows, close: () => database.close() };
    }
    const scratch = await createScratchDatabase(postgresServerUrl);
    const connection = connectPostgres(scratch.url, { max: 1 });
    return {
      exec: async (sql) => void (await connection.unsafe(sql)),
      query: async <T>(sql: string) => (await connection.unsafe(sql)) as unknown as T[],
      close: async () => {
        await connection.end();
        await scratch.drop();
      },
    };
  }

  it("applies to a fresh PostgreSQL database, every table and foreign key with it", async () => {
    const sql = text(files, "schema.sql");
    const database = await freshDatabase();
    try {
      await database.exec(sql);
      const tables = await database.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
      expect(tables.map((row) => row.table_name)).toEqual([...tablesIn(sql)].sort());
      const keys = await database.query<{ count: number }>("SELECT count(*)::int AS count FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY' AND table_schema = 'public'");
      expect(keys[0]?.count).toBe((sql.match(/ADD FOREIGN KEY/g) ?? []).length);
    } finally {
      await database.close();
    }
  });
});

describe("the n8n agent's model in DDL", () => {
  const sql = text(ddlCases.at(-1)![1], "schema.sql");
  it("quotes a reserved word, spells the types as PostgreSQL does, keeps the unknown ones as text with a note, joins N:M", () => {
    expect(sql).toContain('CREATE TABLE "order" (');
    expect(sql).toContain('"placed_at" timestamp');
    expect(sql).toContain('"total" numeric');
    expect(sql).toContain('"code" varchar(20) NOT NULL');
    expect(sql).toContain('CREATE TABLE "order_product_line" (');
    expect(sql).toContain('ALTER TABLE "order" ADD FOREIGN KEY ("customer_id") REFERENCES "customer" ("id");');
    expect(sql).toContain("-- audit.id: added: the model names no primary key");
  });
});

describe("the HTML report", () => {
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it("holds the brief and every step, and draws every diagram (the sequence and the entity-relationship one) in Chromium with the network shut", async () => {
    const files = BUNDLES[0]![1];
    const html = text(files, "report.html");
    expect(html).toContain(BRIEFS.superApp.brief);
    for (const step of STEPS) expect(html).toContain(`${step.name}</a></li>`);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    const page = await browser.newPage();
    const requests: string[] = [];
    await page.route("**/*", (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    await page.setContent(html, { waitUntil: "load" });
    await page.waitForSelector("body[data-diagrams=drawn]", { timeout: 60_000 });
    const diagrams = await page.locator("figure.diagram").count();
    expect(diagrams).toBe(2);
    expect(await page.locator("figure.diagram svg").count()).toBe(diagrams);
    expect(await page.locator("figure.diagram svg[aria-roledescription=sequence]").count()).toBe(1);
    expect(await page.locator("figure.diagram svg[aria-roledescription=er]").count()).toBe(1);
    expect(requests).toEqual([]);
  }, 120_000);

  it("shows an agent's HTML as text and runs none of it", async () => {
    const hostile = runPipeline(BRIEFS.clinic.domain, BRIEFS.clinic.brief);
    const requirements = { ...hostile.requirements, artifact: { ...hostile.requirements.artifact, problem_statement_refined: '<script>document.title="owned"</script><img src=x onerror="document.title=\'owned\'">' } };
    const files = bundleOf(BRIEFS.clinic.domain, BRIEFS.clinic.brief, { requirements });
    const html = text(files, "report.html");
    expect(html).toContain("&lt;script&gt;document.title");
    expect(html).not.toContain('<script>document.title="owned"');
    expect(html).not.toContain("<img src=x");
  });
});
