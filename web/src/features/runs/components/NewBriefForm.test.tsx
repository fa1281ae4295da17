/** The analyst's composer: the server's rules checked before sending, the server's refusals shown beside the field. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NewBriefForm } from "./NewBriefForm";

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});

const domain = () => screen.getByRole("textbox", { name: "Domain" });
const brief = () => screen.getByRole("textbox", { name: "Brief" });
const submit = () => screen.getByRole("button", { name: "Submit brief" });
const longBrief = "A ride-hailing app for a mid-sized city with card payments.";
const fullBrief =
  "A tool library for neighbours in one building: members lend drills and ladders, book them for a day and get a reminder to return them. " +
  "One item per person at a time, and a deposit is required. Card payments by Stripe and email reminders.";

describe("NewBriefForm", () => {
  it("submits the trimmed domain and a brief that says enough at once", () => {
    const onSubmit = vi.fn();
    render(<NewBriefForm pending={false} error={null} onSubmit={onSubmit} />);
    fireEvent.change(domain(), { target: { value: " tools " } });
    fireEvent.change(brief(), { target: { value: `  ${fullBrief}  ` } });
    fireEvent.click(submit());
    expect(onSubmit).toHaveBeenCalledWith({ domain: "tools", brief: fullBrief });
  });

  it("prompts beside the box, marking what the brief says; a thin brief is checked once, then starts anyway", () => {
    const onSubmit = vi.fn();
    render(<NewBriefForm pending={false} error={null} onSubmit={onSubmit} />);
    const prompts = screen.getByRole("complementary", { name: "A brief the agents can work from says" });
    expect(prompts.textContent).toContain("Who is it for?");
    fireEvent.change(domain(), { target: { value: "tools" } });
    fireEvent.change(brief(), { target: { value: "Tool library app for neighbours" } });
    expect(prompts.textContent).toContain("Who is it for? (your brief says this)");
    expect(prompts.textContent).toContain("Rules and constraints (not yet in your brief)");
    fireEvent.click(submit());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toContain("does not say what people do with it, its rules and constraints or the systems it connects to");
    // Changing the brief checks it again; the same brief a second time goes ahead.
    fireEvent.click(screen.getByRole("button", { name: "Start anyway" }));
    expect(onSubmit).toHaveBeenCalledWith({ domain: "tools", brief: "Tool library app for neighbours" });
  });

  it("explains a missing domain and a short brief instead of sending", () => {
    const onSubmit = vi.fn();
    render(<NewBriefForm pending={false} error={null} onSubmit={onSubmit} />);
    fireEvent.change(brief(), { target: { value: "Too short" } });
    fireEvent.click(submit());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText("Name the domain this brief belongs to.")).toBeTruthy();
    expect(screen.getByText("Write at least 30 characters (21 more).")).toBeTruthy();
    expect(domain().getAttribute("aria-invalid")).toBe("true");
    expect(brief().getAttribute("aria-invalid")).toBe("true");
  });

  it("counts the brief's characters toward the minimum", () => {
    render(<NewBriefForm pending={false} error={null} onSubmit={vi.fn()} />);
    fireEvent.change(brief(), { target: { value: "12345" } });
    expect(screen.getByText("At least 30 characters · 5 written")).toBeTruthy();
    fireEvent.change(brief(), { target: { value: longBrief } });
    expect(screen.getByText(`Ready to send · ${longBrief.length} written`)).toBeTruthy();
  });

  it("disables the form while the run is being created", () => {
    render(<NewBriefForm pending error={null} onSubmit={vi.fn()} />);
    expect((submit() as HTMLButtonElement).disabled).toBe(true);
    expect((domain() as HTMLInputElement).disabled).toBe(true);
  });

  it("shows the server's field errors beside their fields and other errors as an alert", () => {
    const fieldError = TRPCClientError.from({
      error: { code: -32600, message: "invalid input", data: { code: "BAD_REQUEST", httpStatus: 400, zodError: { formErrors: [], fieldErrors: { brief: ["brief must be at least 30 characters"] } } } },
    });
    const { rerender } = render(<NewBriefForm pending={false} error={fieldError} onSubmit={vi.fn()} />);
    expect(screen.getByText("brief must be at least 30 characters")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();

    const otherError = TRPCClientError.from({ error: { code: -32603, message: "the database is not reachable", data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } } });
    rerender(<NewBriefForm pending={false} error={otherError} onSubmit={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toContain("The run was not startedthe database is not reachable");
  });

  it("keeps what is typed across a remount (a reload, another page) until a run is started with it", () => {
    const first = render(<NewBriefForm pending={false} error={null} onSubmit={vi.fn()} />);
    fireEvent.change(screen.getByRole("textbox", { name: "Domain" }), { target: { value: "tool-library" } });
    fireEvent.change(screen.getByRole("textbox", { name: /^Brief/ }), { target: { value: "Neighbours lend each other tools." } });
    first.unmount();
    render(<NewBriefForm pending={false} error={null} onSubmit={vi.fn()} />);
    expect((screen.getByRole("textbox", { name: "Domain" }) as HTMLInputElement).value).toBe("tool-library");
    expect((screen.getByRole("textbox", { name: /^Brief/ }) as HTMLTextAreaElement).value).toBe("Neighbours lend each other tools.");
  });
});
