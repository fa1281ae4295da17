/** The six agents a brief goes through, so an analyst knows what they are starting. */
import { AgentAvatar } from "../../../components/AgentAvatar";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { useAgents } from "../api/list-agents";
import "../agents.css";

const blurbs: Record<string, string> = {
  requirements: "Refines the problem, domains, capabilities, dependencies and assumptions.",
  inception: "Vision, scope, stakeholders, architecture, requirements and risks.",
  agile: "Epics and user stories with acceptance criteria.",
  diagramacion: "Entity-relationship model and a sequence diagram.",
  pseudocodigo: "Pseudocode for every user story.",
  qa: "Test suites with test cases for the stories.",
};

export function PipelineOverview() {
  const agents = useAgents();
  if (agents.isError) return <ErrorNotice title="The pipeline's agents could not be loaded" error={agents.error} />;
  return (
    <section className="pipeline-overview" aria-labelledby="pipeline-overview-title">
      <h2 id="pipeline-overview-title" className="section-title">What happens next</h2>
      <ol className="agent-list">
        {agents.isPending
          ? Array.from({ length: 6 }, (_, i) => (
              <li key={i} className="agent-item skeleton-row">
                <span className="skeleton skeleton-dot" />
                <span className="skeleton skeleton-line" />
              </li>
            ))
          : agents.data.map((agent) => (
              <li key={agent.slug} className="agent-item">
                <AgentAvatar agent={agent} />
                <div>
                  <div className="agent-name">{agent.name}</div>
                  <div className="muted small">{blurbs[agent.slug] ?? `Produces the ${agent.artifact_type} artifact.`}</div>
                </div>
              </li>
            ))}
      </ol>
      <p className="muted small">You review each output before the next agent starts: approve it, or send it back with feedback.</p>
    </section>
  );
}
