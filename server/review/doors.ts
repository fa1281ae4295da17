/**
 * How inline review reads and edits each front door's outputs. A door registers its `ReviewDoor`: the versions of the
 * output a decision reviews (the pipeline's artifact versions; a YAML approval's or a review gate's output, kept with
 * each of the node's decisions) and, where the door keeps versions of its own, how a person's edit becomes one.
 */
import type { Executor } from "../../db/client";
import { admitDecider } from "../decisions/commands";
import type { Decider, Decision } from "../decisions/schemas";
import type { Engine } from "../engine/engine";
import { sameJson } from "../lib/json";
import { ReviewError } from "./errors";
import type { EditBody, OutputVersion, ReviewOutput } from "./schemas";
import * as store from "./store";

/** One version of a reviewed output, with the agent's own account of what it changed (its claim), if any. */
export interface StoredVersion extends OutputVersion {
  output: unknown;
  claim: { changes_made: unknown; justification: string } | null;
}

export interface ReviewedVersions {
  format: ReviewOutput["format"];
  artifactType: string | null;
  /** Oldest first; `version` counts from 1. */
  versions: StoredVersion[];
  /** The version the decision reviews (the latest while it is open; the one it was taken on once closed). */
  underReview: number;
}

export interface ReviewDoor {
  versions(decision: Decision): Promise<ReviewedVersions>;
  /** Saves the person's edited version as the one under review, with the door's rules (who may, what fits), in one transaction. */
  edit?(decision: Decision, body: EditBody, by: Decider): Promise<void>;
  /** Whether `edit` takes this decision's output (every decision's when absent). */
  edits?(decision: Decision): boolean;
}

/**
 * Only a Stitch review gate's output is edited here: its approval passes the reviewer's last edit on to the nodes after
 * it. A YAML approval's output belongs to the step that produced it, and the later steps read it from there: an edit
 * kept here would not reach them, so YAML approvals are not editable (request changes instead).
 */
const editsKeptHere = (decision: Pick<Decision, "front_door" | "kind">) => decision.front_door === "flow" && decision.kind === "review";

const person = (row: store.ReviewEditRow): StoredVersion["author"] => ({ kind: "person", name: row.authorName, account_id: row.authorId });

/** Every version of a node's output: each decision's reviewed snapshot, then that decision's edits in order. */
async function nodeVersions(db: Executor, engineRunId: string, nodeKey: string): Promise<{ versions: StoredVersion[]; lastOf: Map<string, number> }> {
  const rows = await store.reviewedOutputs(db, engineRunId, nodeKey);
  const edits = await store.editsOfNode(db, engineRunId, nodeKey);
  const versions: StoredVersion[] = [];
  const lastOf = new Map<string, number>();
  const add = (v: Omit<StoredVersion, "version" | "revises" | "claim">) => {
    const version = versions.length + 1;
    versions.push({ ...v, version, revises: version === 1 ? null : version - 1, claim: null });
    return version;
  };
  for (const row of rows) {
    let last = add({ output: row.reviewed, created_at: row.waitingSince, author: { kind: "system", name: "the run's previous step", account_id: null } });
    for (const e of edits.filter((x) => x.decisionId === row.id)) last = add({ output: e.output, created_at: e.createdAt, author: person(e) });
    lastOf.set(row.id, last);
  }
  return { versions, lastOf };
}

/**
 * The door for outputs kept with their decisions (YAML approvals, Stitch review gates): each decision of the node is
 * a version, followed by the reviewer's edits of it (a review gate's), each revising the one before.
 */
export function decisionSnapshotsDoor(engine: Engine): ReviewDoor {
  return {
    async versions(decision) {
      const { versions, lastOf } = await engine.database.run((db) => nodeVersions(db, decision.engine_run_id, decision.node_id));
      const underReview = lastOf.get(decision.id) ?? versions.length;
      const last = versions[versions.length - 1];
      return { format: typeof last?.output === "string" ? "text" : "json", artifactType: null, versions, underReview };
    },
    edits: editsKeptHere,
    async edit(decision, body, by) {
      if (!editsKeptHere(decision)) throw new ReviewError("conflict", `the output of "${decision.title}" belongs to the step that produced it and is not edited here: request changes instead`);
      await engine.onRun(decision.engine_run_id, async (_ops, tx) => {
        const open = await admitDecider(tx, decision.engine_run_id, decision.node_id, by);
        if (!open || open.id !== decision.id) throw new ReviewError("conflict", `"${decision.title}" waits for no decision now; there is nothing to edit`);
        const { versions, lastOf } = await nodeVersions(tx, decision.engine_run_id, decision.node_id);
        const current = versions.find((v) => v.version === lastOf.get(decision.id));
        if (!current) throw new ReviewError("not_found", `"${decision.title}" has no output to review`);
        if (typeof current.output === "string") {
          if (typeof body.output !== "string" || body.output.trim() === "") throw new ReviewError("bad_request", "output: write the edited text (a text output cannot be empty)");
        } else if (body.output === undefined) {
          throw new ReviewError("bad_request", "output: give the edited JSON value");
        }
        if (sameJson(current.output, body.output)) throw new ReviewError("bad_request", `output: it is the same as v${current.version}; the edit changes nothing`);
        await store.insertEdit(tx, {
          decisionId: decision.id, engineRunId: decision.engine_run_id, nodeKey: decision.node_id, output: body.output,
          authorId: by.accountId, authorName: by.name ?? "a reviewer", note: body.note?.trim() || null,
        });
      });
    },
  };
}

/**
 * The output a review gate's approval passes on: the latest edit of the node's open decision, when the reviewer edited
 * it. Called by the flows front door inside its transaction (after admitDecision), before it hands the engine the approval.
 */
export async function editedOutput(tx: Executor, decision: Pick<Decision, "engine_run_id" | "node_id">): Promise<{ output: unknown } | undefined> {
  const row = await store.latestEditOfOpenDecision(tx, decision.engine_run_id, decision.node_id);
  return row ? { output: row.output } : undefined;
}
