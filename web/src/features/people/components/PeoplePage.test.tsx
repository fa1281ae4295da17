/** People: an invitation's link shown once as a full address, each account's role and status, disabling someone else. */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import type { Invitation } from "../../../lib/trpc";
import { account, signedIn } from "../../../testing/people";
import { PeoplePage } from "./PeoplePage";

const me = signedIn("operator", { id: "me", name: "Olga Operator" });
const api = vi.hoisted(() => {
  const mutation = () => ({ mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null });
  return { accounts: { isPending: false, isError: false, data: [] as unknown[], error: null }, invite: mutation(), changeRole: mutation(), disable: mutation(), enable: mutation(), reissue: mutation() };
});
vi.mock("../api/accounts", () => ({
  useAccounts: () => api.accounts,
  useInvite: () => api.invite,
  useChangeRole: () => api.changeRole,
  useDisableAccount: () => api.disable,
  useEnableAccount: () => api.enable,
  useReissueInvitation: () => api.reissue,
}));

beforeEach(() => {
  api.accounts.data = [
    account({ id: "me", name: "Olga Operator", role: "operator" }),
    account({ id: "a1", name: "Anna Analyst", role: "analyst", active: false, invitation_expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() }),
    account({ id: "b1", name: "Ben Late", role: "analyst", active: false, invitation_expires_at: "2025-03-02T10:00:00.000Z" }),
    account({ id: "r1", name: "Rita Reviewer", disabled_at: "2025-03-02T10:00:00.000Z" }),
  ];
  for (const mutation of [api.invite, api.changeRole, api.disable, api.enable, api.reissue]) mutation.mutate.mockReset();
});
afterEach(cleanup);

const renderPage = () => render(<SessionProvider value={me}>{<PeoplePage />}</SessionProvider>);

describe("PeoplePage", () => {
  it("invites someone with a role, and shows the link once as a full address", () => {
    api.invite.mutate.mockImplementation((_input: unknown, options: { onSuccess(answer: Invitation): void }) =>
      options.onSuccess({ account: account({ name: "Anna Analyst", email: "anna@example.com", role: "analyst", active: false }), invitationPath: "/app/invite/inv_abc", expiresAt: "2025-03-08T10:00:00.000Z" }),
    );
    renderPage();
    const form = screen.getByRole("region", { name: "Invite someone" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "Anna Analyst" } });
    fireEvent.change(within(form).getByLabelText("Email"), { target: { value: "anna@example.com" } });
    fireEvent.change(within(form).getByLabelText("Role"), { target: { value: "analyst" } });
    fireEvent.click(within(form).getByRole("button", { name: "Invite" }));
    expect(api.invite.mutate).toHaveBeenCalledWith({ name: "Anna Analyst", email: "anna@example.com", role: "analyst" }, expect.anything());
    const link = screen.getByRole("textbox", { name: "Invitation link for Anna Analyst" }) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/app/invite/inv_abc`);
    expect(screen.getByText("It will not be shown again.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("textbox", { name: "Invitation link for Anna Analyst" })).toBeNull();
  });

  it("lists each account's role and status, changes a role, and disables or enables anyone but oneself", () => {
    renderPage();
    const rows = screen.getByRole("region", { name: "Account list" });
    expect(within(rows).getByRole("row", { name: "Olga Operator" }).textContent).toContain("(you)");
    expect(within(rows).queryByRole("button", { name: "Disable Olga Operator" })).toBeNull();
    expect(within(rows).getByRole("row", { name: "Anna Analyst" }).textContent).toContain("Invited");
    expect(within(rows).getByRole("row", { name: "Rita Reviewer" }).textContent).toContain("Disabled");
    // A role chosen is only proposed: nothing is sent until confirmed, and "Keep" puts the select back.
    const select = within(rows).getByRole("combobox", { name: "Role of Anna Analyst" }) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "operator" } });
    expect(api.changeRole.mutate).not.toHaveBeenCalled();
    const confirm = within(rows).getByRole("group", { name: "Confirm the role of Anna Analyst" });
    expect(confirm.textContent).toContain("Make Anna Analyst an operator?");
    fireEvent.click(within(confirm).getByRole("button", { name: "Keep analyst" }));
    expect(select.value).toBe("analyst");
    expect(within(rows).queryByRole("group", { name: "Confirm the role of Anna Analyst" })).toBeNull();
    fireEvent.change(select, { target: { value: "reviewer" } });
    fireEvent.click(within(rows).getByRole("button", { name: "Change to reviewer" }));
    expect(api.changeRole.mutate).toHaveBeenCalledWith({ accountId: "a1", role: "reviewer" }, expect.anything());
    fireEvent.click(within(rows).getByRole("button", { name: "Disable Anna Analyst" }));
    expect(api.disable.mutate).toHaveBeenCalledWith({ accountId: "a1" });
    fireEvent.click(within(rows).getByRole("button", { name: "Enable Rita Reviewer" }));
    expect(api.enable.mutate).toHaveBeenCalledWith({ accountId: "r1" });
  });

  it("says until when an invitation's link works, and sends a new link for a lost or expired one, shown once", () => {
    api.reissue.mutate.mockImplementation((_input: unknown, options: { onSuccess(answer: Invitation): void }) =>
      options.onSuccess({ account: account({ id: "b1", name: "Ben Late", email: "ben@example.com", role: "analyst", active: false }), invitationPath: "/app/invite/inv_new", expiresAt: "2099-03-08T10:00:00.000Z" }),
    );
    renderPage();
    const rows = screen.getByRole("region", { name: "Account list" });
    expect(within(rows).getByRole("row", { name: "Anna Analyst" }).textContent).toContain("link expires");
    expect(within(rows).getByRole("row", { name: "Ben Late" }).textContent).toContain("link expired");
    expect(within(rows).queryByRole("button", { name: "New link: send Rita Reviewer a new invitation link" })).toBeNull();
    expect(within(rows).queryByRole("button", { name: "New link: send Olga Operator a new invitation link" })).toBeNull();
    fireEvent.click(within(rows).getByRole("button", { name: "New link: send Ben Late a new invitation link" }));
    expect(api.reissue.mutate).toHaveBeenCalledWith({ accountId: "b1" }, expect.anything());
    const link = screen.getByRole("textbox", { name: "Invitation link for Ben Late" }) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/app/invite/inv_new`);
  });
});
