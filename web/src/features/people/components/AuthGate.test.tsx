/**
 * The sign-in gate: "Create the first account" on a server without accounts, "Accept your invitation" at an
 * invitation's link, "Sign in" otherwise, and the app with the signed-in person once someone is. The forms check
 * what they can before sending, and show the server's refusal.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useRole } from "../../../lib/session";
import type { AuthStatus } from "../../../lib/trpc";
import { signedIn } from "../../../testing/people";
import { AuthGate } from "./AuthGate";
import { newPasswordProblems } from "./AuthPages";

const state = vi.hoisted(() => {
  const mutation = () => ({ mutate: vi.fn(), isPending: false, error: null as unknown });
  return {
    status: { data: undefined as AuthStatus | undefined, isError: false, error: null, refetch: vi.fn() },
    setup: mutation(),
    signIn: mutation(),
    accept: mutation(),
    signOut: mutation(),
    invitation: {
      isPending: false, isError: false, error: null as unknown,
      data: { state: "open" as "open" | "used" | "expired" | "disabled", name: "Anna Analyst", email: "anna@example.com", role: "analyst" as const, invited_by: "Olga Operator", expires_at: "2099-03-08T10:00:00.000Z" },
    },
  };
});
vi.mock("../api/auth", () => ({
  useAuthStatus: () => state.status,
  useSetup: () => state.setup,
  useSignIn: () => state.signIn,
  useAcceptInvitation: () => state.accept,
  useInvitation: () => state.invitation,
  useSignOut: () => state.signOut,
}));

function RoleProbe() {
  return <p>App for {useRole()}</p>;
}

const renderGate = () => render(<AuthGate>{<RoleProbe />}</AuthGate>);
const answer = (status: Partial<AuthStatus>) => (state.status.data = { needsSetup: false, me: null, csrfToken: null, ...status });
const type = (name: string, value: string) => fireEvent.change(screen.getByLabelText(name), { target: { value } });

beforeEach(() => {
  window.history.replaceState(null, "", "/app");
  state.status.data = undefined;
  for (const mutation of [state.setup, state.signIn, state.accept, state.signOut]) {
    mutation.mutate.mockReset();
    mutation.error = null;
  }
});
afterEach(cleanup);

describe("AuthGate", () => {
  it("waits for the server's answer", () => {
    renderGate();
    expect(screen.getByRole("status", { name: "Loading" })).toBeTruthy();
  });

  it("asks for the first account, an operator, and sends it once the passwords agree", () => {
    answer({ needsSetup: true });
    renderGate();
    expect(screen.getByRole("heading", { name: "Create the first account" })).toBeTruthy();
    expect(screen.getByText("operator")).toBeTruthy();
    type("Name", "Ada Lovelace");
    type("Email", "ada@example.com");
    type("Password", "correct horse battery");
    type("Password again", "correct horse batterY");
    fireEvent.click(screen.getByRole("button", { name: "Create the account" }));
    expect(screen.getByText(/The two passwords differ/)).toBeTruthy();
    expect(state.setup.mutate).not.toHaveBeenCalled();
    type("Password again", "correct horse battery");
    fireEvent.click(screen.getByRole("button", { name: "Create the account" }));
    expect(state.setup.mutate).toHaveBeenCalledWith({ name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery" });
  });

  it("accepts an invitation at its link with the token from the address", () => {
    window.history.replaceState(null, "", "/app/invite/inv_0123456789abcdefghij");
    answer({});
    renderGate();
    expect(screen.getByRole("heading", { name: "Accept your invitation" })).toBeTruthy();
    type("Password", "a long enough one");
    type("Password again", "a long enough one");
    fireEvent.click(screen.getByRole("button", { name: "Accept and sign in" }));
    expect(state.accept.mutate).toHaveBeenCalledWith({ token: "inv_0123456789abcdefghij", password: "a long enough one" }, expect.anything());
    expect(screen.getByText(/Olga Operator invited Anna Analyst \(anna@example.com\) as an analyst/)).toBeTruthy();
  });

  it("says a used or expired invitation is one before asking for a password, and points to sign-in", () => {
    window.history.replaceState(null, "", "/app/invite/inv_0123456789abcdefghij");
    answer({});
    for (const [state_, heading] of [["used", "This invitation was used already"], ["expired", "This invitation has expired"]] as const) {
      state.invitation.data.state = state_;
      renderGate();
      expect(screen.getByRole("heading", { name: heading })).toBeTruthy();
      expect(screen.queryByLabelText("Password")).toBeNull();
      expect(screen.getByRole("link", { name: "Go to sign in" })).toBeTruthy();
      cleanup();
    }
    state.invitation.data.state = "open";
  });

  it("signs in, and shows the server's refusal", () => {
    answer({});
    state.signIn.error = TRPCClientError.from({ error: { code: -32001, message: "invalid credentials", data: { code: "UNAUTHORIZED", httpStatus: 401 } } });
    renderGate();
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("invalid credentials");
    type("Email", "ada@example.com");
    type("Password", "secret");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(state.signIn.mutate).toHaveBeenCalledWith({ email: "ada@example.com", password: "secret" });
  });

  it("shows the app with the signed-in person's role", () => {
    answer({ me: signedIn("reviewer") });
    renderGate();
    expect(screen.getByText("App for reviewer")).toBeTruthy();
  });

  it("asks someone signed in who opens an invitation to sign out first", () => {
    window.history.replaceState(null, "", "/app/invite/inv_0123456789abcdefghij");
    answer({ me: signedIn("operator") });
    renderGate();
    expect(screen.getByRole("heading", { name: "You are signed in already" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(state.signOut.mutate).toHaveBeenCalledTimes(1);
  });
});

describe("newPasswordProblems", () => {
  it("wants ten characters, typed the same twice", () => {
    expect(newPasswordProblems("short", "short")).toEqual({ password: "Use at least 10 characters." });
    expect(newPasswordProblems("long enough!", "long enough?").again).toMatch(/differ/);
    expect(newPasswordProblems("long enough!", "long enough!")).toEqual({});
  });
});
