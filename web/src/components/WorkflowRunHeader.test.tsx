/**
 * A workflow run's header (YAML or step workflow) offers "Cancel run" to operators and to the analyst who started the
 * run, as the pipeline's conversation does: she confirms it with a reason, and it is sent for her run. Another analyst,
 * or anyone but an operator on a run whose starter is not known, is not offered it.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { paths } from "../lib/router";
import { SessionProvider } from "../lib/session";
import type { Role } from "../lib/trpc";
import type { WorkflowDoor } from "../lib/workflowDoor";
import { signedIn } from "../testing/people";
import { workflowRun } from "../testing/workflows";
import { type CancelAction, WorkflowRunHeader } from "./WorkflowRunHeader";

const workflowsDoor: WorkflowDoor = { noun: "workflow", paths: paths.workflows };
const stepsDoor: WorkflowDoor = { noun: "step workflow", paths: paths.steps };

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const ann = signedIn("analyst", { id: "5d0c7d57-5a3c-4d55-9b1e-0a11a0a11a01", name: "Ann Analyst" });
const bob = signedIn("analyst", { id: "5d0c7d57-5a3c-4d55-9b1e-0b0b0b0b0b02", name: "Bob Other" });

function header(me: ReturnType<typeof signedIn>, startedBy: { id: string | null; name: string | null } | null, door = workflowsDoor) {
  const mutation = { isPending: false, error: null, mutateAsync: vi.fn(async (_input: { runId: string; reason?: string }) => ({})), reset: vi.fn() };
  const cancel: CancelAction = { offered: true, consequence: "Running nodes stop.", mutation };
  const resume = { offered: false, hint: "", mutation: { isPending: false, error: null, mutate: vi.fn() } };
  render(
    <SessionProvider value={me}>
      <WorkflowRunHeader door={door} run={workflowRun({ status: "waiting_for_user", started_by: startedBy })} view="conversation" runNoun="run" cancel={cancel} resume={resume} />
    </SessionProvider>,
  );
  return mutation;
}

describe("WorkflowRunHeader's Cancel run", () => {
  it("is offered to the analyst who started the run, who confirms it with a reason", async () => {
    const mutation = header(ann, { id: ann.id, name: ann.name });
    expect(screen.getByText(/started by Ann Analyst/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel run" }));
    // Nothing is sent before she confirms.
    expect(mutation.mutateAsync).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole("textbox", { name: "Reason" }), { target: { value: "Started the wrong one" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel this run" }));
    await waitFor(() => expect(mutation.mutateAsync).toHaveBeenCalledWith({ runId: "RUN_1", reason: "Started the wrong one" }));
  });

  it("is offered on a step workflow run she started too", () => {
    header(ann, { id: ann.id, name: ann.name }, stepsDoor);
    expect(screen.getByRole("button", { name: "Cancel run" })).toBeTruthy();
  });

  it("is not offered to another analyst, nor to an analyst on a run whose starter is not known", () => {
    header(bob, { id: ann.id, name: ann.name });
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
    cleanup();
    header(ann, null);
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
  });

  it.each<Role>(["operator"])("is offered to an %s on anyone's run", (role) => {
    header(signedIn(role), { id: ann.id, name: ann.name });
    expect(screen.getByRole("button", { name: "Cancel run" })).toBeTruthy();
  });

  it("is not offered to a reviewer on someone else's run", () => {
    header(signedIn("reviewer"), { id: ann.id, name: ann.name });
    expect(screen.queryByRole("button", { name: "Cancel run" })).toBeNull();
  });
});
