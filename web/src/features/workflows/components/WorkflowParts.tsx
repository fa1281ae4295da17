/** Small pieces the workflow pages share: "New workflow" (for operators), a workflow's tags, and the way back to the list. */
import { Link, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";

export function NewWorkflowLink() {
  if (!useCan("operator")) return null;
  return (
    <Link to={paths.workflows.create()} className="button button-primary button-small">
      <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      New workflow
    </Link>
  );
}

export function Tags({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="workflow-tags" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="tag">
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** Above a workflow page's title: the way back to the list. */
export function WorkflowsCrumb() {
  return (
    <p className="breadcrumb small">
      <Link to={paths.workflows.list()}>Workflows</Link> /
    </p>
  );
}
