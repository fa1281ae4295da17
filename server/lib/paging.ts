/**
 * Keyset paging for the run lists: newest first, `limit` items a page (default 50, at most 200), and an opaque
 * cursor, `before`, naming the last item a page answered (its creation time to the microsecond and its id), so a page
 * starts right after it whatever was created or changed meanwhile: every item is answered once across the pages.
 * A cursor that does not decode is a 400 (`invalid_cursor`); nothing it holds reaches SQL unchecked.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { z } from "zod";
import { Refusal } from "./refusal";

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

/** The paging parameters every list takes, on REST and tRPC alike. */
export const PageParams = z.object({
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).optional().describe(`Items a page: default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}.`),
  before: z.string().min(1).max(1024).optional().describe("The cursor of the page before (`next_cursor`, or the X-Next-Cursor header): the page starts after its last item."),
});
export type PageParams = z.infer<typeof PageParams>;

/** A page: its items and, when there are more, the cursor of the next (null on the last page). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Where an item sits in the order: its creation time (UTC, microseconds) and its id. */
export interface CursorKey {
  at: string;
  id: string;
}

/** An item with its place in the order, as a store reads it. */
export interface Keyed<T> {
  key: CursorKey;
  item: T;
}

export class PagingError extends Refusal<"bad_request"> {
  override readonly answerCode = "invalid_cursor";
  constructor(message: string) {
    super("bad_request", message);
  }
}

const AT = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Run ids that are not UUIDs (`RUN_...`) are printable ASCII: no NUL, no lone surrogate reaches the database. */
const TEXT_ID = /^[\x21-\x7e]{1,256}$/;

/** Whether the date and time exist (no 30 February): what the database would refuse never reaches it. */
function isRealTime(at: string): boolean {
  const ms = Date.parse(`${at.slice(0, 23)}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === at.slice(0, 23);
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString("base64url");
}

/** A cursor's JSON: its item's time and id (`encodeCursor`). */
const CursorJson = z.tuple([z.string(), z.string()]);

/** The key a cursor names; `ids: "uuid"` where the list's ids are UUIDs (anything else could not be compared with them). */
export function decodeCursor(cursor: string, ids: "uuid" | "text"): CursorKey {
  const refuse = () => new PagingError("before: not a cursor of this list (pass the next_cursor of its previous page, unchanged)");
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  const key = CursorJson.safeParse(decoded);
  if (!key.success) throw refuse();
  const [at, id] = key.data;
  if (!AT.test(at) || !isRealTime(at)) throw refuse();
  if (!(ids === "uuid" ? UUID : TEXT_ID).test(id)) throw refuse();
  return { at, id };
}

/** The validated request: how many items, and after which (none for the first page). */
export function pageRequest(params: PageParams | undefined, ids: "uuid" | "text"): { limit: number; before: CursorKey | undefined } {
  return { limit: params?.limit ?? PAGE_LIMIT_DEFAULT, before: params?.before === undefined ? undefined : decodeCursor(params.before, ids) };
}

/** A row's key column: its creation time as fixed-width UTC text to the microsecond (JavaScript dates keep milliseconds only). */
export const cursorAt = (createdAt: SQLWrapper) => sql<string>`to_char(${createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The rows after the cursor in the order `created_at DESC, id DESC` (undefined for the first page). */
export function afterCursor(createdAt: SQLWrapper, id: SQLWrapper, before: CursorKey | undefined): SQL | undefined {
  return before ? sql`(${createdAt}, ${id}) < (${before.at}::timestamptz, ${before.id})` : undefined;
}

/** Rows read with their `cursorAt` column (and their id) as keyed rows. */
export const keyedRows = <R extends { cursorAt: string; id: string }>(rows: readonly R[]): Keyed<Omit<R, "cursorAt">>[] =>
  rows.map(({ cursorAt: at, ...row }) => ({ key: { at, id: row.id }, item: row }));

/** Maps a keyed row's item, keeping its key. */
export const mapItem = <A, B>(f: (item: A) => B) => ({ key, item }: Keyed<A>): Keyed<B> => ({ key, item: f(item) });

// Ids compare as JavaScript strings: right for the UUIDs of the only merged lists (lower-case hex, as PostgreSQL orders them).
const newestFirst = (a: CursorKey, b: CursorKey) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.id === b.id ? 0 : a.id < b.id ? 1 : -1);

/**
 * The page of `limit` items out of lists each read newest first with up to `limit + 1` rows after the same cursor
 * (one list, or several to merge into one order): the extra row only tells that there is a next page.
 */
export function pageOf<L extends readonly (readonly Keyed<unknown>[])[]>(lists: L, limit: number): Page<L[number][number]["item"]> {
  const merged: Keyed<L[number][number]["item"]>[] = lists.length === 1 ? [...lists[0]!] : lists.flat().sort((a, b) => newestFirst(a.key, b.key));
  const items = merged.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map((k) => k.item), next_cursor: merged.length > limit && last ? encodeCursor(last.key) : null };
}
