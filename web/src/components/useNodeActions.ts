/**
 * What the node actions of a run told as a conversation share, whichever front door's run it is (a flow's gates, a
 * YAML run's approvals and replies): one mutation per kind of action, each answering for the node it was sent for; a
 * new action forgets the refusal of the previous one; and a decision on a wait the server refused because someone
 * decided first (409) is kept, with its text, for the card under that wait, which says what happened after the wait
 * and, when the same node waits again, offers to send the kept text to that newer wait. Each door says how its turns
 * name their node, which of them decide a wait, and how it sends a decision.
 */
import type { RefusedDecisionCardProps, ResendControl } from "./RefusedDecisionCard";
import { type RefusedDecision, useRefusedDecision } from "../lib/refusedDecision";
import type { CommonTurn } from "./turns";

/** What the hook reads of a mutation: the node it was sent for, whether it is under way, and the server's refusal. */
export interface NodeMutation {
  variables?: { nodeId: string } | undefined;
  isPending: boolean;
  error: unknown;
  reset(): void;
}

/** How a door's turns tell its waits and their decisions. */
export interface RunWaits<T> {
  /** The node a turn is about; null for a turn about the whole run. */
  nodeOf(turn: T): string | null;
  /** Where `turn` decided its node's wait, what was done, as "approved Review"; null for any other turn. */
  decided(turn: T): string | null;
  /** How the resend names the node waiting again (its wait, when found): its id unless given. */
  label?(wait: T | undefined, nodeId: string): string;
}

type Action = RefusedDecision["action"];

/** What happened after the wait `waitId`, for a refused decision's card: who decided its node, or that the run was cancelled. */
export function changeAfter<T extends CommonTurn>(turns: readonly T[], waitId: string, waits: RunWaits<T>): string | null {
  const wait = turns.findIndex((t) => t.id === waitId);
  const node = turns[wait] ? waits.nodeOf(turns[wait]) : undefined;
  for (const turn of turns.slice(wait + 1)) {
    const who = turn.who ?? "Someone";
    if (turn.kind === "outcome" && turn.body.status === "cancelled") return `${who} cancelled the run.`;
    const did = waits.nodeOf(turn) === node ? waits.decided(turn) : null;
    if (did) return `${who} ${did}.`;
  }
  return null;
}

/** Answers true once the server accepted what was sent, false when it refused (its error stays on the mutation, shown by the composer). */
export const accepted = (sent: Promise<unknown>): Promise<boolean> =>
  sent.then(
    () => true,
    () => false,
  );

export function useNodeActions<Kind extends string, T extends CommonTurn>(door: {
  /** The run's refused decision, kept per run: "flow:<run id>". */
  scope: string;
  /** Every kind of action on a node, named, with its mutation. */
  mutations: readonly (readonly [Kind, NodeMutation])[];
  /** The mutations that send a decision on a wait (their progress and refusal show on the resend). */
  deciders: readonly NodeMutation[];
  /** Sends a person's decision on the node; `text` is the comment or the request for changes. */
  send(nodeId: string, action: Action, text: string): Promise<unknown>;
  /** Where the composer of the wait keeps its draft, forgotten with a refusal. */
  draftKey(nodeId: string, waitId: string): string;
  /** Reads the run again once a refusal was kept: the run has moved on. */
  refresh(): void;
  turns: readonly T[];
  /** The waits that can be answered now. */
  awaiting: ReadonlySet<string>;
  waits: RunWaits<T>;
}) {
  const { turns, waits } = door;
  const refusal = useRefusedDecision(door.scope);
  const forget = () => door.mutations.forEach(([, mutation]) => mutation.reset());
  const sentFor = (nodeId: string) => door.mutations.find(([, mutation]) => mutation.variables?.nodeId === nodeId && (mutation.isPending || mutation.error));
  /** A decision on the wait `waitId`: true once accepted; one refused with 409 is kept (with its text and draft) for the card under that wait. */
  const decide = (nodeId: string, action: Action, text: string, waitId: string) => {
    forget();
    return refusal.settle(door.send(nodeId, action, text), { action, text, target: waitId, draftKey: door.draftKey(nodeId, waitId) }, () => {
      forget();
      door.refresh();
    });
  };
  /** The refused text sent again on the node's newer wait (its work was revised after a request for changes); the card goes once accepted. */
  const resendOf = (found: RefusedDecision, nodeId: string, label: string, newer: string): ResendControl => ({
    label: "Send against the new version",
    consequence:
      found.action === "approve"
        ? `Approves ${label} as it waits now${found.text ? ", with this comment" : ""}; read the new version first.`
        : `Sends this request for changes on ${label} as it waits now.`,
    pending: door.deciders.some((mutation) => mutation.isPending),
    error: door.deciders.find((mutation) => mutation.error)?.error ?? null,
    onSend: () => void decide(nodeId, found.action, found.text, newer).then((sent) => sent && refusal.forget(found)),
  });
  return {
    forget,
    decide,
    /** The kind of action under way on the node, if any. */
    pending(nodeId: string): Kind | null {
      const found = sentFor(nodeId);
      return found?.[1].isPending ? found[0] : null;
    },
    /** The refusal of the latest action on the node, if any. */
    error: (nodeId: string): unknown => sentFor(nodeId)?.[1].error ?? null,
    /** The decision on the wait `waitId` the server refused because someone decided first, with what changed. */
    refused(waitId: string): Pick<RefusedDecisionCardProps, "refused" | "change" | "onDiscard" | "resend"> | null {
      const found = refusal.refused;
      if (found?.target !== waitId) return null;
      // The same node waiting again (its work was revised after a request for changes): the text can go to that wait.
      const wait = turns.find((t) => t.id === waitId);
      const nodeId = (wait ? waits.nodeOf(wait) : null) ?? "";
      const newer = turns.find((t) => t.kind === "waiting" && waits.nodeOf(t) === nodeId && t.id !== waitId && door.awaiting.has(t.id));
      const label = waits.label ? waits.label(wait, nodeId) : nodeId;
      return { refused: found, change: changeAfter(turns, waitId, waits), onDiscard: () => refusal.forget(), resend: newer ? resendOf(found, nodeId, label, newer.id) : null };
    },
  };
}
