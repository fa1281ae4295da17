/** The building blocks every surface's operations are written with: references, bodies, answers, refusals and parameters. */
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PageParams } from "../../lib/paging";
import type { ComponentName, JsonSchema } from "./components";

/** A tag of the document: each surface has one, and lists its operations under it. */
export interface Tag {
  name: string;
  description: string;
}

/** Operations by path and method, as a surface writes them: without tags, which `tagged` adds. */
export type PathItems = Record<string, Partial<Record<"get" | "post" | "put" | "delete", object>>>;

/** The surface's operations, each listed under the surface's tag. */
export function tagged(tag: Tag, items: PathItems): PathItems {
  const withTag = (item: PathItems[string]) => Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, { tags: [tag.name], ...operation }]));
  return Object.fromEntries(Object.entries(items).map(([path, item]) => [path, withTag(item)]));
}

export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
export const listOf = (name: ComponentName) => ({ type: "array", items: ref(name) });
export const jsonContent = (schema: JsonSchema, example?: unknown) => ({ "application/json": { schema, ...(example === undefined ? {} : { example }) } });
export const answer = (description: string, schema: JsonSchema) => ({ description, content: jsonContent(schema) });
export const body = (name: ComponentName, example: unknown, description?: string) => ({
  required: true, ...(description ? { description } : {}), content: jsonContent(ref(name), example),
});

/** Both surfaces cancel a run with the same optional body (CancelBody). */
export const optionalCancelBody = { ...body("CancelBody", { reason: "the brief was withdrawn" }), required: false };

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;
/** The refusals of one operation, each with when it happens; all share the `{ error, message, detail }` body. */
export const refusals = (cases: Partial<Record<ErrorStatus, string>>) =>
  Object.fromEntries(Object.entries(cases).map(([status, description]) => [status, answer(description, ref("ErrorBody"))]));

export const pathParam = (name: string, description: string, format?: "uuid") => ({
  name, in: "path", required: true, description, schema: { type: "string", ...(format ? { format } : {}) },
});
export const queryParam = (name: string, description: string, schema: JsonSchema = { type: "string" }) => ({ name, in: "query", required: false, description, schema });

export const invalidJson400 = "The body is not valid JSON.";

/** The paging parameters of the run lists (server/lib/paging.ts). */
export const pageParams = [
  queryParam("limit", PageParams.shape.limit.description!, { type: "integer", minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT }),
  queryParam("before", `${PageParams.shape.before.description!} Opaque: pass it on unchanged.`, { type: "string", maxLength: 1024 }),
];

/** A page of a run list: the items as a bare array, and, when there are more, where the next page is. */
export const pagedAnswer = (description: string, item: ComponentName) => ({
  ...answer(`${description} Newest first (by creation time, then id), \`limit\` at a time.`, listOf(item)),
  headers: {
    "X-Next-Cursor": { description: "The cursor of the next page (its `before`); absent on the last page.", schema: { type: "string" } },
    Link: { description: 'The next page\'s URL, this query with `before` set: `</runs?limit=50&before=...>; rel="next"`; absent on the last page.', schema: { type: "string" } },
  },
});

export const page400 = "`limit` is not a whole number from 1 to 200 (`invalid_query`), or `before` is not a cursor of this list (`invalid_cursor`).";
