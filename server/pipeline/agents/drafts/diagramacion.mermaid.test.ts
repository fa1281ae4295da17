// @vitest-environment jsdom
/**
 * The diagram agent's sequence diagrams are valid Mermaid: parsed by Mermaid itself (which needs a DOM,
 * hence jsdom), for first drafts and after revisions that add, rename and remove steps.
 */
import mermaid from "mermaid";
import { describe, expect, it } from "vitest";
import { BRIEFS, feedbackCall, runPipeline } from "../../../testing/agentTestkit";
import { draft } from "./index";

describe("mermaid_sequence_diagram", () => {
  for (const [name, { domain, brief }] of Object.entries(BRIEFS)) {
    it(`parses as a Mermaid sequence diagram (${name} brief)`, async () => {
      const source = runPipeline(domain, brief).diagramacion.artifact.mermaid_sequence_diagram;
      await expect(mermaid.parse(source)).resolves.toMatchObject({ diagramType: "sequence" });
    });
  }

  it("still parses after revisions that add, rename and remove steps", async () => {
    const { diagramacion } = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
    const added = draft("diagramacion", feedbackCall(diagramacion, "Show the refund flow; with #hash: and semicolons. Rename Customer to Client."));
    await expect(mermaid.parse(added.artifact.mermaid_sequence_diagram)).resolves.toBeTruthy();
    expect(added.artifact.mermaid_sequence_diagram).toContain("actor A1 as Client");
    const removed = draft("diagramacion", feedbackCall(added, "Remove the pay bills steps."));
    expect(removed.artifact.mermaid_sequence_diagram).not.toContain("pay bills");
    await expect(mermaid.parse(removed.artifact.mermaid_sequence_diagram)).resolves.toBeTruthy();
  });

  it("the parser used here does reject broken source", async () => {
    await expect(mermaid.parse("sequenceDiagram\n  A->>: ;\n  end end")).rejects.toThrow();
  });
});
