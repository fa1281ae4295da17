/**
 * Decisions with several server processes on one PostgreSQL database (runs whenever the run has a PostgreSQL): every
 * callback that makes a run wait arrives twice, at two processes at once; every decision is taken twice at once through
 * two processes; the deadlines of the rest come due while every process's dispatcher claims timers. Each wait must be
 * one decision, each decision closed once, each reminder and escalation happen once.
 */
import { describe, expect, it } from "vitest";
import { postgresServerUrl } from "../testing/databases";
import { graphOf, uxNode, workerNode } from "../testing/flows";
import { processesOnOneDatabase } from "../testing/processesOnOneDatabase";
import type { ServerProcess } from "../testing/serverProcess";
import { StitchClient } from "../testing/stitchClient";
import { type WorkerServer, eventually } from "../testing/workerServer";
import type { DecisionActivity, DecisionPage } from "./schemas";

const serverUrl = postgresServerUrl;
const PROCESSES = 3;
const RUNS = 16;

describe.skipIf(!serverUrl)("decisions with several server processes on one PostgreSQL database", () => {
  let processes: ServerProcess[] = [];
  let worker: WorkerServer;
  processesOnOneDatabase(serverUrl!, PROCESSES, { DISPATCH_POLL_MS: "100", DECISION_REMINDER_PERCENT: "50" }, (fleet) => ({ processes, worker } = fleet));

  it(`${RUNS} runs waiting at review gates, every event twice at two processes: one decision each, closed once, deadlines fired once`, async () => {
    const clients = processes.map((p) => new StitchClient(p.url));
    const pair = (i: number) => [clients[i % PROCESSES]!, clients[(i + 1) % PROCESSES]!] as const;
    const decided = await clients[0]!.createFlow(graphOf([workerNode("W", `${worker.url}/draft`), uxNode("check", { gate: "review" })], [["W", "check"]]), "decided at once");
    const overdue = await clients[0]!.createFlow(
      graphOf([workerNode("W", `${worker.url}/draft`), uxNode("check", { gate: "review", due_in: "3s", on_overdue: { escalate: "operator" } })], [["W", "check"]]),
      "left to its deadline",
    );
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => pair(i)[0].startRun(i % 2 === 0 ? decided.id : overdue.id)));
    await eventually(async () => (worker.received.length >= RUNS ? true : undefined), 60_000, `${RUNS} dispatches`);

    await Promise.all(runs.flatMap((run, i) => pair(i).map((client) => client.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: `draft ${i}` }))));
    const decisionsOf = async (runId: string) => (await clients[0]!.get<DecisionPage>(`/api/decisions?view=all&state=all&run_id=${runId}`)).body.items;
    for (const run of runs) {
      const found = await decisionsOf(run.id);
      expect(found.map((d) => [d.node_id, d.state])).toEqual([["check", "open"]]);
    }

    // The even runs: decided twice at once, through two processes.
    const answers = await Promise.all(
      runs.map(async (run, i) => {
        if (i % 2 !== 0) return [];
        const [open] = await decisionsOf(run.id);
        return Promise.all(pair(i).map((client) => client.post(`/api/decisions/${open!.id}/decide`, { outcome: "approve" })));
      }),
    );
    // The same approval twice is the doors' repeated approve: the second changes nothing (200, or 409 when it found
    // the decision closed before it reached the door); either way the decision is decided once.
    for (const both of answers.filter((a) => a.length > 0)) {
      expect(both.map((a) => a.status)).toContain(200);
      for (const a of both) expect([200, 409]).toContain(a.status);
    }

    // The odd runs: left to their deadlines, claimed by every process's dispatcher.
    await eventually(async () => {
      const states = await Promise.all(runs.filter((_, i) => i % 2 === 1).map(async (run) => (await decisionsOf(run.id))[0]!.assignee.role));
      return states.every((role) => role === "operator") ? true : undefined;
    }, 30_000, "every overdue decision escalated");

    for (const [i, run] of runs.entries()) {
      const activity = (await clients[i % PROCESSES]!.get<{ items: DecisionActivity[] }>(`/api/decisions/activity?run_id=${run.id}`)).body.items;
      // A reminder comes before the escalation, or not at all when both timers came due in the same busy moment.
      // This database has no account (the test acts with the bootstrap token), so each decision is marked, once, as
      // one nobody can take, however many processes assessed it (and again once escalated: its new role has nobody either).
      const types = activity.map((e) => e.type);
      if (i % 2 === 0) expect(types).toEqual(["opened", "undecidable", "decided"]);
      else expect([["opened", "undecidable", "reminded", "escalated", "undecidable"], ["opened", "undecidable", "escalated", "undecidable"]]).toContainEqual(types);
    }
  }, 120_000);
});
