/**
 * One output under review as its parts' comment buttons and threads see it: the decision, whether new comments may be
 * written (it is open), who may resolve a thread, the threads by part, and the one comment being written now.
 */
import { createContext, useContext } from "react";
import type { Me } from "../../../lib/trpc";
import { roleAllows } from "../../../lib/session";
import type { Thread, Threads } from "../utils/threads";

export interface CommentTarget {
  anchor: string;
  label: string;
  /** A selection inside the part; the part's own text when omitted. */
  quote?: string;
}

export interface ReviewSession {
  decisionId: string;
  /** The version under review (what "changed in vN" names). */
  version: number;
  /** New threads only while the decision is open. */
  canComment: boolean;
  /** Who is signed in: undefined outside the sign-in gate. */
  me: Me | null | undefined;
  threads: Threads;
  composing: CommentTarget | null;
  startComment(target: CommentTarget): void;
  stopComment(): void;
  /** Whether the comments sit in a margin beside the output (wide screens) rather than under each part. */
  margin: boolean;
}

const SessionContext = createContext<ReviewSession | null>(null);
export const ReviewSessionProvider = SessionContext.Provider;

export function useReviewSession(): ReviewSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useReviewSession: outside an output under review");
  return session;
}

/** A thread is resolved or re-opened by its author or a reviewer (the server's rule; it refuses anyone else). */
export function mayResolve(thread: Thread, me: Me | null | undefined): boolean {
  if (me === undefined) return true;
  if (me === null) return false;
  return thread.root.author.id === me.id || roleAllows(me.role, "reviewer");
}
