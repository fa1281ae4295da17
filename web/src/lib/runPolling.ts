/**
 * How often a workflow front door's runs are read again: one run (alone or with its conversation) every second while
 * it is active, and no more once it has ended or its read failed for good; a list of runs often while one of them is
 * active, now and then otherwise (others start runs too).
 */
import { isPermanentError } from "./errors";

const runPollMs = 1000;

type RunQuery<S> = { state: { data?: { status: S } | { run: { status: S } }; error: unknown } };

/** The `refetchInterval` of a query of one run: `{ status }`, or a conversation's `{ run: { status } }`. */
export function pollWhileActive<S>(isActive: (status: S) => boolean) {
  return (query: RunQuery<S>): number | false => {
    if (query.state.error && isPermanentError(query.state.error)) return false;
    const data = query.state.data;
    const status = data === undefined ? undefined : "run" in data ? data.run.status : data.status;
    return status === undefined || isActive(status) ? runPollMs : false;
  };
}

/** The `refetchInterval` of a query of recent runs. */
export function pollRunList<S>(isActive: (status: S) => boolean) {
  return (query: { state: { data?: readonly { status: S }[] } }): number => (query.state.data?.some((run) => isActive(run.status)) ? 2000 : 15_000);
}
