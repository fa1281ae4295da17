/** Subscriptions and deliveries typed as the server's router answers them, for the notifications pages' tests. */
import type { Delivery, Subscription } from "../lib/trpc";

export function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: "5b0c7e7e-1c1d-4c1a-9d7e-0f1e2d3c4b5a",
    url: "https://hooks.example.com/stitch",
    events: ["decision.waiting", "run.failed"],
    created_at: "2025-03-01T10:00:00.000Z",
    created_by: "Olga Operator",
    ...overrides,
  };
}

export function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: "9a8b7c6d-1111-4222-8333-444455556666",
    event_id: "1e2d3c4b-aaaa-4bbb-8ccc-dddd0000eeee",
    event_type: "run.failed",
    status: "delivered",
    attempts: 1,
    response_status: 200,
    response_ms: 42,
    last_error: null,
    created_at: "2025-03-01T10:05:00.000Z",
    last_attempt_at: "2025-03-01T10:05:00.000Z",
    next_attempt_at: null,
    delivered_at: "2025-03-01T10:05:00.000Z",
    payload: {
      id: "1e2d3c4b-aaaa-4bbb-8ccc-dddd0000eeee",
      type: "run.failed",
      occurred_at: "2025-03-01T10:05:00.000Z",
      title: 'Flow "nightly" run 1a2b3c4d',
      links: { app: "http://localhost:3000/app/engine/runs/1a2b3c4d", api: "http://localhost:3000/api/stitch/runs/1a2b3c4d" },
      run: { front_door: "flow", run_id: "1a2b3c4d", title: 'Flow "nightly" run 1a2b3c4d', status: "failed", started_by: null },
    },
    ...overrides,
  };
}
