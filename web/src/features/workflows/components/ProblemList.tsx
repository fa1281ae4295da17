/**
 * A definition's check: a line saying where it stands (checking, no problems, how many problems and warnings), and
 * the problems and warnings themselves, "line 4, column 5: ...", each a button that puts the cursor on its place.
 */
import { type ReactNode, useId } from "react";
import { Spinner } from "../../../components/Spinner";
import { errorMessage } from "../../../lib/errors";
import type { WorkflowIssue } from "../../../lib/trpc";
import type { CheckStatus } from "../api/validate-workflow";
import { countIssues, describeIssue } from "../utils/issues";

export function CheckSummary({ id, status, problems, warnings, error }: { id?: string; status: CheckStatus; problems: number; warnings: number; error: unknown }) {
  let text: ReactNode;
  if (status === "empty") text = "Write a definition to check it.";
  else if (status === "checking") text = (<><Spinner /> Checking…</>);
  else if (status === "unchecked") text = `The definition could not be checked: ${errorMessage(error)}`;
  else if (status === "valid") text = warnings > 0 ? `No problems; ${countIssues(0, warnings)}.` : "No problems: the workflow can be saved.";
  else text = `${countIssues(problems, warnings)}, each marked at its line.`;
  return (
    <p id={id} className={`check-summary check-${status}`} role="status">
      {text}
    </p>
  );
}

export function ProblemList({ problems, warnings, onSelect }: { problems: readonly WorkflowIssue[]; warnings: readonly WorkflowIssue[]; onSelect?(issue: WorkflowIssue): void }) {
  if (problems.length === 0 && warnings.length === 0) return null;
  return (
    <div className="issue-lists">
      {problems.length > 0 ? <IssueList title="Problems" tone="error" issues={problems} onSelect={onSelect} /> : null}
      {warnings.length > 0 ? <IssueList title="Warnings" tone="warning" issues={warnings} onSelect={onSelect} /> : null}
    </div>
  );
}

function IssueList({ title, tone, issues, onSelect }: { title: string; tone: "error" | "warning"; issues: readonly WorkflowIssue[]; onSelect?(issue: WorkflowIssue): void }) {
  const titleId = useId();
  return (
    <section className={`issue-list issue-${tone}`} aria-labelledby={titleId}>
      <h3 id={titleId} className="issue-title">
        {title} ({issues.length})
      </h3>
      <ul>
        {issues.map((issue, i) => (
          <li key={`${issue.line}:${issue.column}:${i}`}>
            {onSelect ? (
              <button type="button" className="issue-text" title="Show it in the editor" onClick={() => onSelect(issue)}>
                {describeIssue(issue)}
              </button>
            ) : (
              <span className="issue-text">{describeIssue(issue)}</span>
            )}
            {issue.path ? <code className="issue-path">{issue.path}</code> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
