/**
 * The reviewer's name, kept in this browser and sent with every tRPC call as the `x-actor` header,
 * which the server records as the actor of each approval and request for changes.
 */
import { useSyncExternalStore } from "react";

const storageKey = "stitch.reviewerName";
const changeEvent = "stitch:reviewer-name";
export const reviewerNameMaxLength = 80;

/** Why a typed name cannot be saved, in words for the reviewer, or null when it can. */
export function reviewerNameProblem(name: string): string | null {
  if (name.trim().length > reviewerNameMaxLength) return `Keep the name within ${reviewerNameMaxLength} characters.`;
  return null;
}

export function readReviewerName(): string {
  try {
    return localStorage.getItem(storageKey) ?? "";
  } catch {
    // Storage blocked by the browser's settings: decisions go unsigned rather than every call failing.
    return "";
  }
}

/** Stores the trimmed name (an empty one removes it); throws if the name has a problem or storage is blocked. */
export function saveReviewerName(name: string): void {
  const problem = reviewerNameProblem(name);
  if (problem) throw new Error(problem);
  const trimmed = name.trim();
  try {
    if (trimmed) localStorage.setItem(storageKey, trimmed);
    else localStorage.removeItem(storageKey);
  } catch (cause) {
    throw new Error("This browser does not let the app save your name; allow site storage for it to be recorded.", { cause });
  }
  window.dispatchEvent(new Event(changeEvent));
}

/** Headers for a tRPC request: `x-actor` when the reviewer has named themselves. */
export function actorHeaders(): Record<string, string> {
  const name = readReviewerName();
  // A header value is a byte string, so the name travels percent-encoded; the server decodes it.
  return name && !reviewerNameProblem(name) ? { "x-actor": encodeURIComponent(name) } : {};
}

function subscribe(onChange: () => void): () => void {
  // "storage" carries changes made in the app's other tabs.
  window.addEventListener("storage", onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

export function useReviewerName(): string {
  return useSyncExternalStore(subscribe, readReviewerName);
}
