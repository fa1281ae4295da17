/** "Cancel run" in each of its states: closed, confirming, backed out, sending, refused, cancelled. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CancelRun, type CancelRunProps } from "./CancelRun";

afterEach(cleanup);

function renderCancel(overrides: Partial<CancelRunProps> = {}) {
  const props: CancelRunProps = {
    consequence: "The agent at work stops.",
    pending: false,
    error: null,
    onConfirm: vi.fn(async () => undefined),
    onDismiss: vi.fn(),
    onCancelled: vi.fn(),
    ...overrides,
  };
  const view = render(<CancelRun {...props} />);
  return { props, view };
}

const trigger = () => screen.getByRole("button", { name: "Cancel run" });
const reason = () => screen.getByRole("textbox", { name: "Reason" }) as HTMLTextAreaElement;
const confirm = () => screen.getByRole("button", { name: "Cancel this run" }) as HTMLButtonElement;
const keepRunning = () => screen.getByRole("button", { name: "Keep running" }) as HTMLButtonElement;
const panel = () => screen.queryByRole("form", { name: "Cancel this run?" });

describe("CancelRun", () => {
  it("opens an inline confirmation with the focus in its optional reason, saying what stops", () => {
    renderCancel();
    expect(trigger().getAttribute("aria-expanded")).toBe("false");
    expect(panel()).toBeNull();
    fireEvent.click(trigger());
    expect(trigger().getAttribute("aria-expanded")).toBe("true");
    expect(trigger().getAttribute("aria-controls")).toBe(panel()!.id);
    expect(panel()!.textContent).toContain("The agent at work stops. This cannot be undone.");
    expect(document.activeElement).toBe(reason());
    expect(reason().getAttribute("aria-describedby")).toBeTruthy();
    expect(confirm()).toBeTruthy();
    expect(keepRunning()).toBeTruthy();
  });

  it("backs out with Escape or Keep running, returning focus to Cancel run and sending nothing", () => {
    const { props } = renderCancel();
    fireEvent.click(trigger());
    fireEvent.change(reason(), { target: { value: "Changed my mind" } });
    fireEvent.keyDown(reason(), { key: "Escape" });
    expect(panel()).toBeNull();
    expect(document.activeElement).toBe(trigger());

    fireEvent.click(trigger());
    fireEvent.click(keepRunning());
    expect(panel()).toBeNull();
    expect(document.activeElement).toBe(trigger());
    expect(props.onDismiss).toHaveBeenCalledTimes(2);
    expect(props.onConfirm).not.toHaveBeenCalled();
  });

  it("sends the trimmed reason, then closes and hands the focus back to the caller", async () => {
    const { props } = renderCancel();
    fireEvent.click(trigger());
    fireEvent.change(reason(), { target: { value: "  The client withdrew the brief.  " } });
    fireEvent.click(confirm());
    expect(props.onConfirm).toHaveBeenCalledWith("The client withdrew the brief.");
    await waitFor(() => expect(props.onCancelled).toHaveBeenCalledTimes(1));
    expect(panel()).toBeNull();
  });

  it("sends no reason when none was given, and Ctrl+Enter in the reason confirms", async () => {
    const { props } = renderCancel();
    fireEvent.click(trigger());
    fireEvent.change(reason(), { target: { value: "   " } });
    fireEvent.keyDown(reason(), { key: "Enter", ctrlKey: true });
    expect(props.onConfirm).toHaveBeenCalledWith(undefined);
    await waitFor(() => expect(props.onCancelled).toHaveBeenCalled());
  });

  it("refuses a reason over the server's limit and says why, without calling the server", () => {
    const { props } = renderCancel();
    fireEvent.click(trigger());
    fireEvent.change(reason(), { target: { value: "x".repeat(2001) } });
    fireEvent.click(confirm());
    expect(props.onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toContain("Keep the reason within 2000 characters");
    expect(reason().getAttribute("aria-invalid")).toBe("true");
  });

  it("disables the confirmation while it is being sent, and Escape does not hide it", () => {
    const { props } = renderCancel({ pending: true });
    fireEvent.click(trigger());
    expect(confirm().disabled).toBe(true);
    expect(confirm().getAttribute("aria-busy")).toBe("true");
    expect(keepRunning().disabled).toBe(true);
    expect(reason().disabled).toBe(true);
    fireEvent.keyDown(panel()!, { key: "Escape" });
    expect(panel()).not.toBeNull();
    expect(props.onDismiss).not.toHaveBeenCalled();
  });

  it("keeps the confirmation and the reason open when the server refused, and shows why", async () => {
    const error = TRPCClientError.from({ error: { code: -32603, message: "run RUN_1 is COMPLETED; there is nothing to cancel", data: { code: "CONFLICT", httpStatus: 409 } } });
    const onConfirm = vi.fn(async () => {
      throw error;
    });
    const { props, view } = renderCancel({ onConfirm });
    fireEvent.click(trigger());
    fireEvent.change(reason(), { target: { value: "Too late" } });
    fireEvent.click(confirm());
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith("Too late"));
    // The container passes the mutation's error back down.
    view.rerender(<CancelRun {...props} onConfirm={onConfirm} error={error} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The run was not cancelled");
    expect(alert.textContent).toContain("there is nothing to cancel");
    expect(reason().value).toBe("Too late");
    expect(props.onCancelled).not.toHaveBeenCalled();
  });
});
