/**
 * The one line a decided output folds to: what was decided, by whom and when, and what the version changed
 * ("Approved by Rita Ramos · 10:32 · 2 added, 1 modified"). Pure, so the wording is tested without a page.
 */
import type { Envelope } from "../../../components/artifacts/shape";
import { formatDayTime } from "../../../lib/time";
import type { ArtifactNote } from "./annotate";

const decisionWords = { approve: "Approved", request_changes: "Changes requested" } as const;

/** "2 added, 1 modified"; "first version" for a version that revises none; "no changes listed" for a revision without its list. */
export function changeSummary(changes: Envelope["changes"], isRevision: boolean): string {
  if (!isRevision) return "first version";
  const counted = (["added", "modified", "removed"] as const).filter((group) => (changes?.[group].length ?? 0) > 0).map((group) => `${changes![group].length} ${group}`);
  return counted.length > 0 ? counted.join(", ") : "no changes listed";
}

export function decidedLine(note: Pick<ArtifactNote, "decided" | "superseded" | "isRevision">, changes: Envelope["changes"], now: number = Date.now()): string {
  const parts: string[] = [];
  if (note.decided) parts.push(`${decisionWords[note.decided.decision]}${note.decided.who ? ` by ${note.decided.who}` : ""} · ${formatDayTime(note.decided.at, now)}`);
  else if (note.superseded) parts.push("Superseded by a newer version");
  parts.push(changeSummary(changes, note.isRevision));
  return parts.join(" · ");
}
