/**
 * The QA agent: one test suite per epic with test cases (TC-001, ...) for every user story: the success
 * path and invalid input from its acceptance criteria, one case per external service it depends on, a role
 * check where its pseudocode requires one; and a suite for the non-functional requirements. Its revision after a
 * reviewer's feedback is in ../revisions/qa.ts.
 */
import type { EnvelopeOf, QaArtifact, TestCase, TestSuite } from "../../artifacts";
import { type AgentRequest, contextArtifact } from "../request";
import { padId } from "../text/items";
import { count, joinList } from "../text/lists";
import { lowerFirst, sentenceCase, shorten } from "../text/normalize";
import { withArticle } from "../text/nouns";
import { oneOf } from "../text/objects";
import { isQualityText } from "../text/quality";
import { serviceReference } from "../text/services";
import { deliveredBy, thirdPerson } from "../text/verbs";
import { type Changes, type StoryFact, envelope, operationOf, plural, serviceFacts, servicesFor, storyFacts, storyObject } from "./shared";
import { isPlainObject } from "../../../lib/json";

const PRIORITY_OF_STORY: Record<string, string> = { Must: "High", Should: "Medium", Could: "Low", "Won't": "Low" };

/**
 * The outcome part of a Given/When/Then criterion, as an expected result a tester checks: told about the
 * role, not by it ("I see a confirmation" -> "the rider sees a confirmation").
 */
function thenPart(criterion: string | undefined, role: string): string | undefined {
  const match = criterion ? /\bthen\s+(.+)$/i.exec(criterion) : null;
  if (!match?.[1]) return undefined;
  // The first mention names the role; later ones are pronouns ("reaches the patient and they can see it in their account").
  let named = false;
  const outcome = match[1].replace(/\bI (\w+)\b|\bme\b|\bmy\b/g, (pronoun: string, verb: string | undefined) => {
    if (pronoun === "my") return "their";
    const first = !named;
    named = true;
    if (verb === undefined) return first ? `the ${role.toLowerCase()}` : "them";
    const who = first ? `the ${role.toLowerCase()}` : "they";
    if (verb === "am") return `${who} ${first ? "is" : "are"}`;
    return `${who} ${first && !/^(can|could|will|would|must|should|may|might)$/.test(verb) ? thirdPerson(verb) : verb}`;
  });
  return `${sentenceCase(outcome)}.`;
}

function pseudocodeOf(pseudocode: unknown, storyId: string): string {
  if (isPlainObject(pseudocode)) {
    const value = pseudocode[storyId];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.join("\n");
  }
  if (Array.isArray(pseudocode)) {
    const entry = pseudocode.find((candidate) => candidate && typeof candidate === "object" && [candidate.user_story_id, candidate.story_id, candidate.id].includes(storyId));
    if (entry && typeof entry.pseudocode === "string") return entry.pseudocode;
  }
  return "";
}

type CaseDraft = {
  title: string;
  user_story_id?: string;
  requirement_id?: string;
  type: string;
  priority: string;
  preconditions: string[];
  steps: string[];
  expected_result: string;
};

function casesForStory(story: StoryFact, serviceNames: string[], code: string): CaseDraft[] {
  const object = storyObject(story);
  const priority = PRIORITY_OF_STORY[story.priority] ?? "Medium";
  const person = story.kind === "person";
  const reads = operationOf(story.action) === "read";
  // "get paid weekly" is done to the person: the test makes it fall due instead of having them act.
  const receives = person && deliveredBy(story.action) !== undefined;
  const given = receives
    ? [`${sentenceCase(withArticle(story.role.toLowerCase()))} with complete account details`]
    : person
      ? [`Signed in as ${withArticle(story.role.toLowerCase())}`]
      : [`The conditions of ${story.id} hold`];
  const act = receives
    ? `Make ${withArticle(object)} due for this ${story.role.toLowerCase()}`
    : person
      ? reads
        ? sentenceCase(story.action.replace(/\bmy\b/g, "the"))
        : `${sentenceCase(oneOf(story.action).replace(/\bmy\b/g, "the"))} with valid details`
      : story.kind === "system" ? `Trigger the system to ${lowerFirst(story.action)}` : `Process ${withArticle(object)} covered by ${story.id}`;
  const negative = story.criteria.find((criterion) => /invalid|incomplete|another/i.test(criterion));
  const cases: CaseDraft[] = [
    {
      title: `${story.title}: ${reads ? "shows the expected data" : "succeeds with valid input"}`,
      user_story_id: story.id,
      type: "functional",
      priority,
      preconditions: [...given, ...serviceNames.map((name) => `${name} test environment reachable`)],
      steps: receives
        ? [act, "Let the scheduled run process it", `Open the ${object} list`]
        : person
          ? reads
            ? [`Open the ${object} list`, sentenceCase(story.action), "Inspect what is shown"]
            : [`Open the ${object} screen`, act, "Submit"]
          : [act, "Inspect the stored outcome"],
      expected_result: thenPart(story.criteria[0], story.role) ?? `The ${object} is saved and confirmed.`,
    },
    {
      title: `${story.title}: ${receives ? `held while account details are missing` : person && reads ? `hides another ${story.role.toLowerCase()}'s data` : "rejects incomplete input"}`,
      user_story_id: story.id,
      type: person && reads ? "security" : "negative",
      priority,
      preconditions: person && reads ? [...given, `${sentenceCase(plural(object))} owned by another ${story.role.toLowerCase()} exist`] : given,
      steps: receives
        ? [`Remove the delivery details from this ${story.role.toLowerCase()}'s account`, act, "Let the scheduled run process it"]
        : person
        ? reads
          ? [`Open the ${object} list`, sentenceCase(story.action), "Look for the other account's data"]
          : [`Open the ${object} screen`, "Leave a required field empty", "Submit"]
        : ["Provide incomplete data", act],
      expected_result: thenPart(negative, story.role) ?? "The input is rejected with a message per invalid field and nothing is saved.",
    },
    ...serviceNames.map((name) => ({
      title: `${story.title}: ${name} unavailable`,
      user_story_id: story.id,
      type: "integration",
      priority,
      preconditions: [...given, `${name} test environment configured to fail`],
      steps: [act, "Observe the answer", "Retry once the service is back"],
      expected_result:
        thenPart(
          story.criteria.find((criterion) => criterion.startsWith(`Given ${serviceReference(name)} is unavailable`) || criterion.startsWith(`Given ${name} is unavailable`)),
          story.role,
        ) ??
        `The failure is reported, nothing is saved, and the retry does not duplicate the ${object}.`,
    })),
  ];
  // The pseudocode's role check is behaviour worth a test of its own.
  if (/\bREQUIRE\b.*\brole\b/i.test(code)) {
    cases.push({
      title: `${story.title}: refused without the ${story.role.toLowerCase()} role`,
      user_story_id: story.id,
      type: "security",
      priority: "High",
      preconditions: ["Signed in with a different role"],
      steps: [act, "Submit"],
      expected_result: "The request is refused with 403 and nothing changes.",
    });
  }
  return cases;
}

