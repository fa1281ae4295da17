/** The reviewer reads each agent's output rendered, not as JSON: one test per artifact shape of the six agents. */
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agileArtifact, diagramArtifact, inceptionArtifact, pseudocodeArtifact, qaArtifact, requirementsArtifact } from "../../testing/fixtures";
import { ArtifactView } from "./ArtifactView";

afterEach(cleanup);

const columnHeaders = (table: HTMLElement) => within(table).getAllByRole("columnheader").map((th) => th.textContent);

describe("ArtifactView", () => {
  it("renders requirements: the problem statement as prose, domains as chips, capabilities as a table, the rest as lists", () => {
    render(<ArtifactView artifactType="requirements" artifact={requirementsArtifact} />);
    expect(screen.getByRole("heading", { name: "Problem statement" })).toBeTruthy();
    expect(screen.getByText(requirementsArtifact.problem_statement_refined).tagName).toBe("P");
    expect(screen.getByText("mobility").className).toContain("chip");
    const capabilities = screen.getByRole("table", { name: "Core capabilities" });
    expect(columnHeaders(capabilities)).toEqual(["ID", "Name", "Description", "Actor"]);
    expect(within(capabilities).getByText("Pay in app")).toBeTruthy();
    expect(screen.getByText("Payment gateway").tagName).toBe("LI");
    expect(screen.getByText("Riders have a smartphone").tagName).toBe("LI");
    expect(document.body.textContent).not.toContain("{");
  });

  it("renders inception: scope side by side, requirement tables with id/title/description, the risk matrix with level chips", () => {
    render(<ArtifactView artifactType="inception" artifact={inceptionArtifact} />);
    expect(screen.getByRole("heading", { name: "In scope" }).closest("section")!.className).toContain("half");
    expect(screen.getByRole("heading", { name: "Out of scope" })).toBeTruthy();
    expect(columnHeaders(screen.getByRole("table", { name: "Functional requirements" }))).toEqual(["ID", "Title", "Description"]);
    expect(within(screen.getByRole("table", { name: "Non-functional requirements" })).getByText("Latency")).toBeTruthy();
    const risks = screen.getByRole("table", { name: "Risk matrix" });
    expect(within(risks).getByText("high").className).toContain("level-high");
    expect(within(risks).getByText("low").className).toContain("level-low");
  });

  it("renders agile epics with their user stories as sentences and acceptance criteria", () => {
    render(<ArtifactView artifactType="agile" artifact={agileArtifact} />);
    expect(screen.getByText("Booking")).toBeTruthy();
    expect(screen.getByText("1 story")).toBeTruthy();
    const story = screen.getByText("US-001").closest("li")!;
    expect(story.textContent).toContain("As a rider, I want to book a trip, so that I get across town");
    expect(within(story).getByText("Acceptance criteria")).toBeTruthy();
    expect(within(story).getByText("5 pts")).toBeTruthy();
  });

  it("renders the diagram agent's output as diagrams, keeping the Mermaid source one click away", () => {
    render(<ArtifactView artifactType="diagramacion" artifact={diagramArtifact} />);
    expect(screen.getByRole("heading", { name: "Sequence diagram" })).toBeTruthy();
    const sources = screen.getAllByText("Mermaid source");
    expect(sources).toHaveLength(2);
    expect(document.body.textContent).toContain("R->>A: POST /trips");
    // The structured ER model is drawn from its entities and relationships.
    expect(document.body.textContent).toContain("Rider ||--o{ Trip : \"books\"");
  });

  it("renders pseudocode as a code block per user story", () => {
    render(<ArtifactView artifactType="pseudocodigo" artifact={pseudocodeArtifact} />);
    const block = screen.getByLabelText("Pseudocode for US-001");
    expect(block.tagName).toBe("PRE");
    expect(block.textContent).toContain("trip <- NEW Trip(rider, from, to)");
  });

  it("renders QA test suites with each case's numbered steps and expected result", () => {
    render(<ArtifactView artifactType="qa" artifact={qaArtifact} />);
    expect(screen.getByText("1 test case · covers US-001")).toBeTruthy();
    const testCase = screen.getByText("TC-001").closest("li")!;
    const steps = within(testCase).getAllByRole("listitem").map((li) => li.textContent);
    expect(steps).toEqual(expect.arrayContaining(["Open the app", "Enter an address", "Confirm"]));
    expect(within(testCase).getByText("A driver is requested")).toBeTruthy();
    expect(within(testCase).getByText("Story US-001")).toBeTruthy();
  });

  it("shows fields no layout names, and artifacts of unknown types, instead of hiding them", () => {
    render(<ArtifactView artifactType="requirements" artifact={{ ...requirementsArtifact, open_questions: ["Which cities first?"] }} />);
    expect(screen.getByRole("heading", { name: "Open questions" })).toBeTruthy();
    expect(screen.getByText("Which cities first?")).toBeTruthy();
    cleanup();
    render(<ArtifactView artifactType="security_review" artifact={{ findings: [{ id: "F-1", severity: "medium", finding: "No rate limit" }] }} />);
    expect(within(screen.getByRole("table", { name: "Findings" })).getByText("medium").className).toContain("level-medium");
  });
});
