/** schemaFields: every field a schema names, per record path, in the schema's order, with its kind. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { artifactSchemas } from "../pipeline/artifacts";
import { schemaFields } from "./schemaFields";

describe("schemaFields", () => {
  it("lists a record's fields in order, a list's item fields under `*`, and each value's richest kind", () => {
    const schema = z.object({
      title: z.string(),
      count: z.number().optional(),
      done: z.boolean(),
      items: z.array(z.union([z.string(), z.object({ id: z.union([z.string(), z.number()]), name: z.string(), tags: z.array(z.string()) })])),
      meta: z.object({ owner: z.string().nullable() }).optional(),
    });
    expect(schemaFields(schema)).toEqual([
      { path: "", key: "title", kind: "text" },
      { path: "", key: "count", kind: "number" },
      { path: "", key: "done", kind: "boolean" },
      { path: "", key: "items", kind: "list" },
      { path: "items.*", key: "id", kind: "text" },
      { path: "items.*", key: "name", kind: "text" },
      { path: "items.*", key: "tags", kind: "list" },
      { path: "", key: "meta", kind: "record" },
      { path: "meta", key: "owner", kind: "text" },
    ]);
  });

  it("names the requirements' capability fields, so a capability that lacks one is still offered it", () => {
    const fields = schemaFields(artifactSchemas.requirements);
    expect(fields.filter((f) => f.path === "core_capabilities.*").map((f) => f.key)).toEqual(["id", "name", "description", "actor"]);
    expect(fields.filter((f) => f.path === "").map((f) => f.key)).toContain("problem_statement_refined");
  });
});
