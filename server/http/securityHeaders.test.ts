/**
 * Security headers (securityHeaders.ts) on every kind of answer the server gives: the app's pages, the REST API, tRPC,
 * the docs, refusals and 404s, with and without credentials. Whether the app, Mermaid, React Flow, CodeMirror and
 * Swagger UI work under the policy is checked in the browser (e2e/security.spec.ts).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pglite } from "../testing/databases";
import { testBootstrapToken } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";

/** The policy as directive -> sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(";").map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...sources]) => [name!, sources]));
}

describe("security headers", () => {
  let env: ServerOnTestDatabase;
  beforeAll(async () => {
    env = await serverOn(pglite);
  });
  afterAll(async () => {
    await env?.close();
  });

  const paths = ["/", "/app", "/app/runs/RUN_1", "/runs", "/runs/RUN_nope", "/health", "/trpc/pipeline.listRuns", "/docs", "/docs/assets/swagger-ui.css", "/openapi.json", "/no/such/route"];

  it.each([
    ["with the operator's token", { authorization: `Bearer ${testBootstrapToken}` }],
    ["without credentials", {}],
  ])("are on every answer, %s", async (_, headers: Record<string, string>) => {
    for (const path of paths) {
      const answer = await fetch(`${env.server.url}${path}`, { headers });
      await answer.arrayBuffer();
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(answer.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      const policy = directives(answer.headers.get("content-security-policy") ?? "");
      expect(policy.get("default-src"), path).toEqual(["'self'"]);
      expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(policy.get("object-src"), path).toEqual(["'none'"]);
      expect(policy.get("base-uri"), path).toEqual(["'self'"]);
      expect(answer.headers.get("x-powered-by"), path).toBeNull();
    }
  });

  it("keeps images and connections on this server and lets no inline script run but the docs page's own, by its hash", async () => {
    const answer = await fetch(`${env.server.url}/docs`);
    const html = await answer.text();
    const policy = directives(answer.headers.get("content-security-policy")!);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    const scriptSources = policy.get("script-src")!;
    expect(scriptSources).not.toContain("'unsafe-inline'");
    expect(scriptSources).not.toContain("'unsafe-eval'");
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);

    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    const hash = `'sha256-${createHash("sha256").update(inline[0]!).digest("base64")}'`;
    expect(scriptSources).toEqual(["'self'", hash]);
    expect(inline[0]).toContain("validatorUrl: null");
  });
});
