/**
 * The benchmarks' command lines: `--name=value` flags, each known by name, and `--help`. `npm run bench`,
 * `bench:floor`, `bench:inbox` and `bench:web` read theirs here (a switch such as `--keep` is taken out first), then
 * validate the values with their own zod schema.
 */
import type { z } from "zod";

/** A command line the benchmark cannot run: the message says why, and the caller prints its usage with it. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * The flags' values by option name (`names` maps each flag, `in-flight`, to its option, `inFlight`). `--help` prints
 * `usage` and exits; an argument that is no known flag is a UsageError.
 */
export function readFlags<K extends string>(argv: readonly string[], names: Record<string, K>, usage: string): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") {
      console.log(usage);
      process.exit(0);
    }
    const match = /^--([a-z-]+)=(.*)$/.exec(arg);
    const name = match && names[match[1]!];
    if (!match || !name) throw new UsageError(`unknown argument "${arg}"`);
    values[name] = match[2];
  }
  return values;
}

/** A schema's refusal of the options, one clause per issue, as a UsageError. */
export function optionsRefused(error: z.ZodError): UsageError {
  return new UsageError(error.issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`).join("; "));
}

/** Runs a benchmark's `main`: a UsageError is printed with the usage (exit code 2); anything else is thrown. */
export async function runBench(name: string, usage: string, main: () => Promise<void>): Promise<void> {
  await main().catch((error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${name}: ${error.message}\n${usage}`);
    process.exitCode = 2;
  });
}
