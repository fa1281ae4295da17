/** The tools a step may name, each with its description and params, read from the server's registry. */
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import type { StepTool } from "../../../lib/trpc";
import { useStepTools } from "../api/step-workflows";
import { paramsOf } from "../utils/tools";

function ToolItem({ tool }: { tool: StepTool }) {
  const params = paramsOf(tool.params);
  return (
    <li className="step-tool-item">
      <code className="step-tool-name">{tool.name}</code>
      <span className="step-tool-description">{tool.description}</span>
      <span className="muted small">
        params:{" "}
        {params === null
          ? "any object"
          : params.length === 0
            ? "none"
            : params.map((param, i) => (
                <span key={param.name}>
                  {i > 0 ? ", " : ""}
                  <code>{param.name}</code>
                  {param.required ? "" : "?"}
                </span>
              ))}
      </span>
    </li>
  );
}

export function ToolList() {
  const tools = useStepTools();
  if (tools.isPending) {
    return (
      <p className="muted small">
        <Spinner label="Loading the tools" /> Loading the tools…
      </p>
    );
  }
  if (tools.isError) return <ErrorNotice title="The tools could not be loaded" error={tools.error} />;
  return (
    <ul className="step-tools" aria-label="Tools">
      {tools.data.map((tool) => (
        <ToolItem key={tool.name} tool={tool} />
      ))}
    </ul>
  );
}
