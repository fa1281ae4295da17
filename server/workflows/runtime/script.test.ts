import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bunCandidates, bunDepsDir, bunPlatformPackages, findBun, invalidDeps, runScript, scriptNameOf, scriptSource, type ScriptOptions } from "./script";

const root = mkdtempSync(join(tmpdir(), "stitch-script-test-"));
const workDir = join(root, "work");
const cacheDir = join(root, "cache");
const scriptsDir = join(root, "scripts");
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  mkdirSync(scriptsDir, { recursive: true });
  writeFileSync(join(scriptsDir, "greet.ts"), 'const who: string = "named";\nconsole.log(`hello from ${who} script in ${process.cwd()}`);\n');
  writeFileSync(join(scriptsDir, "sum.py"), "print(1 + 2)\n");
});

const bun = (extra: Partial<ScriptOptions>): ScriptOptions => ({ runId: "run-1", runtime: "bun", script: "", workDir, scriptsDir, cacheDir, ...extra });

describe("finding bun", () => {
  it("finds a bun binary of the project's bun package that runs", async () => {
    const found = await findBun();
    expect(found).toMatchObject({ ok: true });
    if (found.ok) expect(found.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("looks first in the platform package, then the bun package's bin/bun.exe", async () => {
    expect(bunPlatformPackages("linux", "x64")).toEqual(["@oven/bun-linux-x64", "@oven/bun-linux-x64-baseline", "@oven/bun-linux-x64-musl", "@oven/bun-linux-x64-musl-baseline"]);
    expect(bunPlatformPackages("darwin", "arm64")).toEqual(["@oven/bun-darwin-aarch64", "@oven/bun-darwin-aarch64-baseline"]);
    const candidates = await bunCandidates();
    const platformIndex = candidates.findIndex((path) => path.includes(`${bunPlatformPackages()[0]}/bin/bun`));
    const wrapperIndex = candidates.findIndex((path) => path.endsWith(join("bun", "bin", "bun.exe")));
    expect(platformIndex).toBeGreaterThanOrEqual(0);
    expect(wrapperIndex).toBeGreaterThan(platformIndex);
  });
});

describe("which script", () => {
  it("tells names from inline code", () => {
    expect(scriptNameOf("greet")).toBe("greet");
    expect(scriptNameOf("report-v2.ts")).toBe("report-v2.ts");
    for (const code of ["console.log(1)", "a b", "../x", "x/y", "x\\y", ".hidden", "a..b", "echo;rm", "$x", ""]) expect(scriptNameOf(code)).toBeUndefined();
  });

  it("fails naming the paths it tried for a missing script", async () => {
    expect(await scriptSource("missing", "bun", scriptsDir)).toEqual({
      ok: false,
      error: `script "missing" not found for runtime bun: tried ${join(scriptsDir, "missing.ts")}, ${join(scriptsDir, "missing.js")}`,
    });
    const outcome = await runScript(bun({ script: "missing" }));
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(join(scriptsDir, "missing.js")) });
  });

  it("accepts only registry dependencies", () => {
    expect(invalidDeps("bun", ["lodash", "lodash@4.17.21", "@types/node@^20", "zod@>=3"])).toEqual([]);
    expect(invalidDeps("bun", ["github:x/y", "file:../x", "-g", "a b", "https://x/y.tgz", "npm:lodash"])).toHaveLength(6);
    expect(invalidDeps("uv", ["requests", "requests>=2.31,<3", "pandas[excel]==2.2.*"])).toEqual([]);
    expect(invalidDeps("uv", ["git+https://x/y", "./local", "--index-url=x", "a b"])).toHaveLength(4);
  });
});

describe("runScript with bun", () => {
  it("installs a real dependency once and runs a script that imports it, in the run's directory", async () => {
    const code = 'import _ from "lodash";\nconsole.log(JSON.stringify(_.chunk([1, 2, 3, 4, 5], 2)));\nconsole.log(process.cwd());\n';
    const first = await runScript(bun({ script: code, deps: ["lodash@4"], timeoutMs: 60_000 }));
    expect(first).toMatchObject({ ok: true, output: `[[1,2],[3,4],[5]]\n${join(workDir, "run-1")}` });
    const again = await runScript(bun({ runId: "run-2", script: code, deps: ["lodash@4"] }));
    expect(again).toMatchObject({ ok: true, output: `[[1,2],[3,4],[5]]\n${join(workDir, "run-2")}` });
    // One folder for the set, no leftovers of the install or of the script files.
    const dir = bunDepsDir(cacheDir, ["lodash@4"]);
    expect(readdirSync(dirname(dir)).filter((name) => !name.startsWith("."))).toEqual([dir.split("/").pop()]);
    expect(readdirSync(join(dir, ".scripts"))).toEqual([]);
  });

  it("installs a set once when several nodes need it at the same time", async () => {
    const code = 'import { sum } from "lodash-es"; console.log(sum([1, 2, 3]));';
    const outcomes = await Promise.all(["a", "b", "c"].map((runId) => runScript(bun({ runId, script: code, deps: ["lodash-es@4"] }))));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true, output: "6" });
    expect(readdirSync(join(cacheDir, "bun")).filter((name) => name.includes(".partial-"))).toEqual([]);
  });

  it("runs a named script from the scripts folder", async () => {
    expect(await runScript(bun({ script: "greet" }))).toMatchObject({ ok: true, output: `hello from named script in ${join(workDir, "run-1")}` });
  });

  it("does not auto-install what the script does not declare, and fails with bun's error", async () => {
    const outcome = await runScript(bun({ script: 'import pad from "left-pad"; console.log(pad("x", 3));' }));
    expect(outcome).toMatchObject({ ok: false, exitCode: 1, error: expect.stringMatching(/exit code 1: .*left-pad/s) });
  });

  it("gives the script the scrubbed environment", async () => {
    process.env.LLM_API_KEY = "sk-secret";
    try {
      const outcome = await runScript(bun({ script: 'console.log(process.env.LLM_API_KEY ?? "none", process.env.REF, process.env.HOME)', env: { REF: "v" } }));
      expect(outcome).toMatchObject({ ok: true, output: `none v ${join(workDir, "run-1")}` });
    } finally {
      delete process.env.LLM_API_KEY;
    }
  });

  it("fails on timeout", async () => {
    const outcome = await runScript(bun({ script: "await new Promise((resolve) => setTimeout(resolve, 30_000));", timeoutMs: 1000 }));
    expect(outcome).toMatchObject({ ok: false, timedOut: true, error: "timed out after 1000 ms" });
  });

  it("rejects a dependency that is not a registry package", async () => {
    expect(await runScript(bun({ script: "console.log(1)", deps: ["github:lodash/lodash"] }))).toMatchObject({ ok: false, error: expect.stringContaining('"github:lodash/lodash"') });
  });
});

describe("runScript with uv", () => {
  it("fails naming the missing runtime and how to install it when uv is not on the PATH", async () => {
    const saved = process.env.PATH;
    process.env.PATH = mkdtempSync(join(root, "empty-path-"));
    try {
      const outcome = await runScript({ runId: "run-uv", runtime: "uv", script: "sum", deps: ["requests"], workDir, scriptsDir, cacheDir });
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^uv is not installed on this server: install it from https:\/\/docs\.astral\.sh\/uv\//) });
    } finally {
      process.env.PATH = saved;
    }
  });
});
