/**
 * A YAML run's stored turns told in the one turn vocabulary (server/conversation/turn.ts): its message as the input,
 * each node starting, answering (an output, a loop's iteration, an approval's revision), failing, skipped or waiting
 * for a person, the person's decisions (approve, request changes, a reply to a loop), retries, resumptions and a
 * fork's origin, and how the run ended. Each stored turn's payload is parsed with its kind's schema (storedTurns.ts).
 */
import type { NodeRow } from "../../engine/transition";
import { type WorkflowDefinition, rejectionOutcome } from "./definition";
import { substitute } from "./references";
import type { WorkflowRunView, WorkflowTurn } from "./schemas";
import { StoredPayload } from "./storedTurns";
import type * as store from "../store";

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const text = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value));

type Envelope = Pick<WorkflowTurn, "id" | "at" | "who" | "node" | "attempt">;
type Responder = { responder?: string | undefined; model?: string | undefined };

/** The run's turns, oldest first; `rows` are its nodes' rows (an approval's message reads the outputs before it). */
export function conversationTurns(view: WorkflowRunView, definition: WorkflowDefinition, stored: readonly store.TurnRow[], rows: readonly NodeRow[]): WorkflowTurn[] {
  const nodes = new Map(definition.nodes.map((n) => [n.id, n]));
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const outputOf = (id: string) => {
    const r = byKey.get(id);
    return r ? { status: r.status, output: text(r.output) ?? "" } : undefined;
  };
  const out: WorkflowTurn[] = [];
  // Who answered, per node, until that node's output: nodes running at once write their turns interleaved.
  const responders = new Map<string | null, Responder>();
  // The reviewer's last reason per approval: what its revision (its next start) revises with.
  const rejections = new Map<string | null, string>();
  // The kind of the stored turn before this one (responders aside): the run's cancelled outcome repeats a cancellation.
  let before: string | undefined;
  for (const turn of stored) {
    const { kind } = turn;
    const afterCancellation = before === "cancelled";
    if (kind !== "responder") before = kind;
    const node = turn.nodeId === null ? null : { id: turn.nodeId, label: turn.nodeId, type: nodes.get(turn.nodeId)?.kind ?? "unknown" };
    const envelope = (attempt: number | null = null): Envelope => ({ id: `t${turn.id}`, at: iso(turn.createdAt), who: turn.actor, node, attempt });
    const output = (value: unknown, fields: Responder & { iteration?: number; prompt?: string; feedback?: string }, attempt: number | null = null) => {
      const answered = { ...responders.get(turn.nodeId), ...fields };
      responders.delete(turn.nodeId);
      out.push({
        kind: "output", ...envelope(attempt),
        body: {
          value: text(value) ?? "", iteration: fields.iteration ?? null, prompt: fields.prompt ?? null, output_type: (turn.nodeId && nodes.get(turn.nodeId)?.output_type) || null,
          responder: answered.responder ?? null, model: answered.model ?? null, feedback: fields.feedback ?? null,
        },
      });
    };
    const decided = (decision: "approve" | "request_changes" | "answer", words: string | null | undefined, extra: Partial<{ edited: boolean; cancelled_run: boolean; limit: number | null }> = {}) =>
      out.push({ kind: "decided", ...envelope(), body: { decision, text: words || null, value: null, edited: false, cancelled_run: false, limit: null, ...extra } });
    switch (kind) {
      case "message": {
        const { text: message, inputs } = StoredPayload.message.parse(turn.payload);
        out.push({ kind: "input", ...envelope(), body: { value: message, inputs: inputs ?? null } });
        break;
      }
      case "responder":
        responders.set(turn.nodeId, StoredPayload.responder.parse(turn.payload));
        break;
      case "started": {
        const { attempt, rejection_work } = StoredPayload.started.parse(turn.payload);
        const revising = rejection_work === true;
        out.push({ kind: "started", ...envelope(attempt), body: { revising, feedback: revising ? (rejections.get(turn.nodeId) ?? null) : null } });
        break;
      }
      case "output":
        output(StoredPayload.output.parse(turn.payload).output, {});
        break;
      case "iteration": {
        const { iteration, attempt, prompt, output: answer, responder, model } = StoredPayload.iteration.parse(turn.payload);
        output(answer, { iteration, prompt, responder, model }, attempt ?? null);
        break;
      }
      case "followup": {
        const { output: answer, reason, responder, model } = StoredPayload.followup.parse(turn.payload);
        output(answer, { feedback: reason, responder, model });
        break;
      }
      case "waiting": {
        const shown = text(StoredPayload.waiting.parse(turn.payload)?.iteration_output);
        const waiting = turn.nodeId ? nodes.get(turn.nodeId) : undefined;
        const body = waiting?.kind === "approval"
          // What "Request changes" does at this wait, by the rule `reject` applies: the turns written before it.
          ? { gate: "approval" as const, prompt: safeSubstitute(waiting.approval.message, view, outputOf), on_reject: rejectionOutcome(waiting, stored.filter((t) => t.id < turn.id)) }
          : { gate: "reply" as const, prompt: waiting?.kind === "loop" ? (waiting.loop.gate_message ?? null) : null, on_reject: null };
        out.push({ kind: "waiting", ...envelope(), body: { ...body, value: shown } });
        break;
      }
      case "skipped":
        out.push({ kind: "skipped", ...envelope(), body: { reason: StoredPayload.skipped.parse(turn.payload).reason ?? "" } });
        break;
      case "failed": {
        const { error, retrying } = StoredPayload.failed.parse(turn.payload);
        out.push({ kind: "failed", ...envelope(), body: { error: error ?? "", retrying: retrying === true } });
        break;
      }
      case "approved": {
        const { comment, edited } = StoredPayload.approved.parse(turn.payload);
        decided("approve", comment, { edited: edited === true });
        break;
      }
      case "rejected": {
        const { reason, limit } = StoredPayload.rejected.parse(turn.payload);
        rejections.set(turn.nodeId, reason ?? "");
        decided("request_changes", reason, limit === undefined ? {} : { cancelled_run: true, limit });
        break;
      }
      case "input":
        decided("answer", StoredPayload.input.parse(turn.payload).text);
        break;
      case "cancelled":
        // The cancellation is how the run ended: told once, with its reason and who cancelled (see "outcome").
        out.push({ kind: "outcome", ...envelope(), body: { status: "cancelled", reason: StoredPayload.cancelled.parse(turn.payload).reason ?? null } });
        break;
      case "outcome": {
        const { status } = StoredPayload.outcome.parse(turn.payload);
        if (status !== "cancelled" || !afterCancellation) out.push({ kind: "outcome", ...envelope(), body: { status, reason: null } });
        break;
      }
      case "retried":
        out.push({ kind: "system", ...envelope(), body: { event: "retried" } });
        break;
      case "resumed":
        out.push({ kind: "system", ...envelope(), body: { event: "resumed" } });
        break;
      case "forked": {
        // The fork's first turn: the run it came from and the nodes it copied from it; its input is its message turn.
        const { from_run_id, copied, decided: kept } = StoredPayload.forked.parse(turn.payload);
        out.push({ kind: "system", ...envelope(), body: { event: "forked", from_run_id, feedback: null, value: null, decided: kept ?? {}, copied } });
        break;
      }
    }
  }
  return out;
}

/** An approval's message with its references filled in; a reference that cannot be read shows as written. */
function safeSubstitute(message: string, view: WorkflowRunView, outputOf: (id: string) => { status: string; output: string } | undefined): string {
  try {
    return substitute(message, { runMessage: view.message, runId: view.id, outputOf }, { unresolvable: "empty" });
  } catch {
    return message;
  }
}
