/** "New workflow": the editor with a small definition to start from, and a reminder of the format beside it. */
import { FormatNotes, NewWorkflowPage as NewPage } from "../../../components/WorkflowPages";
import { navigate, paths } from "../../../lib/router";
import { workflowsDoor } from "../utils/door";
import { WorkflowEditor } from "./WorkflowEditor";
import "../workflows.css";

export const starterYaml = `name: my-workflow
description: Drafts an answer to the run's message and asks a person to approve it.
tags: [example]
nodes:
  - id: draft
    prompt: Draft a short answer to $ARGUMENTS
  - id: review
    depends_on: [draft]
    approval:
      message: "Send this answer? $draft.output"
`;

export function NewWorkflowPage() {
  return (
    <NewPage door={workflowsDoor} intro="Write the definition in YAML. The server checks it as you type and marks each problem at its line; saving registers it under its name.">
      <FormatNotes summary="The format in short">
        <ul>
          <li>
            <code>name</code>, <code>description</code> and <code>nodes</code> are required; <code>tags</code>, <code>provider</code> and <code>model</code> are optional.
          </li>
          <li>
            Each node has an <code>id</code> and exactly one of <code>prompt</code>, <code>command</code>, <code>loop</code>, <code>approval</code>, <code>cancel</code>,{" "}
            <code>bash</code> or <code>script</code> (the last two only where the server allows shell nodes).
          </li>
          <li>
            <code>depends_on</code>, <code>when</code> (e.g. <code>"$draft.output == 'yes'"</code>), <code>trigger_rule</code>, <code>retry</code>, <code>timeout</code> and{" "}
            <code>output_type</code> apply to every kind.
          </li>
          <li>
            Texts may use <code>$ARGUMENTS</code> (the run's message), <code>$id.output</code> and, in an approval's <code>on_reject</code> prompt,{" "}
            <code>$REJECTION_REASON</code>.
          </li>
        </ul>
      </FormatNotes>
      <WorkflowEditor initialYaml={starterYaml} saveLabel="Save workflow" onSaved={(workflow) => navigate(paths.workflows.workflow(workflow.name))} />
    </NewPage>
  );
}
