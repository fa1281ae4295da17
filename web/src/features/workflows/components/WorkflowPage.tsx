/**
 * One workflow: its description, tags and nodes, "Start run" with a message, its YAML (read-only, or edited into a
 * new version), the warnings it was registered with, and its recent runs.
 */
import { useId } from "react";
import { QueryPage } from "../../../components/QueryPage";
import { DefinitionSection, PageSection, WorkflowHeader } from "../../../components/WorkflowPages";
import type { WorkflowDetail } from "../../../lib/trpc";
import { useWorkflow } from "../api/workflows";
import { workflowsDoor } from "../utils/door";
import { LazyYamlEditor } from "./LazyYamlEditor";
import { ProblemList } from "./ProblemList";
import { StartRunForm } from "./StartRunForm";
import { Tags } from "./Tags";
import { WorkflowEditor } from "./WorkflowEditor";
import { WorkflowRunsTable } from "./WorkflowRunsTable";
import "../workflows.css";

export function WorkflowPage({ name }: { name: string }) {
  return (
    <QueryPage query={useWorkflow(name)} what="workflow">
      {(workflow) => <WorkflowBody workflow={workflow} />}
    </QueryPage>
  );
}

function WorkflowBody({ workflow }: { workflow: WorkflowDetail }) {
  const yamlLabelId = useId();
  return (
    <div className="page-pad workflows-page">
      <WorkflowHeader door={workflowsDoor} workflow={workflow} badges={<Tags tags={workflow.tags} />} about={<p className="workflow-description">{workflow.description}</p>}>
        <ul className="node-chips" aria-label="Nodes">
          {workflow.nodes.map((node) => (
            <li key={node.id} className="node-chip" title={node.depends_on.length ? `after ${node.depends_on.join(", ")}` : "runs first"}>
              <code>{node.id}</code> <span className="muted">{node.kind}</span>
            </li>
          ))}
        </ul>
      </WorkflowHeader>

      <StartRunForm name={workflow.name} version={workflow.version} />

      <DefinitionSection
        door={workflowsDoor}
        name={workflow.name}
        editLabel="Edit"
        editor={(done) => <WorkflowEditor key={workflow.version} initialYaml={workflow.source} saveLabel="Save new version" {...done} />}
      >
        <p id={yamlLabelId} className="visually-hidden">
          Workflow YAML, version {workflow.version} (read-only)
        </p>
        <LazyYamlEditor value={workflow.source} readOnly labelledBy={yamlLabelId} />
        <ProblemList problems={[]} warnings={workflow.warnings} />
      </DefinitionSection>

      <PageSection title="Recent runs">
        <WorkflowRunsTable workflow={workflow.name} />
      </PageSection>
    </div>
  );
}
