/**
 * How the QA agent revises its test plan after a reviewer's feedback: comments add a step or a precondition to a
 * test case; general feedback adds cases (to the suite of the story named, or the one the words fit), removes
 * cases (a suite left empty goes too) or rewords them. A revision never leaves the plan without a case. The
 * first draft is in ../drafts/qa.ts.
 */
import type { EnvelopeOf, QaArtifact, TestCase } from "../../artifacts";
import { type PartRules, applySplitRequest, commentedRevision, generalDirectives, revisionEnvelope } from "../comments";
import { type Directive, itemMatches, mentions } from "../feedback";
import { type AgentRequest, AgentInputError, previousArtifact } from "../request";
import { itemId, nextNumber, padId } from "../text/items";
import { overlap } from "../text/keywords";
import { lowerFirst, sentenceCase, shorten } from "../text/normalize";
import { isQualityText } from "../text/quality";
import { copyOf, label, recordNote, renameMatching } from "./shared";

function caseType(text: string): string {
  if (/\b(invalid|error|fail\w*|negative|reject\w*|expired|declin\w*|wrong|missing)\b/i.test(text)) return "negative";
  if (/\b(role|permission|unauthori[sz]ed|forbidden|security|injection|xss|csrf)\b/i.test(text)) return "security";
  if (isQualityText(text)) return "non-functional";
  return "functional";
}

const CASE_ITEM = /^test_suites\[[^\]]+\]\.test_cases\[[^\]]+\]$/;

/** A test case takes a precondition or a step; the last case of the plan stays. */
const QA_RULES: PartRules<QaArtifact> = {
  addToItem: (item, directive) => {
    const field = mentions(directive, /\b(precondition|given|set[- ]?up)\b/i) ? "preconditions" : "steps";
    const list: unknown = item[field];
    if (!Array.isArray(list)) return { refused: `it has no ${field}` };
    const entry = sentenceCase(directive.subject);
    return { value: { ...item, [field]: [...list, entry] }, did: `added the ${field === "steps" ? "step" : "precondition"} "${entry}"` };
  },
  keepItem: (artifact, part) =>
    CASE_ITEM.test(part.anchor) && artifact.test_suites.flatMap((suite) => suite.test_cases).length <= 1
      ? "it is the only test case, and the plan needs one"
      : undefined,
};

export function reviseQa(request: AgentRequest): EnvelopeOf<"qa"> {
  const revision = commentedRevision(copyOf(previousArtifact(request, "qa")), request, QA_RULES);
  const { artifact, changes, outcomes } = revision;
  const allCases = () => artifact.test_suites.flatMap((suite) => suite.test_cases);

  const addCase = (directive: Directive) => {
    const storyId = directive.ids.find((id) => id.startsWith("US-"));
    const subject = directive.subject.replace(/\b(?:US|TC|FR)-\d+\b:?\s*/gi, "").trim() || directive.sentence;
    let suite =
      (storyId ? artifact.test_suites.find((candidate) => candidate.user_story_ids?.includes(storyId) || candidate.test_cases.some((testCase) => (testCase as TestCase).user_story_id === storyId)) : undefined) ??
      artifact.test_suites
        .map((candidate) => ({ candidate, score: overlap(subject, `${candidate.name} ${candidate.description ?? ""}`) }))
        .filter((entry) => entry.score >= 0.5)
        .sort((a, b) => b.score - a.score)[0]?.candidate;
    if (!suite) {
      suite = artifact.test_suites.find((candidate) => candidate.name === "Reviewer-requested cases");
      if (!suite) {
        suite = { id: padId("TS", nextNumber(artifact.test_suites.map((candidate) => candidate.id ?? ""), "TS"), 2), name: "Reviewer-requested cases", description: "Cases added at review.", user_story_ids: [], test_cases: [] };
        artifact.test_suites.push(suite);
        changes.added.push(`test_suites: ${suite.id} "Reviewer-requested cases"`);
      }
    }
    const testCase: TestCase = {
      id: padId("TC", nextNumber(allCases().map((item) => itemId(item) ?? ""), "TC")),
      title: sentenceCase(shorten(subject, 12)),
      ...(storyId ? { user_story_id: storyId } : {}),
      type: caseType(directive.sentence),
      priority: "Medium",
      preconditions: [storyId ? `The preconditions of ${storyId} hold` : "A staging environment with test data"],
      steps: [`Set up the situation: ${lowerFirst(subject)}`, "Perform the action under test", "Observe the outcome"],
      expected_result: `The product handles it as the reviewer asked: ${lowerFirst(subject).replace(/\.?$/, ".")}`,
      source: "reviewer feedback",
    };
    suite.test_cases.push(testCase);
    changes.added.push(`test_cases: ${testCase.id} "${testCase.title}" in ${suite.id ?? suite.name}`);
    outcomes.push(`Added ${testCase.id} "${testCase.title}" (${testCase.type}) to "${suite.name}".`);
  };

  for (const directive of generalDirectives(request)) {
    if (directive.kind === "note") {
      recordNote(artifact, directive, changes, outcomes);
    } else if (directive.kind === "split") {
      applySplitRequest(revision, directive, QA_RULES, CASE_ITEM, "test case");
    } else if (directive.kind === "add") {
      addCase(directive);
    } else if (directive.kind === "remove") {
      const removed: string[] = [];
      for (const suite of artifact.test_suites) {
        const kept = suite.test_cases.filter((testCase) => {
          const storyOf = typeof testCase === "object" && testCase ? (testCase as TestCase).user_story_id?.toUpperCase() : undefined;
          const matches = itemMatches(testCase, directive) || (storyOf !== undefined && directive.ids.includes(storyOf));
          if (matches) removed.push(`test_cases: ${label(testCase)}`);
          return !matches;
        });
        suite.test_cases = kept;
      }
      const emptied = artifact.test_suites.filter((suite) => suite.test_cases.length === 0);
      artifact.test_suites = artifact.test_suites.filter((suite) => suite.test_cases.length > 0);
      removed.push(...emptied.map((suite) => `test_suites: ${label(suite)} (no cases left)`));
      if (removed.length > 0) {
        changes.removed.push(...removed);
        outcomes.push(`Removed ${removed.join(", ")}.`);
      } else {
        outcomes.push(`No test case matched "${directive.subject}", so nothing was removed.`);
      }
    } else {
      const renamed = artifact.test_suites.flatMap((suite) => renameMatching(suite.test_cases, directive).map((line) => `test_cases: ${line}`));
      if (renamed.length > 0) {
        changes.modified.push(...renamed);
        outcomes.push(`Changed ${renamed.join(", ")}.`);
      } else {
        addCase({ ...directive, kind: "add", subject: directive.replacement ?? directive.subject });
        outcomes.push(`Nothing matched "${directive.subject}", so a case for "${directive.replacement}" was added instead.`);
      }
    }
  }
  // A suite whose last case a comment removed goes too.
  const emptied = artifact.test_suites.filter((suite) => suite.test_cases.length === 0);
  if (emptied.length > 0) {
    artifact.test_suites = artifact.test_suites.filter((suite) => suite.test_cases.length > 0);
    changes.removed.push(...emptied.map((suite) => `test_suites: ${label(suite)} (no cases left)`));
  }
  if (artifact.test_suites.length === 0) {
    throw new AgentInputError("qa: the feedback removes every test case; a QA artifact needs at least one suite with a case, so say which cases to keep");
  }
  return revisionEnvelope("test plan", request, revision);
}
