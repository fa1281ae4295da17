/**
 * Subscriptions: adding one with its events (the secret shown once), the server's refusal of a URL under the URL,
 * each subscription's events and, on request, its deliveries with status, HTTP status, response time and attempts,
 * and deleting only once asked twice.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NewSubscription } from "../../../lib/trpc";
import { delivery, subscription } from "../../../testing/notifications";
import { SubscriptionsPage } from "./SubscriptionsPage";

const api = vi.hoisted(() => {
  const mutation = () => ({ mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null as unknown });
  return {
    list: { isPending: false, isError: false, data: [] as unknown[], error: null },
    deliveries: { isPending: false, isError: false, data: { items: [] as unknown[] }, error: null },
    deliveriesAskedFor: [] as string[],
    create: mutation(),
    remove: mutation(),
  };
});
vi.mock("../api/subscriptions", () => ({
  useSubscriptions: () => api.list,
  useCreateSubscription: () => api.create,
  useDeleteSubscription: () => api.remove,
  useDeliveries: (id: string) => {
    api.deliveriesAskedFor.push(id);
    return api.deliveries;
  },
}));

const hook = subscription();

beforeEach(() => {
  api.list.data = [hook];
  api.deliveries.data = { items: [] };
  api.deliveriesAskedFor = [];
  for (const mutation of [api.create, api.remove]) {
    mutation.mutate.mockReset();
    mutation.error = null;
  }
});
afterEach(cleanup);

const form = () => screen.getByRole("region", { name: "Add a subscription" });

describe("SubscriptionsPage", () => {
  it("adds a subscription with its URL and the events chosen, in the server's order, and shows its secret once", () => {
    api.create.mutate.mockImplementation((_input: unknown, options: { onSuccess(answer: NewSubscription): void }) =>
      options.onSuccess({ ...subscription({ url: "https://hooks.example.com/new", events: ["decision.waiting", "run.failed"] }), secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2Vj" }),
    );
    render(<SubscriptionsPage />);
    fireEvent.change(within(form()).getByLabelText("URL"), { target: { value: " https://hooks.example.com/new " } });
    const events = within(form()).getByRole("group", { name: "Events" });
    fireEvent.click(within(events).getByRole("checkbox", { name: /run\.failed/ }));
    fireEvent.click(within(events).getByRole("checkbox", { name: /decision\.waiting/ }));
    expect(within(events).getAllByRole("checkbox")).toHaveLength(9);
    fireEvent.click(within(form()).getByRole("button", { name: "Add subscription" }));
    expect(api.create.mutate).toHaveBeenCalledWith({ url: "https://hooks.example.com/new", events: ["decision.waiting", "run.failed"] }, expect.anything());
    const secret = screen.getByRole("textbox", { name: "Signing secret for https://hooks.example.com/new" }) as HTMLInputElement;
    expect(secret.value).toBe("whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2Vj");
    expect(screen.getByText("It will not be shown again.")).toBeTruthy();
    expect((within(form()).getByLabelText("URL") as HTMLInputElement).value).toBe("");
    expect(within(events).getAllByRole("checkbox").every((box) => !(box as HTMLInputElement).checked)).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("textbox", { name: /Signing secret/ })).toBeNull();
  });

  it("asks for an event before sending, and shows the server's refusal of the URL under the URL", () => {
    const { rerender } = render(<SubscriptionsPage />);
    fireEvent.change(within(form()).getByLabelText("URL"), { target: { value: "http://169.254.169.254/" } });
    fireEvent.click(within(form()).getByRole("button", { name: "Add subscription" }));
    expect(api.create.mutate).not.toHaveBeenCalled();
    expect(within(form()).getByRole("alert").textContent).toBe("Choose at least one event.");
    expect(within(form()).getByRole("group", { name: "Events" }).getAttribute("aria-invalid")).toBe("true");

    api.create.error = TRPCClientError.from({
      error: { code: -32600, message: "url: refused by the outbound-address policy (OUTBOUND_ALLOW): 169.254.169.254 is a link-local or cloud-metadata address", data: { code: "BAD_REQUEST", httpStatus: 400 } },
    });
    rerender(<SubscriptionsPage />);
    const url = within(form()).getByLabelText("URL");
    expect(url.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(url.getAttribute("aria-describedby")!)!.textContent).toBe(
      "refused by the outbound-address policy (OUTBOUND_ALLOW): 169.254.169.254 is a link-local or cloud-metadata address",
    );
  });

  it("lists each subscription with its events, and shows its deliveries on request", () => {
    api.deliveries.data = {
      items: [
        delivery(),
        delivery({
          id: "d2", event_type: "decision.waiting", status: "pending", attempts: 2, response_status: 500, response_ms: 1500, last_error: "HTTP 500 Internal Server Error: not yet",
          next_attempt_at: "2025-03-01T10:06:00.000Z", delivered_at: null,
          payload: {
            id: "e2", type: "decision.waiting", occurred_at: "2025-03-01T10:05:30.000Z", title: "Review Requirements v1 of tool-library",
            links: { app: "http://localhost:3000/app/reviews?decision=d", api: "http://localhost:3000/api/decisions/d" },
            decision: {
              id: "d", kind: "review", title: "Review Requirements v1 of tool-library", front_door: "pipeline", run_id: "RUN_1", state: "open", due_at: null,
              assignee: { kind: "role", id: null, name: null, role: "reviewer" }, outcome: null, decided_by: null,
            },
          },
        }),
      ],
    };
    render(<SubscriptionsPage />);
    const card = screen.getByRole("listitem", { name: hook.url });
    expect(within(within(card).getByRole("list", { name: "Events" })).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["decision.waiting", "run.failed"]);
    expect(card.textContent).toContain("by Olga Operator");
    expect(screen.queryByRole("region", { name: `Deliveries to ${hook.url}` })).toBeNull();
    const show = within(card).getByRole("button", { name: `Show deliveries to ${hook.url}` });
    expect(show.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(show);
    expect(within(card).getByRole("button", { name: `Hide deliveries to ${hook.url}` }).getAttribute("aria-expanded")).toBe("true");
    expect(api.deliveriesAskedFor).toContain(hook.id);
    const table = screen.getByRole("region", { name: `Deliveries to ${hook.url}` });
    const delivered = within(table).getByRole("row", { name: `run.failed: Flow "nightly" run 1a2b3c4d` });
    expect(within(delivered).getAllByRole("cell").map((cell) => cell.textContent).slice(1, 5)).toEqual(["Delivered", "200", "42 ms", "1"]);
    const retrying = within(table).getByRole("row", { name: "decision.waiting: Review Requirements v1 of tool-library" });
    expect(retrying.textContent).toContain("HTTP 500 Internal Server Error: not yet");
    expect(within(retrying).getAllByRole("cell").map((cell) => cell.textContent).slice(2, 5)).toEqual(["500", "1.5 s", "2"]);
    expect(retrying.textContent).toContain("Pending");
    expect(retrying.textContent).toContain("next try at");
  });

  it("says when nothing was delivered yet, and when there are no subscriptions", () => {
    const { unmount } = render(<SubscriptionsPage />);
    fireEvent.click(screen.getByRole("button", { name: `Show deliveries to ${hook.url}` }));
    expect(screen.getByText(/Nothing has been sent to it yet/)).toBeTruthy();
    unmount();
    api.list.data = [];
    render(<SubscriptionsPage />);
    expect(screen.getByRole("heading", { name: "No subscriptions yet" })).toBeTruthy();
  });

  it("deletes a subscription only once asked twice", () => {
    render(<SubscriptionsPage />);
    const card = screen.getByRole("listitem", { name: hook.url });
    fireEvent.click(within(card).getByRole("button", { name: `Delete the subscription to ${hook.url}` }));
    expect(api.remove.mutate).not.toHaveBeenCalled();
    expect(card.textContent).toContain("nothing more is sent to it");
    fireEvent.click(within(card).getByRole("button", { name: "Keep" }));
    expect(within(card).queryByRole("button", { name: /for good/ })).toBeNull();
    fireEvent.click(within(card).getByRole("button", { name: `Delete the subscription to ${hook.url}` }));
    fireEvent.click(within(card).getByRole("button", { name: `Delete the subscription to ${hook.url} for good` }));
    expect(api.remove.mutate).toHaveBeenCalledWith({ subscriptionId: hook.id }, expect.anything());
  });
});
