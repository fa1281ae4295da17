/**
 * The decisions a run waits for, as every page that shows a run reads them: who each is for, since when, until when,
 * and whether the signed-in person may take it. A page shows the decision controls to whoever may take the decision,
 * and to anyone else who it waits for ("Waiting for Rita Ramos since 10:02"), never "your review".
 */
import { usePollInterval } from "./runChanges";
import { roleAllows, useSession } from "./session";
import { type Decision, type Me, type Role, trpc } from "./trpc";

/** How often a waiting run's decisions are read again: someone may claim, release or reassign one meanwhile. */
const decisionsPollMs = 3000;

/**
 * The open decisions of a run (the front door's id of it: a pipeline's `RUN_...`, a workflow's or a flow's run id),
 * read while `waiting` and polled (unless the page watches the run's changes); nothing is asked while the run waits for no one.
 */
export function useOpenDecisions(runId: string, waiting: boolean) {
  const interval = usePollInterval(decisionsPollMs);
  const query = trpc.decisions.list.useQuery({ view: "all", state: "open", run_id: runId, limit: 50 }, { enabled: waiting, refetchInterval: waiting ? interval : false });
  const items = waiting ? query.data?.items : undefined;
  return {
    /** The open decision of one node (of one engine run, when the front door's run has several), or undefined while unknown. */
    of(nodeId: string, engineRunId?: string): Decision | undefined {
      return items?.find((d) => d.node_id === nodeId && (engineRunId === undefined || d.engine_run_id === engineRunId));
    },
    /** The run's one open decision, when it has one (a pipeline waits for one review at a time). */
    only(): Decision | undefined {
      return items?.length === 1 ? items[0] : undefined;
    },
  };
}

/** What happened to a run's decisions (claims, assignments, approvals, reminders, escalations), polled like them. */
export function useDecisionActivity(runId: string) {
  return trpc.decisions.activity.useQuery({ runId }, { refetchInterval: usePollInterval(decisionsPollMs) });
}

const ROLES: readonly string[] = ["analyst", "reviewer", "operator"] satisfies Role[];

/**
 * Whether `me` may take the decision, by the server's rules (server/decisions/commands.ts `admitDecision`): it is
 * open; it is assigned to me, or to a role mine covers when it is assigned to no one; when it does not allow
 * self-approval (`self_approval: false`, the pipeline's reviews by default), I did not start its run; and I have not
 * given one of its approvals already. Hiding is for the person in front of the screen: the server refuses either way.
 */
export function mayDecide(decision: Decision, me: Me | null): boolean {
  if (!me || decision.state !== "open") return false;
  const { assignee } = decision;
  if (assignee.kind === "account" ? assignee.id !== me.id : !ROLES.includes(assignee.role) || !roleAllows(me.role, assignee.role as Role)) return false;
  if (!decision.self_approval && me.id !== null && decision.started_by?.id === me.id) return false;
  return !decision.approvals.some((approval) => approval.by === me.name);
}

/**
 * Whether the signed-in person may take the decision; with no decision known (not read yet, or none recorded),
 * whether their role may decide at all. Outside the sign-in gate (a component on its own) nothing is hidden.
 */
export function useMayDecide(decision: Decision | undefined): boolean {
  const me = useSession();
  if (me === undefined) return true;
  return decision ? mayDecide(decision, me) : roleAllows(me?.role, "reviewer");
}
