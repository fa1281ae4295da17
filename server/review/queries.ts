/**
 * What inline review reads: the output a decision reviews with every part a comment can point at, its comments (where
 * each one's part is now, and whether it changed), a person's unsent feedback, and the diff between two versions.
 */
import type { Database } from "../../db/client";
import { mayDecide } from "../decisions/commands";
import type { DecisionQueries } from "../decisions/queries";
import type { Decider, Decision } from "../decisions/schemas";
import { sameJson } from "../lib/json";
import { anchorsOf, relocate, valueAt } from "./anchors";
import type { ReviewSource, ReviewedVersions, StoredVersion } from "./sources";
import { ReviewError } from "./errors";
import { diffOutputs } from "./diff";
import type { AnchorInfo, Draft, EditCheck, ReviewComment, ReviewDiff, ReviewOutput } from "./schemas";
import * as store from "./store";

/** Whose draft a caller's is: their account, or one shared "anonymous" when the server runs without sign-in. */
export const draftOwner = (by: Decider) => by.accountId ?? "anonymous";

/**
 * What the agent says of the comment on `anchor` in the latest version after `from` (up to `to`) that answers it:
 * true done, false not done, undefined when no version in between answers comments on that part.
 */
export function claimedDone(versions: readonly StoredVersion[], anchor: string, from: number, to: number): boolean | undefined {
  const answering = versions.filter((v) => v.version > from && v.version <= to && v.commentOutcomes?.some((outcome) => outcome.anchor === anchor)).at(-1);
  return answering?.commentOutcomes?.filter((outcome) => outcome.anchor === anchor).every((outcome) => outcome.done);
}

export class ReviewQueries {
  constructor(
    private readonly database: Database,
    private readonly decisions: DecisionQueries,
    private readonly sourceOf: (decision: Decision) => ReviewSource,
  ) {}

  /** The decision alone (a draft, or a comment's thread, needs no versions). */
  decision(decisionId: string): Promise<Decision> {
    return this.decisions.get(decisionId);
  }

  /** The decision and its output's versions; a decision that reviews no output (a question, a completion) is 404. */
  async reviewed(decisionId: string): Promise<{ decision: Decision; source: ReviewSource; read: ReviewedVersions; current: StoredVersion }> {
    const decision = await this.decisions.get(decisionId);
    const source = this.sourceOf(decision);
    const read = await source.versions(decision);
    const current = read.versions.find((v) => v.version === read.underReview);
    if (!current) throw new ReviewError("not_found", `"${decision.title}" has no output to review (it is ${decision.kind === "answer" ? "a question" : `a ${decision.kind}`})`);
    return { decision, source, read, current };
  }

  /** An edit checked as she types, by the rules saving it applies (the artifact type's schema; a text not emptied); nothing is saved. */
  async checkEdit(decisionId: string, output: unknown): Promise<EditCheck> {
    const { source, read } = await this.reviewed(decisionId);
    return { problems: source.editProblems?.(read, output) ?? [] };
  }

  async output(decisionId: string, by: Decider): Promise<ReviewOutput> {
    const { decision, source, read, current } = await this.reviewed(decisionId);
    return {
      decision_id: decision.id, format: read.format, artifact_type: read.artifactType, output: current.output, version: current.version,
      author: current.author, versions: read.versions.map(({ version, revises, author, created_at }) => ({ version, revises, author, created_at })),
      claim: current.claim, anchors: anchorsOf(current.output),
      editable: source.edit !== undefined && mayDecide(decision, by) && ((await source.edits?.(decision)) ?? true),
      fields: source.fields?.(read) ?? [],
    };
  }

  /** Moves whenever a comment of the engine run is written, resolved, re-opened or sent with a request for changes. */
  async changeMarker(engineRunId: string): Promise<string> {
    return `r${await this.database.run((db) => store.changeMarker(db, engineRunId))}`;
  }

  async comments(decisionId: string): Promise<{ items: ReviewComment[] }> {
    const { decision, read, current } = await this.reviewed(decisionId);
    const rows = await this.database.run((db) => store.listComments(db, decision.engine_run_id, decision.node_id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const outputOf = (version: number) => read.versions.find((v) => v.version === version)?.output;
    let listed: AnchorInfo[] | undefined;
    const anchorsNow = () => (listed ??= anchorsOf(current.output));
    return {
      items: rows.map((row): ReviewComment => {
        const thread = row.replyTo ? (byId.get(row.replyTo) ?? row) : row;
        const currentAnchor = relocate(current.output, row.anchor, row.quote, anchorsNow);
        const differs = currentAnchor !== null && row.version !== current.version && !sameJson(valueAt(outputOf(row.version), row.anchor), valueAt(current.output, currentAnchor));
        // "Changed" is shown only where the part differs and, when the agent answered the comment, it says it did it:
        // a part that moved for another reason while the agent reports the comment not done was not changed for her.
        const changed = differs && claimedDone(read.versions, row.anchor, row.version, current.version) !== false;
        return {
          id: row.id, decision_id: row.decisionId, version: row.version, anchor: row.anchor, label: row.label, quote: row.quote, text: row.text,
          reply_to: row.replyTo, author: { id: row.authorId, name: row.authorName }, created_at: row.createdAt,
          resolved: thread.resolvedAt !== null, resolved_by: thread.resolvedBy, outdated: currentAnchor === null, changed, current_anchor: currentAnchor,
          sent_with_version: thread.sentWithVersion,
        };
      }),
    };
  }

  /**
   * What changed between two versions: by default the one under review and the one it revises; `against` picks the
   * older one, `version` the newer. With the newer version's claim (the agent's `changes_made`) and where they disagree.
   */
  async diff(decisionId: string, query: { against?: number | undefined; version?: number | undefined }): Promise<ReviewDiff> {
    const { decision, source, read } = await this.reviewed(decisionId);
    const numbers = read.versions.map((v) => v.version);
    const range = numbers.length === 1 ? "version 1 only" : `versions 1 to ${numbers.length}`;
    const to = read.versions.find((v) => v.version === (query.version ?? read.underReview));
    if (!to) throw new ReviewError("bad_request", `version: this output has ${range}`);
    const fromNumber = query.against ?? to.revises ?? to.version - 1;
    const from = read.versions.find((v) => v.version === fromNumber);
    if (!from) {
      throw new ReviewError("bad_request", query.against === undefined ? `version ${to.version} revises no earlier version: there is nothing to compare it with` : `against: this output has ${range}`);
    }
    const { changes, unchanged } = diffOutputs(from.output, to.output);
    return {
      decision_id: decision.id, from_version: from.version, to_version: to.version, changes, unchanged, claim: to.claim,
      mismatches: to.claim && to.author.kind === "agent" ? (source.claimMismatches?.(to.claim.changes_made, changes) ?? []) : [],
    };
  }

  async draft(decisionId: string, by: Decider): Promise<Draft> {
    const decision = await this.decision(decisionId);
    const found = await this.database.run((db) => store.draftOf(db, decision.id, draftOwner(by)));
    return { decision_id: decision.id, text: found?.text ?? "", updated_at: found?.updatedAt ?? null };
  }
}
