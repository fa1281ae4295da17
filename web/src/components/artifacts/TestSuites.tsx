/** The QA agent's test suites, each with its test cases: preconditions, numbered steps and the expected result. */
import { isPlainObject, isPrimitive, omit, pick, pickKey, pickString, type Plain } from "./shape";
import { DataView, MetaList, Prose } from "./DataView";
import { PartButton, PartThreads, fieldAnchor, useItemAnchors } from "./parts";

const suiteKeys = ["id", "suite_id", "name", "title", "description", "objective", "test_cases", "cases", "tests", "user_story_ids"];
const caseKeys = ["id", "case_id", "title", "name", "user_story_id", "story_id", "type", "priority", "preconditions", "steps", "expected_result", "expected"];

function Steps({ value }: { value: unknown }) {
  if (Array.isArray(value) && value.every(isPrimitive)) {
    return (
      <ol className="steps">
        {value.map((step, i) => (
          <li key={i}>{String(step)}</li>
        ))}
      </ol>
    );
  }
  return <DataView value={value} label="Steps" />;
}

function TestCase({ testCase, anchor }: { testCase: Plain; anchor: string | undefined }) {
  const id = pickString(testCase, "id", "case_id");
  const title = pickString(testCase, "title", "name");
  const story = pickString(testCase, "user_story_id", "story_id");
  const type = pickString(testCase, "type");
  const priority = pickString(testCase, "priority");
  const preconditions = pick(testCase, "preconditions");
  const steps = pick(testCase, "steps");
  const expected = pick(testCase, "expected_result", "expected");
  const rest = omit(testCase, caseKeys);
  return (
    <li className="story test-case">
      <div className="story-head">
        {id ? <code className="id-chip">{id}</code> : null}
        {title ? <span className="story-title">{title}</span> : null}
        <span className="story-tags">
          {story ? <span className="tag">Story {story}</span> : null}
          {type ? <span className="tag">{type}</span> : null}
          {priority ? <span className="tag">Priority: {priority}</span> : null}
        </span>
        <PartButton anchor={anchor} />
      </div>
      <div className="case-grid">
        {preconditions !== undefined ? (
          <div>
            <span className="mini-label">Preconditions</span>
            <DataView value={preconditions} label="Preconditions" />
          </div>
        ) : null}
        {steps !== undefined ? (
          <div>
            <span className="mini-label">Steps</span>
            <Steps value={steps} />
          </div>
        ) : null}
        {expected !== undefined ? (
          <div>
            <span className="mini-label">Expected result</span>
            <DataView value={expected} label="Expected result" />
          </div>
        ) : null}
      </div>
      {Object.keys(rest).length > 0 ? <MetaList record={rest} /> : null}
      <PartThreads anchor={anchor} />
    </li>
  );
}

const casesKeys = ["test_cases", "cases", "tests"];

function Suite({ suite, index, anchor }: { suite: Plain; index: number; anchor: string | undefined }) {
  const casesKey = pickKey(suite, ...casesKeys);
  const caseAnchors = useItemAnchors(casesKey ? fieldAnchor(anchor, casesKey) : undefined);
  const id = pickString(suite, "id", "suite_id");
  const name = pickString(suite, "name", "title") ?? `Suite ${index + 1}`;
  const description = pickString(suite, "description", "objective");
  const stories = pick(suite, "user_story_ids");
  const cases = pick(suite, ...casesKeys);
  const rest = omit(suite, suiteKeys);
  const caseList = Array.isArray(cases) ? cases : [];
  return (
    <li className="suite sub-card">
      <div className="epic-head">
        {id ? <code className="id-chip">{id}</code> : null}
        <span className="epic-title">{name}</span>
        <span className="muted small">
          {caseList.length} {caseList.length === 1 ? "test case" : "test cases"}
          {Array.isArray(stories) && stories.length > 0 ? ` · covers ${stories.join(", ")}` : ""}
        </span>
        <PartButton anchor={anchor} />
      </div>
      <PartThreads anchor={anchor} />
      {description ? <Prose text={description} /> : null}
      {Object.keys(rest).length > 0 ? <MetaList record={rest} /> : null}
      {caseList.length > 0 ? (
        <ol className="card-list stories">
          {caseList.map((testCase, j) =>
            isPlainObject(testCase) ? (
              <TestCase key={pickString(testCase, "id", "case_id") ?? j} testCase={testCase} anchor={caseAnchors[j]} />
            ) : (
              <li key={j} className="story">
                <DataView value={testCase} />
              </li>
            ),
          )}
        </ol>
      ) : cases !== undefined ? (
        <DataView value={cases} label={`Test cases of ${name}`} />
      ) : null}
    </li>
  );
}

/** `anchor`: the suites' address while they are under review, so each suite and test case carries its comment button. */
export function TestSuites({ value, anchor }: { value: unknown; anchor?: string }) {
  const anchors = useItemAnchors(anchor);
  if (!Array.isArray(value) || !value.every(isPlainObject)) return <DataView value={value} label="Test suites" anchor={anchor} />;
  return (
    <ol className="card-list suites">
      {value.map((suite, i) => <Suite key={pickString(suite, "id", "suite_id") ?? i} suite={suite} index={i} anchor={anchors[i]} />)}
    </ol>
  );
}
