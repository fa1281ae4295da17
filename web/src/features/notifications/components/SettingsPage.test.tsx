/** My settings: the email choice saved as it is made, the server's lack of email said, and no choice for the bootstrap token. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import type { EmailPreference } from "../../../lib/trpc";
import { signedIn } from "../../../testing/people";
import { SettingsPage } from "./SettingsPage";

const api = vi.hoisted(() => ({
  preference: { isPending: false, isError: false, data: undefined as EmailPreference | undefined, error: null },
  asked: [] as boolean[],
  save: { mutate: vi.fn(), isPending: false, isSuccess: false, error: null, variables: undefined as { enabled: boolean } | undefined },
}));
vi.mock("../api/email-preference", () => ({
  useEmailPreference: (enabled: boolean) => {
    api.asked.push(enabled);
    return api.preference;
  },
  useSetEmailNotifications: () => api.save,
}));

beforeEach(() => {
  api.preference.data = { email_notifications: true, email_configured: true, email: "rita@example.com" };
  api.asked = [];
  api.save.mutate.mockReset();
  api.save.isSuccess = false;
});
afterEach(cleanup);

const renderAs = (me: ReturnType<typeof signedIn>) => render(<SessionProvider value={me}>{<SettingsPage />}</SessionProvider>);

describe("SettingsPage", () => {
  it("shows the email choice and saves a change as it is made", () => {
    renderAs(signedIn("reviewer", { name: "Rita Reviewer", email: "rita@example.com" }));
    const box = screen.getByRole("checkbox", { name: /Email me/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(box.getAttribute("aria-describedby")!)!.textContent).toContain("at rita@example.com");
    expect(screen.queryByText("This server sends no email")).toBeNull();
    fireEvent.click(box);
    expect(api.save.mutate).toHaveBeenCalledWith({ enabled: false });
  });

  it("says when the choice is saved, and when this server sends no email at all", () => {
    api.preference.data = { email_notifications: false, email_configured: false, email: "rita@example.com" };
    api.save.isSuccess = true;
    renderAs(signedIn("analyst"));
    expect((screen.getByRole("checkbox", { name: /Email me/ }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText("This server sends no email")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("Saved: you get no email.");
  });

  it("offers no choice to the bootstrap token, which is no account", () => {
    renderAs(signedIn("operator", { id: null, name: "bootstrap token", email: null, via: "bootstrap" }));
    expect(screen.getByText("Settings belong to accounts")).toBeTruthy();
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(api.asked).toEqual([]);
  });
});