export function draftQa(request: AgentRequest): EnvelopeOf<"qa"> {
  const requirements = contextArtifact(request, "requirements", "qa");
  const inception = contextArtifact(request, "inception", "qa");
  const agile = contextArtifact(request, "agile", "qa");
  contextArtifact(request, "diagramacion", "qa");
  const pseudocodigo = contextArtifact(request, "pseudocodigo", "qa");
  const stories = storyFacts(agile);
  const services = serviceFacts(requirements);

  let caseNumber = 0;
  const numbered = (drafts: CaseDraft[]): TestCase[] => drafts.map((draft) => ({ id: padId("TC", ++caseNumber), ...draft }));
  const epics = [...new Map(stories.map((story) => [story.epicId, story.epicTitle])).entries()];
  const suites: TestSuite[] = epics.map(([epicId, epicTitle], index) => {
    const members = stories.filter((story) => story.epicId === epicId);
    return {
      id: padId("TS", index + 1, 2),
      name: epicTitle,
      description: `Covers ${joinList(members.map((story) => story.id))} of epic ${epicId}.`,
      user_story_ids: members.map((story) => story.id),
      test_cases: members.flatMap((story) =>
        numbered(casesForStory(story, servicesFor(story.text, services).map((service) => service.name), pseudocodeOf(pseudocodigo.user_story_pseudocode, story.id))),
      ),
    };
  });
  const nonFunctional = inception.non_functional_requirements;
  if (nonFunctional.length > 0) {
    suites.push({
      id: padId("TS", suites.length + 1, 2),
      name: "Non-functional requirements",
      description: `Covers ${joinList(nonFunctional.map((requirement) => requirement.id))}.`,
      user_story_ids: [],
      test_cases: numbered(
        nonFunctional.map((requirement) => ({
          title: `${requirement.id} ${requirement.title}: ${lowerFirst(shorten(requirement.description.replace(/\.$/, ""), 16))}`,
          type: "non-functional",
          priority: /security|compliance|privacy/i.test(requirement.title) ? "High" : "Medium",
          requirement_id: requirement.id,
          preconditions: [isQualityText(requirement.description) ? "A production-like environment with monitoring" : "A staging environment"],
          steps: [`Set up the conditions ${requirement.id} describes`, `Measure or inspect: ${lowerFirst(requirement.description.replace(/\.$/, ""))}`, "Record the evidence"],
          expected_result: requirement.description,
        })),
      ),
    });
  }

  const allCases = suites.flatMap((suite) => suite.test_cases as TestCase[]);
  const coverage = stories.map((story) => ({ user_story_id: story.id, test_case_ids: allCases.filter((testCase) => testCase.user_story_id === story.id).map((testCase) => testCase.id) }));
  const artifact: QaArtifact = { test_suites: suites, coverage };
  const changes: Changes = {
    added: [...suites.map((suite) => `test_suites: ${suite.id} "${suite.name}" (${suite.test_cases.length} cases)`), ...allCases.map((testCase) => `test_cases: ${testCase.id} "${testCase.title}"`)],
    removed: [],
    modified: [],
  };
  const justification =
    `${count(allCases.length, "test case")} (${allCases[0]?.id} to ${allCases[allCases.length - 1]?.id}) in ${count(suites.length, "suite")}, one per epic${nonFunctional.length > 0 ? " plus one for the non-functional requirements" : ""}. ` +
    `Each of the ${count(stories.length, "user story", "user stories")} has a success case and an invalid-input case taken from its acceptance criteria, ` +
    "an integration case per external service it depends on, and a role check where its pseudocode requires one; coverage lists the cases per story.";
  return envelope(artifact, changes, justification);
}
