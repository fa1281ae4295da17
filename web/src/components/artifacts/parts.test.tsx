/** Under review, every field and main item of the six artifact layouts carries its comment button, named for it, in reading order. */
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agileArtifact, pseudocodeArtifact, qaArtifact, requirementsArtifact } from "../../testing/fixtures";
import { ArtifactView } from "./ArtifactView";
import { type PartInfo, PartsProvider, type PartsRendering, partName } from "./parts";

afterEach(cleanup);

/** The parts the server lists for an artifact (its anchors and labels; quotes do not matter here). */
const part = (anchor: string, label: string): PartInfo => ({ anchor, label, quote: "" });

function underReview(parts: PartInfo[], threads: Record<string, string> = {}): PartsRendering {
  return {
    parts,
    button: (info, name) => <button type="button" aria-label={`Comment on ${name}`}>Comment</button>,
    threads: (anchor) => (threads[anchor] ? <p>{threads[anchor]}</p> : null),
    shown: () => () => {},
  };
}

const commentButtons = () => screen.queryAllByRole("button", { name: /^Comment on / }).map((b) => b.getAttribute("aria-label"));

describe("comment buttons on the parts of an output", () => {
  it("names each field and capability of a requirements output, and puts a part's comments after it", () => {
    const parts = [
      part("problem_statement_refined", "Problem statement refined"),
      part("identified_domains", "Identified domains"),
      part("core_capabilities", "Core capabilities"),
      part("core_capabilities[CAP-001]", "Core capabilities › CAP-001"),
      part("core_capabilities[CAP-002]", "Core capabilities › CAP-002"),
      part("external_dependencies", "External dependencies"),
      part("external_dependencies[#1]", "External dependencies › item 1"),
      part("external_dependencies[#2]", "External dependencies › item 2"),
      part("assumptions", "Assumptions"),
      part("assumptions[#1]", "Assumptions › item 1"),
    ];
    render(
      <PartsProvider value={underReview(parts, { "core_capabilities[CAP-001]": "Limit reservations to 3 days." })}>
        <ArtifactView artifactType="requirements" artifact={requirementsArtifact} />
      </PartsProvider>,
    );
    expect(commentButtons()).toEqual([
      "Comment on Problem statement",
      "Comment on Identified domains",
      "Comment on Core capabilities",
      "Comment on CAP-001",
      "Comment on CAP-002",
      "Comment on External dependencies",
      "Comment on External dependencies, item 1",
      "Comment on External dependencies, item 2",
      "Comment on Assumptions",
      "Comment on Assumptions, item 1",
    ]);
    // The thread follows its row in a row of its own.
    const table = screen.getByRole("table", { name: "Core capabilities" });
    const rows = within(table).getAllByRole("row");
    const capRow = rows.findIndex((row) => row.textContent?.includes("CAP-001"));
    expect(rows[capRow + 1]!.textContent).toBe("Limit reservations to 3 days.");
  });

  it("names epics and stories, suites and test cases, and each story's pseudocode", () => {
    const { unmount } = render(
      <PartsProvider value={underReview([part("epics", "Epics"), part("epics[EP-01]", "Epics › EP-01"), part("epics[EP-01].user_stories[US-001]", "Epics › EP-01 › User stories › US-001")])}>
        <ArtifactView artifactType="agile" artifact={agileArtifact} />
      </PartsProvider>,
    );
    expect(commentButtons()).toEqual(["Comment on Epics", "Comment on EP-01", "Comment on US-001"]);
    unmount();

    const second = render(
      <PartsProvider value={underReview([part("test_suites[TS-01]", "Test suites › TS-01"), part("test_suites[TS-01].test_cases[TC-001]", "Test suites › TS-01 › Test cases › TC-001")])}>
        <ArtifactView artifactType="qa" artifact={qaArtifact} />
      </PartsProvider>,
    );
    expect(commentButtons()).toEqual(["Comment on TS-01", "Comment on TC-001"]);
    second.unmount();

    render(
      <PartsProvider value={underReview([part("user_story_pseudocode", "User story pseudocode"), part("user_story_pseudocode[US-001]", "User story pseudocode › US-001")])}>
        <ArtifactView artifactType="pseudocodigo" artifact={pseudocodeArtifact} />
      </PartsProvider>,
    );
    expect(commentButtons()).toEqual(["Comment on Pseudocode by user story", "Comment on US-001"]);
  });

  it("draws no button for reading only, and none for a part the server does not list", () => {
    const { unmount } = render(<ArtifactView artifactType="requirements" artifact={requirementsArtifact} />);
    expect(commentButtons()).toEqual([]);
    unmount();
    render(
      <PartsProvider value={underReview([part("core_capabilities[CAP-002]", "Core capabilities › CAP-002")])}>
        <ArtifactView artifactType="requirements" artifact={requirementsArtifact} />
      </PartsProvider>,
    );
    expect(commentButtons()).toEqual(["Comment on CAP-002"]);
  });

  it("names a part by its id, its list and position, or its item and field", () => {
    expect(partName("Core capabilities › CAP-001", "core_capabilities[CAP-001]")).toBe("CAP-001");
    expect(partName("Assumptions › item 2", "assumptions[#2]")).toBe("Assumptions, item 2");
    expect(partName("Core capabilities › CAP-001 › Description", "core_capabilities[CAP-001].description")).toBe("CAP-001 description");
    expect(partName("Problem statement refined", "problem_statement_refined")).toBe("Problem statement refined");
  });
});
