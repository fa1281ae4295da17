/** "New step workflow": a definition to start from, the format in short, the tools the server has, and the editor. */
import { FormatNotes, NewWorkflowPage } from "../../../components/WorkflowPages";
import { navigate, paths } from "../../../lib/router";
import { stepsDoor } from "../utils/door";
import { DefinitionEditor } from "./DefinitionEditor";
import { ToolList } from "./ToolList";
import "../step-workflows.css";

export const starterDefinition = `${JSON.stringify(
  {
    id: "my-step-workflow",
    name: "Greeting",
    version: "1.0.0",
    inputs: [
      { name: "who", type: "string" },
      { name: "pause_ms", type: "number", optional: true },
    ],
    steps: [
      { id: "greet", tool: "utils.echo", params: { text: "Hello, {{inputs.who}}!" } },
      { id: "pause", tool: "utils.delay", params: { ms: 200 } },
      { id: "report", tool: "utils.echo", params: { greeting: "{{greet.text}}", waited: "{{pause.output.ms}}" } },
    ],
    outputs: { greeting: "{{report.greeting}}", waited_ms: "{{pause.ms}}" },
  },
  null,
  2,
)}\n`;

export function NewStepWorkflowPage() {
  return (
    <NewWorkflowPage door={stepsDoor} intro="Paste or write the definition as JSON. The server checks it and names every problem at its JSON path; registering stores it under its id.">
      <FormatNotes summary="The format in short">
        <ul>
          <li>
            <code>id</code> and <code>steps</code> (at least one) are required; <code>name</code>, <code>version</code> and <code>description</code> are free text.
          </li>
          <li>
            <code>inputs</code>: <code>{"{ name, type, optional? }"}</code> with type <code>string</code>, <code>number</code>, <code>boolean</code>, <code>object</code> or{" "}
            <code>array</code>; the run's form is made of them.
          </li>
          <li>
            Each step: <code>{"{ id, tool, params?, retries?, depends_on?, timeout_ms? }"}</code>. Steps run in the order written unless a step names{" "}
            <code>depends_on</code>; a failed step skips what depends on it.
          </li>
          <li>
            Templates in params and <code>outputs</code>: <code>{"{{inputs.name}}"}</code>, <code>{"{{step_id.output}}"}</code>, <code>{"{{step_id.output.a.b}}"}</code>,{" "}
            <code>{"{{step_id.field}}"}</code>. A string that is one template keeps the value's type.
          </li>
        </ul>
      </FormatNotes>
      <FormatNotes summary="Tools">
        <ToolList />
      </FormatNotes>
      <DefinitionEditor initialText={starterDefinition} saveLabel="Register workflow" onSaved={(workflow) => navigate(paths.steps.workflow(workflow.name))} />
    </NewWorkflowPage>
  );
}
