/** The inspector's fields: each written into the node as typed, said wrong under the field as typed, kept as typed. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FlowNode } from "../../../lib/trpc";
import { NodeFields } from "./NodeFields";

afterEach(cleanup);

function Worker({ onChange, serverProblems = new Map() }: { onChange(data: Record<string, unknown>): void; serverProblems?: ReadonlyMap<string, string> }) {
  const [node, setNode] = useState<FlowNode>({ id: "w", type: "Worker", position: { x: 0, y: 0 }, data: { label: "Ship", webhookUrl: "http://127.0.0.1:9/ship" } });
  return (
    <NodeFields
      node={node}
      editable
      serverProblems={serverProblems}
      onChange={(data) => {
        onChange(data);
        setNode({ ...node, data });
      }}
    />
  );
}

describe("a Worker's fields", () => {
  it("write each change into the node's data as it is typed", () => {
    const onChange = vi.fn();
    render(<Worker onChange={onChange} />);
    fireEvent.change(screen.getByRole("textbox", { name: "Timeout (ms)" }), { target: { value: "45000" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ label: "Ship", webhookUrl: "http://127.0.0.1:9/ship", timeoutMs: 45000 }));
  });

  it("say a wrong value under its field as it is typed, and keep the text as typed", () => {
    render(<Worker onChange={vi.fn()} />);
    const timeout = screen.getByRole("textbox", { name: "Timeout (ms)" });
    fireEvent.change(timeout, { target: { value: "soon" } });
    expect((timeout as HTMLInputElement).value).toBe("soon");
    expect(timeout.getAttribute("aria-invalid")).toBe("true");
  });

  it("show the check's problem with a field under that field", () => {
    render(<Worker onChange={vi.fn()} serverProblems={new Map([["webhookUrl", "the outbound-address policy refuses it"]])} />);
    expect(screen.getByText("the outbound-address policy refuses it")).toBeTruthy();
  });
});
