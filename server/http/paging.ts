/**
 * Paged lists over REST. A list answers a bare JSON array, as before paging (so existing callers read the first page
 * unchanged); when there is a next page, `X-Next-Cursor` holds its cursor and `Link: <...>; rel="next"` its URL (the
 * same query with `before` set). Parameters that do not validate answer 400 `invalid_query`.
 */
import type { Context } from "hono";
import { type Page, PageParams } from "../lib/paging";
import { describeZodError } from "../lib/zodIssues";
import { HttpError } from "./errors";

/** The request's `limit` and `before`. */
export function pageQuery(c: Context): PageParams {
  const limit = c.req.query("limit");
  const parsed = PageParams.safeParse({ limit: limit !== undefined && /^\d{1,6}$/.test(limit) ? Number(limit) : limit, before: c.req.query("before") });
  if (!parsed.success) throw new HttpError(400, "invalid_query", describeZodError(parsed.error, { root: "query" }));
  return parsed.data;
}

/** The page's items as the answer, and where the next page is. */
export function pageAnswer<T>(c: Context, page: Page<T>): Response {
  if (page.next_cursor !== null) {
    const next = new URL(c.req.url);
    next.searchParams.set("before", page.next_cursor);
    c.header("X-Next-Cursor", page.next_cursor);
    c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return c.json(page.items);
}
