import { describe, expect, it } from "vitest";
import type { ProcessResult } from "./processes";
import { outcomeOf, scrubbedEnv } from "./sandbox";

const result = (extra: Partial<ProcessResult>): ProcessResult => ({
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  aborted: false,
  truncated: false,
  ...extra,
});

describe("scrubbedEnv", () => {
  const server = { PATH: "/bin", LANG: "C.UTF-8", TZ: "UTC", DATABASE_URL: "postgres://", LLM_API_KEY: "k", X_SECRET: "s", X_TOKEN: "t", SHELL: "/bin/zsh" };

  it("keeps only the allow-listed variables, sets HOME, and adds the extras", () => {
    expect(scrubbedEnv("/work/run", { REF: "v" }, server)).toEqual({ PATH: "/bin", LANG: "C.UTF-8", TZ: "UTC", HOME: "/work/run", REF: "v" });
  });

  it("rejects an extra that is not a variable name", () => {
    expect(() => scrubbedEnv("/h", { "A=B": "x" }, server)).toThrow(TypeError);
  });
});

describe("outcomeOf", () => {
  it("drops only the last newline of a success", () => {
    expect(outcomeOf(result({ stdout: "a\n\n" }), 1000)).toMatchObject({ ok: true, output: "a\n" });
    expect(outcomeOf(result({ stdout: "a\r\n" }), 1000)).toMatchObject({ ok: true, output: "a" });
  });

  it("names the failure", () => {
    expect(outcomeOf(result({ exitCode: 2, stderr: "bad\n" }), 1000)).toMatchObject({ ok: false, error: "exit code 2: bad" });
    expect(outcomeOf(result({ exitCode: 1 }), 1000)).toMatchObject({ ok: false, error: "exit code 1" });
    expect(outcomeOf(result({ exitCode: null, signal: "SIGKILL" }), 1000)).toMatchObject({ ok: false, error: "killed by SIGKILL" });
    expect(outcomeOf(result({ exitCode: null, signal: "SIGTERM", timedOut: true }), 30000)).toMatchObject({ ok: false, error: "timed out after 30000 ms", timedOut: true });
    expect(outcomeOf(result({ exitCode: null, aborted: true }), 1000)).toMatchObject({ ok: false, error: "cancelled" });
    expect(outcomeOf(result({ exitCode: null, error: "spawn x ENOENT" }), 1000, "installing: ")).toMatchObject({ ok: false, error: "installing: could not start: spawn x ENOENT" });
  });

  it("quotes the end of a long stderr", () => {
    const outcome = outcomeOf(result({ exitCode: 1, stderr: `${"x".repeat(10_000)}the real error` }), 1000);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.endsWith("the real error")).toBe(true);
      expect(outcome.error.length).toBeLessThan(4100);
    }
  });
});
