/** Helpers for this folder's tests. */
import { readFileSync } from "node:fs";

/** The process exists and is not a zombie (a killed orphan may wait a moment for init to reap it). Linux only. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z";
  } catch {
    return false;
  }
}
