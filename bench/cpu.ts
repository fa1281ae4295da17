/**
 * The CPU each side of a workload spent: the server (the benchmark's own process when the server runs in it, the
 * driver's requests included; otherwise its server processes), the worker (its own process, over the IPC channel),
 * and PostgreSQL when it runs on this machine. Wall time on a shared two-core machine moves with everything else on
 * it; CPU per node completion says what each side costs whatever the hour, and which side to look at.
 *
 * Server processes and PostgreSQL are read from Linux's /proc (utime and stime of /proc/PID/stat, in clock ticks of
 * 1/100 s); where there is no /proc those figures are left out and the report says so. So is the machine's idle
 * time (/proc/stat), and, with the server in this process, how busy its event loop was.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { type EventLoopUtilization, performance } from "node:perf_hooks";

/** Linux's USER_HZ: /proc's times are in hundredths of a second on every Linux the project runs on. */
const MS_PER_TICK = 10;

export const procAvailable = existsSync("/proc/self/stat");

/** The fields of /proc/PID/stat after the command name (which may hold spaces), or undefined once the process is gone. */
function statFields(pid: string | number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** User and system CPU of this process so far, in ms (any platform). */
export function ownCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** User and system CPU of a process so far, in ms (fields 14 and 15 of stat: index 11 and 12 after the name). */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK : 0;
}

/**
 * All of PostgreSQL's CPU so far, in ms: every live postgres process, plus what the postmaster's reaped children
 * spent (cutime and cstime), so a backend that exited in between still counts. Everything the server did on the
 * machine, not one database's: the benchmark should have the database server to itself.
 */
export function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    const postmaster = command.includes("/bin/postgres");
    if (!postmaster && !command.startsWith("postgres")) continue;
    const fields = statFields(pid);
    if (!fields) continue;
    const own = Number(fields[11]) + Number(fields[12]);
    const reaped = postmaster ? Number(fields[13]) + Number(fields[14]) : 0;
    ms += (own + reaped) * MS_PER_TICK;
  }
  return ms;
}

/**
 * CPU ms spent by each side during one workload. `postgres` is absent when it was not measured. `idle`: the share of
 * the machine's CPU time (all its cores) that no process used, from /proc/stat; `loopBusy`: the share of the time the
 * server's event loop was running JavaScript or I/O callbacks rather than waiting (Node's event loop utilization),
 * when the server runs in this process. Both say whether a workload was held by CPU: a busy loop or no idle cores.
 */
export interface CpuSpent {
  server: number;
  worker: number;
  postgres?: number;
  idle?: number;
  loopBusy?: number;
}

/** A reading of the meter: the CPU so far, and what the shares of a workload are computed from. */
export interface CpuReading extends Omit<CpuSpent, "idle" | "loopBusy"> {
  machine?: { idle: number; total: number };
  loop?: EventLoopUtilization;
}

/** The machine's CPU time so far, in ticks, all cores together: idle (with waiting for I/O) and in total. */
function machineTicks(): { idle: number; total: number } | undefined {
  if (!procAvailable) return undefined;
  const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { idle: idle! + iowait!, total: user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal! };
}

export interface CpuMeter {
  /** What each side has spent so far; `spentSince` turns two readings into one workload's `CpuSpent`. */
  read(): Promise<CpuReading>;
}

export function spentSince(before: CpuReading, after: CpuReading): CpuSpent {
  const machineTotal = before.machine && after.machine ? after.machine.total - before.machine.total : 0;
  return {
    server: after.server - before.server,
    worker: after.worker - before.worker,
    ...(before.postgres !== undefined && after.postgres !== undefined ? { postgres: after.postgres - before.postgres } : {}),
    ...(machineTotal > 0 ? { idle: (after.machine!.idle - before.machine!.idle) / machineTotal } : {}),
    ...(before.loop && after.loop ? { loopBusy: performance.eventLoopUtilization(after.loop, before.loop).utilization } : {}),
  };
}

/**
 * A meter over the server (this process, or the given server processes' ids: NaN without /proc), the worker
 * (`workerCpuMs`, its own reading) and, when `localPostgres` (a server on this machine, and /proc to read it),
 * PostgreSQL.
 */
export function cpuMeter(servers: "this process" | readonly number[], workerCpuMs: () => Promise<number>, localPostgres: boolean): CpuMeter {
  const serverCpuMs = () => {
    if (servers === "this process") return ownCpuMs();
    if (!procAvailable) return Number.NaN;
    return servers.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  };
  return {
    async read() {
      const worker = await workerCpuMs();
      const machine = machineTicks();
      return {
        server: serverCpuMs(), worker, ...(localPostgres ? { postgres: postgresCpuMs() } : {}), ...(machine ? { machine } : {}),
        ...(servers === "this process" ? { loop: performance.eventLoopUtilization() } : {}),
      };
    },
  };
}

/** Whether a database URL names a server on this machine's loopback, whose processes /proc can see. */
export function isLocalDatabase(databaseUrl: string): boolean {
  const host = new URL(databaseUrl).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1" || host === "";
}
