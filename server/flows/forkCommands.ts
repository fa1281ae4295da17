/**
 * Forks of plain flow runs: the one place their rules are applied (REST `/api/runs/...` and tRPC `engine.runs.fork`
 * only parse, authenticate and delegate here). Who may fork is server/forks/rule.ts; what a fork copies is the engine's
 * (forkPlan.ts). Each fork is made in one transaction with its audit entry, whose target is the new run and whose
 * message names its parent and node.
 */
import { currentAuditScope, inAuditScope, nameAuditTarget, newAuditScope, noteAudit } from "../audit/scope";
import { nodesWaitingFor } from "../decisions/commands";
import { type Engine, EngineError, type RunOwner, type RunOwnerKind, type StartedBy } from "../engine/engine";
import type { StitchRun } from "../engine/schemas";
import type { Identity } from "../people/schemas";
import { OWNER_NAMES, type OwnerDoor } from "./commands";
import { Refusal } from "../lib/refusal";
import { FlowError } from "./errors";
import { whyNotFork } from "../forks/rule";
import type { ForkBody, ForkFailedBody, Forked, ForkedFailures } from "../forks/schemas";

/** The audit trail's name of one fork, whichever door made it. */
export const FORK_ACTION = "engine.runs.fork";

/** Where the app shows a plain flow run. */
export const flowRunPath = (runId: string) => `/app/flows/runs/${runId}`;

const starterOf = (caller: Identity): StartedBy | null => (caller.name === null ? null : { id: caller.accountId, name: caller.name });

/** A front door that forks the runs it owns itself (writing its own rows with the fork): see `ForkCommands.forkOwnedBy`. */
export type OwnedFork = (runId: string, body: ForkBody, caller: Identity) => Promise<Forked>;

export class ForkCommands {
  private readonly owners = new Map<RunOwnerKind, OwnedFork>();

  constructor(
    private readonly engine: Engine,
    private readonly ownerDoor: OwnerDoor,
  ) {}

  /** Runs that `kind` owns are forked through its own `fork` (the same rule, its own rows); the app registers each at start-up. */
  forkOwnedBy(kind: RunOwnerKind, fork: OwnedFork): void {
    this.owners.set(kind, fork);
  }

  /**
   * Forks run `runId` at `body.node_id`, as `caller`: refused (403) unless the fork rule lets her. A run another front
   * door owns is forked through that front door when it forks its runs (a YAML workflow's), refused (409) otherwise.
   */
  async fork(id: string, body: ForkBody, caller: Identity): Promise<Forked> {
    // Any front door's run id (a pipeline's RUN_...). Who owns a run never changes, so it is read without a lock; the
    // fork then locks the run first.
    const runId = await this.engine.engineRunIdOf(id);
    const { owner } = await this.engine.changeMarker(runId);
    const through = owner ? this.owners.get(owner.front_door) : undefined;
    if (through) return through(runId, body, caller);
    const run = await this.forkRun(runId, body, caller);
    return { run, path: flowRunPath(run.id) };
  }

  private forkRun(runId: string, body: ForkBody, caller: Identity): Promise<StitchRun> {
    return this.engine.fork({
      runId, nodeId: body.node_id, version: body.version, by: starterOf(caller),
      ...(body.input !== undefined ? { input: body.input } : {}), ...(body.feedback !== undefined ? { feedback: body.feedback } : {}),
      admit: async (tx, original, graph) => {
        if (original.owner) this.refuseOwned(original.id, original.owner);
        const waitingForCaller = caller.role === "operator" ? [] : await nodesWaitingFor(tx, original.id, caller);
        const why = whyNotFork({ caller, runId: original.id, startedBy: original.startedBy, nodeId: body.node_id, graph, waitingForCaller });
        if (why) throw new FlowError("forbidden", why);
      },
      alongside: async (_tx, forkId, original) => {
        nameAuditTarget("run", forkId);
        noteAudit("forked from", `run ${original.id} at ${body.node_id}`);
        noteAudit("version", body.version);
        if (body.feedback !== undefined) noteAudit("feedback", body.feedback);
      },
    });
  }

  /**
   * Operators: every run of flow `definition` that failed at or after `since` (and is failed still), forked at its
   * failed node (the first on the graph), each in its own transaction with its own audit entry; a run refused is
   * answered with why, the others are forked. `dry_run`: the runs are counted and named, none forked.
   */
  async forkFailed(body: ForkFailedBody, caller: Identity): Promise<ForkedFailures> {
    if (caller.role !== "operator") throw new FlowError("forbidden", "only operators may fork the failed runs of a flow at once; fork a run of your own from its page");
    const failed = await this.engine.failedRuns(body.definition, body.since);
    const runs: ForkedFailures["runs"] = [];
    for (const { runId, failed: nodes } of failed) {
      const nodeId = nodes[0] ?? null;
      const refusedWhy = nodeId === null ? "no node of its own failed (only a Collector, for a failed path)" : null;
      if (body.dry_run || refusedWhy) {
        runs.push({ run_id: runId, node_id: nodeId, fork: null, refused: refusedWhy });
        continue;
      }
      try {
        // Each fork is an action of its own in the audit trail (its target the new run), beside the request's own entry;
        // a run a front door owns is forked through that front door, as one fork is.
        const request = currentAuditScope();
        const forkOne = () => this.fork(runId, { node_id: nodeId!, version: "original" }, caller);
        const fork = await (request ? inAuditScope(newAuditScope({ ...request.subject, action: FORK_ACTION }), forkOne) : forkOne());
        runs.push({ run_id: runId, node_id: nodeId, fork: { run_id: fork.run.id, path: fork.path }, refused: null });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        runs.push({ run_id: runId, node_id: nodeId, fork: null, refused: error.message });
      }
    }
    return { count: failed.length, runs };
  }

  /** A run another front door owns is forked through that front door. */
  private refuseOwned(runId: string, owner: RunOwner): never {
    throw new EngineError(
      "conflict",
      `run ${runId} belongs to ${OWNER_NAMES[owner.front_door]} (${owner.run_id}), which does not fork its runs: a fork of it would bypass its front door's rules (its own door is ${this.ownerDoor(owner)})`,
    );
  }
}
