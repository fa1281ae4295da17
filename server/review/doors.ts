/**
 * How inline review reads and edits each front door's outputs. A door registers its `ReviewDoor`: the versions of the
 * output a decision reviews (the pipeline's artifact versions; a YAML approval's or a review gate's output, kept with
 * each of the node's decisions) and, where the door keeps versions of its own, how a person's edit becomes one.
 */
import type { Database } from "../../db/client";
import type { Decider, Decision } from "../decisions/schemas";
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
}

/**
 * The door for outputs kept with their decisions (YAML approvals, Stitch review gates): each decision of the node is
 * a version, the one before it the version it revises.
 */
export function decisionSnapshotsDoor(database: Database): ReviewDoor {
  return {
    async versions(decision) {
      const rows = await database.run((db) => store.reviewedOutputs(db, decision.engine_run_id, decision.node_id));
      const versions: StoredVersion[] = rows.map((row, i) => ({
        version: i + 1, revises: i === 0 ? null : i, output: row.reviewed, claim: null, created_at: row.waitingSince,
        author: { kind: "system", name: "the run's previous step", account_id: null },
      }));
      const underReview = rows.findIndex((row) => row.id === decision.id) + 1;
      const last = versions[versions.length - 1];
      return { format: typeof last?.output === "string" ? "text" : "json", artifactType: null, versions, underReview: underReview > 0 ? underReview : versions.length };
    },
  };
}
