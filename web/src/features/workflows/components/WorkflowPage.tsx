/**
 * One workflow: its description, tags and nodes, "Start run" with a message, its YAML (read-only, or edited into a
 * new version), the warnings it was registered with, and its recent runs.
 */
import { useId, useState } from "react";
import { PageLoadError } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { navigate, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import type { WorkflowDetail } from "../../../lib/trpc";
import { useWorkflow } from "../api/workflows";
import { LazyYamlEditor } from "./LazyYamlEditor";
import { ProblemList } from "./ProblemList";
import { StartRunForm } from "./StartRunForm";
import { WorkflowEditor } from "./WorkflowEditor";
import { Tags, WorkflowsCrumb } from "./WorkflowParts";
import { WorkflowRunsTable } from "./WorkflowRunsTable";
import "../workflows.css";

export function WorkflowPage({ name }: { name: string }) {
  const workflow = useWorkflow(name);
  if (workflow.data) return <WorkflowBody workflow={workflow.data} />;
  if (workflow.isError) {
    return <PageLoadError permanent="This workflow could not be opened" transient="The workflow could not be loaded" error={workflow.error} onRetry={() => void workflow.refetch()} />;
  }
  return (
    <div className="page-pad">
      <Spinner label="Loading the workflow" size="md" />
    </div>
  );
}

function WorkflowBody({ workflow }: { workflow: WorkflowDetail }) {
  const [editing, setEditing] = useState(false);
  // Saving an edit registers a new version, which operators do.
  const operator = useCan("operator");
  const yamlLabelId = useId();
  const versions = workflow.versions.length;
  return (
    <div className="page-pad workflows-page">
      <header className="run-header">
        <WorkflowsCrumb />
        <div className="run-title-row">
          <h1 className="run-title">{workflow.name}</h1>
          <span className="version-badge" title={`Version ${workflow.version}, the latest`}>
            v{workflow.version}
          </span>
          <Tags tags={workflow.tags} />
        </div>
        <p className="workflow-description">{workflow.description}</p>
        <p className="run-sub muted small">
          Version {workflow.version} registered {formatDateTime(workflow.created_at)} · {versions} version{versions === 1 ? "" : "s"}
        </p>
        <ul className="node-chips" aria-label="Nodes">
          {workflow.nodes.map((node) => (
            <li key={node.id} className="node-chip" title={node.depends_on.length ? `after ${node.depends_on.join(", ")}` : "runs first"}>
              <code>{node.id}</code> <span className="muted">{node.kind}</span>
            </li>
          ))}
        </ul>
      </header>

      <StartRunForm name={workflow.name} version={workflow.version} />

      <section className="page-section" aria-labelledby={`${yamlLabelId}-section`}>
        <div className="section-head">
          <h2 id={`${yamlLabelId}-section`} className="section-title">
            Definition
          </h2>
          {editing || !operator ? null : (
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
        </div>
        {editing ? (
          <WorkflowEditor
            key={workflow.version}
            initialYaml={workflow.source}
            saveLabel="Save new version"
            onDiscard={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              if (saved.name !== workflow.name) navigate(paths.workflows.workflow(saved.name));
            }}
          />
        ) : (
          <>
            <p id={yamlLabelId} className="visually-hidden">
              Workflow YAML, version {workflow.version} (read-only)
            </p>
            <LazyYamlEditor value={workflow.source} readOnly labelledBy={yamlLabelId} />
            <ProblemList problems={[]} warnings={workflow.warnings} />
          </>
        )}
      </section>

      <section className="page-section" aria-labelledby="workflow-runs-title">
        <h2 id="workflow-runs-title" className="section-title">
          Recent runs
        </h2>
        <WorkflowRunsTable workflow={workflow.name} />
      </section>
    </div>
  );
}
