/**
 * How inline review reads and edits each front door's outputs. A door registers its `ReviewSource`: the versions of the
 * output a decision reviews (the pipeline's artifact versions; a YAML approval's or a review gate's output, kept with
 * each of the node's decisions) and how a person's edit becomes one.
 */
import type { Executor } from "../../db/client";
import { admitDecider } from "../decisions/commands";
import type { Decider, Decision } from "../decisions/schemas";
import type { Engine } from "../engine/engine";
import { sameJson } from "../lib/json";
import type { SchemaField } from "../lib/schemaFields";
import { ReviewError } from "./errors";
import type { ClaimMismatch, DiffChange, EditBody, EditProblem, OutputVersion, ReviewOutput } from "./schemas";
import * as store from "./store";

/** One version of a reviewed output, with the agent's own account of what it changed (its claim), if any. */
export interface StoredVersion extends OutputVersion {
  output: unknown;
  claim: { changes_made: unknown; justification: string } | null;
  /**
   * What the agent that made this version says it did with each comment sent to it (`comment_outcomes`); undefined
   * when it says nothing of them (an agent that reads only the feedback text).
   */
  commentOutcomes?: { anchor: string; done: boolean }[];
}

export interface ReviewedVersions {
  format: ReviewOutput["format"];
  artifactType: string | null;
  /** Oldest first; `version` counts from 1. */
  versions: StoredVersion[];
  /** The version the decision reviews (the latest while it is open; the one it was taken on once closed). */
  underReview: number;
}

export interface ReviewSource {
  versions(decision: Decision): Promise<ReviewedVersions>;
  /** Saves the person's edited version as the one under review, with the door's rules (who may, what fits), in one transaction. */
  edit?(decision: Decision, body: EditBody, by: Decider): Promise<void>;
  /** Whether `edit` takes this decision's output (every decision's when absent). */
  edits?(decision: Decision): Promise<boolean>;
  /** What keeps `output` from being saved as an edit of `read`'s version under review, by the rules `edit` applies (none: it can be). */
  editProblems?(read: ReviewedVersions, output: unknown): EditProblem[];
  /** The fields the output's schema names, for the editor (none when the output has no schema). */
  fields?(read: ReviewedVersions): SchemaField[];
  /** Where an agent's own account of a revision (its `changes_made`) and the computed diff disagree (none checked: no mismatch shown). */
  claimMismatches?(changesMade: unknown, changes: DiffChange[]): ClaimMismatch[];
}

/** A snapshot's edit: a text stays a non-empty text; anything else must be some JSON value. */
function snapshotEditProblems(current: unknown, output: unknown): EditProblem[] {
  if (typeof current === "string") return typeof output === "string" && output.trim() !== "" ? [] : [{ path: "", message: "write the edited text (a text output cannot be empty)" }];
  return output === undefined ? [{ path: "", message: "give the edited JSON value" }] : [];
}

/**
 * The node whose output an edit of what `decision` reviews replaces (engine `editedSource`): a Stitch review gate's
 * Worker (the gate passes the edit on when approved; the Worker revises it after a request for changes), a YAML
 * approval's one step before it (the approval's edit replaces that step's output, which the later steps read by
 * `$step.output`). Undefined where there is no one output to replace: an approval after several steps, or none.
 */
async function editedSource(engine: Engine, decision: Pick<Decision, "front_door" | "kind" | "engine_run_id" | "node_id">): Promise<string | undefined> {
  const reviewsAnOutput = (decision.front_door === "flow" && decision.kind === "review") || (decision.front_door === "yaml" && decision.kind === "approval");
  return reviewsAnOutput ? engine.editedSource(decision.engine_run_id, decision.node_id) : undefined;
}

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
 * a version, followed by the reviewer's edits of it, each revising the one before.
 */
export function decisionSnapshotsSource(engine: Engine): ReviewSource {
  return {
    async versions(decision) {
      const { versions, lastOf } = await engine.database.run((db) => nodeVersions(db, decision.engine_run_id, decision.node_id));
      const underReview = lastOf.get(decision.id) ?? versions.length;
      const last = versions[versions.length - 1];
      return { format: typeof last?.output === "string" ? "text" : "json", artifactType: null, versions, underReview };
    },
    edits: async (decision) => (await editedSource(engine, decision)) !== undefined,
    editProblems: (read, output) => snapshotEditProblems(read.versions.find((v) => v.version === read.underReview)?.output, output),
    async edit(decision, body, by) {
      const source = await editedSource(engine, decision);
      if (source === undefined) {
        throw new ReviewError("conflict", `"${decision.title}" reviews no one step's output (several steps', or the run's input): there is nothing one edit can replace; request changes instead`);
      }
      await engine.onRun(decision.engine_run_id, async (run, tx) => {
        const open = await admitDecider(tx, decision.engine_run_id, decision.node_id, by);
        if (!open || open.id !== decision.id) throw new ReviewError("conflict", `"${decision.title}" waits for no decision now; there is nothing to edit`);
        const produced = await run.nodeRow(source);
        if (produced?.status !== "completed") throw new ReviewError("conflict", `"${source}", whose output "${decision.title}" reviews, is ${produced?.status ?? "absent"}; there is no output to edit`);
        const { versions, lastOf } = await nodeVersions(tx, decision.engine_run_id, decision.node_id);
        const current = versions.find((v) => v.version === lastOf.get(decision.id));
        if (!current) throw new ReviewError("not_found", `"${decision.title}" has no output to review`);
        const problems = snapshotEditProblems(current.output, body.output);
        if (problems.length > 0) throw new ReviewError("bad_request", `output: ${problems[0]!.message}`);
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
 * The reviewer's edited version of what the node's open decision reviews: its latest edit, when she edited it. Called by
 * the flows and YAML front doors inside their transaction (after admitDecision), before they hand the engine the
 * decision: an approval passes it on (it replaces the reviewed step's output), a request for changes has it revised.
 */
export async function editedOutput(tx: Executor, decision: Pick<Decision, "engine_run_id" | "node_id">): Promise<{ output: unknown } | undefined> {
  const row = await store.latestEditOfOpenDecision(tx, decision.engine_run_id, decision.node_id);
  return row ? { output: row.output } : undefined;
}
