import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createLimiter, killRun, runProcess, runningProcesses, type ProcessOptions } from "./processes";
import { isAlive } from "../../testing/workflowRuntime";

const base = (command: string[], extra: Partial<ProcessOptions> = {}): ProcessOptions => ({
  command,
  cwd: tmpdir(),
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  timeoutMs: 10_000,
  maxOutputBytes: 1024,
  killGraceMs: 500,
  ...extra,
});

/** A script that starts `sleep 30` in the background, prints its pid, and waits for it. */
const SLEEPER = ["bash", "-c", "sleep 30 & echo $!; wait"];

describe("runProcess", () => {
  it("captures stdout, stderr and the exit code, with only the given environment", async () => {
    const result = await runProcess(base(["bash", "-c", 'echo "out $FOO $HOME"; echo err >&2; exit 3'], { env: { PATH: process.env.PATH ?? "", FOO: "bar" } }));
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: "out bar \n", stderr: "err\n", timedOut: false, aborted: false, truncated: false });
  });

  it("kills the whole process group on timeout", async () => {
    const started = Date.now();
    const result = await runProcess(base(SLEEPER, { timeoutMs: 300 }));
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const sleeper = Number(result.stdout.trim());
    expect(sleeper).toBeGreaterThan(0);
    await expect.poll(() => isAlive(sleeper), { timeout: 3000 }).toBe(false);
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const result = await runProcess(base(["bash", "-c", "trap '' TERM; sleep 30 & echo $!; wait"], { timeoutMs: 300, killGraceMs: 300 }));
    expect(result.timedOut).toBe(true);
    await expect.poll(() => isAlive(Number(result.stdout.trim())), { timeout: 3000 }).toBe(false);
  });

  it("ends what the process left running in its group when it exits", async () => {
    const started = Date.now();
    const result = await runProcess(base(["bash", "-c", "sleep 30 & echo $!"]));
    expect(result.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => isAlive(Number(result.stdout.trim())), { timeout: 3000 }).toBe(false);
  });

  it("kills the group when the signal aborts, and does not start when it already has", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runProcess(base(SLEEPER, { signal: controller.signal }));
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null, signal: "SIGTERM" });
    await expect.poll(() => isAlive(Number(result.stdout.trim())), { timeout: 3000 }).toBe(false);

    const before = await runProcess(base(["bash", "-c", "echo ran"], { signal: AbortSignal.abort() }));
    expect(before).toMatchObject({ aborted: true, stdout: "" });
  });

  it("caps each stream at maxOutputBytes and marks the result truncated", async () => {
    const result = await runProcess(base(["bash", "-c", "head -c 5000 /dev/zero | tr '\\0' a; echo short >&2"], { maxOutputBytes: 100 }));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("a".repeat(100));
    expect(result.stderr).toBe("short\n");
    expect(result.truncated).toBe(true);
  });

  it("reports a program that cannot start", async () => {
    const result = await runProcess(base(["/nonexistent/program"]));
    expect(result.exitCode).toBeNull();
    expect(result.error).toMatch(/ENOENT/);
  });

  it("killRun ends the run's running and queued processes, and no other run's", async () => {
    const limiter = createLimiter(2);
    const running = runProcess(base(SLEEPER, { runId: "run-a", limiter }));
    const queuedBehind = runProcess(base(SLEEPER, { runId: "run-b", limiter }));
    const queued = runProcess(base(SLEEPER, { runId: "run-a", limiter }));
    await expect.poll(() => limiter.active).toBe(2);
    expect(limiter.pending).toBe(1);
    expect(runningProcesses("run-a")).toBe(2);

    expect(killRun("run-a")).toBe(2);
    const [first, third] = await Promise.all([running, queued]);
    expect(first.aborted).toBe(true);
    expect(third).toMatchObject({ aborted: true, stdout: "" });
    expect(runningProcesses("run-a")).toBe(0);
    expect(killRun("run-a")).toBe(0);

    expect(runningProcesses("run-b")).toBe(1);
    killRun("run-b");
    expect((await queuedBehind).aborted).toBe(true);
  });
});

describe("createLimiter", () => {
  it("runs at most N tasks at once, in order of arrival", async () => {
    const limiter = createLimiter(2);
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => async () => {
      active++;
      most = Math.max(most, active);
      order.push(n);
      await new Promise((resolve) => setTimeout(resolve, 20));
      active--;
      return n;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => limiter.run(task(n))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(limiter.active).toBe(0);
  });

  it("frees the slot when a task fails, and drops a waiter whose signal aborts", async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    let release!: () => void;
    const holder = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const waiter = limiter.run(async () => "ran", controller.signal);
    expect(limiter.pending).toBe(1);
    controller.abort(new Error("gave up"));
    await expect(waiter).rejects.toThrow("gave up");
    expect(limiter.pending).toBe(0);
    release();
    await holder;
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  it("rejects a limit below one", () => {
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});
