/**
 * The test cases as Gherkin, one `.feature` file per test suite, for Cucumber, SpecFlow, Behave and the test managers
 * that import features (Xray, Zephyr). A test case is a Scenario: its preconditions the Given steps, its steps the
 * When steps, its expected result the Then step; its id, user story, type and priority are tags.
 *
 * What must hold: every file parses with the Cucumber project's own parser. So every text is put on one line, a
 * step's own leading keyword ("Given I am signed in") is not repeated, a tag carries no whitespace, and a line of the
 * feature's description never begins with a keyword or a comment sign.
 */
import { z } from "zod";

const TestCase = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  user_story_id: z.string().optional(),
  type: z.string().optional(),
  priority: z.string().optional(),
  preconditions: z.array(z.unknown()).optional(),
  steps: z.array(z.unknown()).optional(),
  expected_result: z.unknown().optional(),
});
const Suite = z.looseObject({ id: z.string().optional(), name: z.string().optional(), description: z.string().optional(), test_cases: z.array(z.unknown()) });
const QaArtifact = z.looseObject({ test_suites: z.array(Suite) });

export interface FeatureFile {
  /** "features/TS-01-ordering-and-commerce.feature" */
  file: string;
  text: string;
}

const oneLine = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value ?? "")).replace(/\s+/g, " ").trim();

const KEYWORD = /^(?:given|when|then|and|but)\b[\s,:]*/i;

/** A step's text without a keyword of its own, and never empty (the parser needs text after the keyword). */
function stepText(value: unknown): string {
  const line = oneLine(value).replace(KEYWORD, "");
  return line === "" ? "nothing further" : line;
}

const tag = (value: string) => `@${value.trim().replace(/\s+/g, "-").replace(/[@#]/g, "")}`;

const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "suite";

/** A free-text line under the Feature: one that a keyword or "#" would begin is said as a sentence of its own. */
function descriptionLine(value: string): string {
  const line = oneLine(value);
  return /^(?:#|@|\||"""|```|(?:feature|rule|background|scenario|scenario outline|scenario template|example|examples|scenarios|given|when|then|and|but)\b)/i.test(line) ? `Note: ${line}` : line;
}

function scenario(value: unknown, index: number): string[] {
  const parsed = TestCase.safeParse(value);
  if (!parsed.success) return [`  Scenario: Test case ${index + 1}`, `    Then ${stepText(value)}`, ""];
  const testCase = parsed.data;
  const tags = [testCase.id, testCase.user_story_id, testCase.type, testCase.priority ? `priority-${testCase.priority.toLowerCase()}` : undefined]
    .filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "")
    .map(tag);
  const keyed = (keyword: string, items: readonly unknown[]) => items.map((item, at) => `    ${at === 0 ? keyword : "And"} ${stepText(item)}`);
  const name = oneLine([testCase.id, testCase.title].filter(Boolean).join(" ")) || `Test case ${index + 1}`;
  return [
    ...(tags.length > 0 ? [`  ${tags.join(" ")}`] : []),
    `  Scenario: ${name}`,
    ...keyed("Given", testCase.preconditions ?? []),
    ...keyed("When", testCase.steps ?? []),
    `    Then ${stepText(testCase.expected_result ?? "the expected result is reached")}`,
    "",
  ];
}

/** One feature per test suite; none when the artifact is not shaped as test suites. */
export function featureFiles(artifact: unknown): FeatureFile[] {
  const parsed = QaArtifact.safeParse(artifact);
  if (!parsed.success) return [];
  const used = new Set<string>();
  return parsed.data.test_suites.map((suite, index) => {
    const id = suite.id ?? `TS-${String(index + 1).padStart(2, "0")}`;
    const name = oneLine(suite.name ?? `Suite ${index + 1}`);
    let file = `features/${slug(`${id}-${name}`)}.feature`;
    for (let n = 2; used.has(file); n++) file = `features/${slug(`${id}-${name}`)}-${n}.feature`;
    used.add(file);
    const lines = [
      `Feature: ${id} ${name}`,
      ...(suite.description ? [`  ${descriptionLine(suite.description)}`] : []),
      "",
      ...suite.test_cases.flatMap((testCase, at) => scenario(testCase, at)),
    ];
    return { file, text: `${lines.join("\n").trimEnd()}\n` };
  });
}
