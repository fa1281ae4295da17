import { mkdtempSync, rmSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBash, runUntilBash } from "./bash";
import { killRun } from "./processes";
import { isAlive } from "../../testing/workflowRuntime";

const workDir = mkdtempSync(join(tmpdir(), "stitch-bash-test-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("runBash", () => {
  it("outputs stdout without its last newline, from the run's own directory", async () => {
    const outcome = await runBash({ runId: "run-1", script: 'printf "a\\nb\\n\\n"; pwd', workDir });
    expect(outcome).toMatchObject({ ok: true, output: `a\nb\n\n${join(workDir, "run-1")}` });
    expect(existsSync(join(workDir, "run-1"))).toBe(true);
  });

  it("shares the directory between the run's nodes, and not with other runs", async () => {
    await runBash({ runId: "run-2", script: "echo hello > note.txt", workDir });
    expect(await runBash({ runId: "run-2", script: "cat note.txt", workDir })).toMatchObject({ ok: true, output: "hello" });
    expect(await runBash({ runId: "run-3", script: "cat note.txt", workDir })).toMatchObject({ ok: false, exitCode: 1 });
  });

  it("gives the script a scrubbed environment plus the extras, with HOME in the run's directory", async () => {
    const secrets = { DATABASE_URL: "postgres://x", LLM_API_KEY: "sk-1", SERPAPI_API_KEY: "s", STITCH_CALLBACK_SECRET: "c", GITHUB_TOKEN: "t", SOMETHING_ELSE: "e" };
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      const outcome = await runBash({ runId: "run-env", script: "env | cut -d= -f1 | sort", env: { NODE_OUTPUT: "x y" }, workDir });
      expect(outcome.ok).toBe(true);
      const names = outcome.output.split("\n");
      for (const name of Object.keys(secrets)) expect(names).not.toContain(name);
      expect(names).toContain("NODE_OUTPUT");
      expect(names).toContain("PATH");
      expect(await runBash({ runId: "run-env", script: 'echo "$HOME|$NODE_OUTPUT"', env: { NODE_OUTPUT: "x y" }, workDir })).toMatchObject({
        output: `${join(workDir, "run-env")}|x y`,
      });
    } finally {
      for (const name of Object.keys(secrets)) if (!(name in saved)) delete process.env[name];
    }
  });

  it("fails on a non-zero exit with the code and stderr", async () => {
    const outcome = await runBash({ runId: "run-4", script: "echo partial; echo 'went wrong' >&2; exit 2", workDir });
    expect(outcome).toMatchObject({ ok: false, error: "exit code 2: went wrong", exitCode: 2, output: "partial" });
  });

  it("fails on timeout, and the process group is gone", async () => {
    const started = Date.now();
    const outcome = await runBash({ runId: "run-5", script: "sleep 30 & echo $!; wait", timeoutMs: 500, workDir });
    expect(outcome).toMatchObject({ ok: false, error: "timed out after 500 ms", timedOut: true });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => isAlive(Number(outcome.output)), { timeout: 3000 }).toBe(false);
  });

  it("fails as cancelled when its run is killed", async () => {
    const pending = runBash({ runId: "run-6", script: "sleep 30", workDir });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(killRun("run-6")).toBe(1);
    expect(await pending).toMatchObject({ ok: false, error: "cancelled" });
  });

  it("refuses a run id that is not one plain path segment", async () => {
    await expect(runBash({ runId: "../escape", script: "true", workDir })).rejects.toThrow(/run id/);
  });
});

describe("runUntilBash", () => {
  it("is done on exit 0 only", async () => {
    expect((await runUntilBash({ runId: "run-7", script: "test 1 -eq 1", workDir })).done).toBe(true);
    const notYet = await runUntilBash({ runId: "run-7", script: "test 1 -eq 2", workDir });
    expect(notYet.done).toBe(false);
    expect(notYet.outcome).toMatchObject({ ok: false, exitCode: 1 });
  });
});
