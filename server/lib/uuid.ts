/** The one check of a UUID's shape, so an id that is not one is answered "no such thing" before any SQL sees it. */
import { createHash } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * A UUID-shaped id derived from `text` (from its SHA-256, with version nibble 5): the same text gives the same id in
 * every process, so each process registering the same definition names the same flow. `variant` is the variant
 * nibble; each caller keeps the one it has always used, since ids derived before are stored and referenced.
 */
export function hashedUuid(text: string, variant: "8" | "9" | "a" | "b"): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
