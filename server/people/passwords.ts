/** Passwords are kept as argon2id hashes (@node-rs/argon2, its recommended parameters); nothing here is hand-rolled. */
import { hash, verify } from "@node-rs/argon2";

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of nothing anyone knows, verified against when an email has no account, so both cases take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  const target = storedHash ?? (await (decoy ??= hash("decoy password nobody has")));
  const ok = await verify(target, password).catch(() => false);
  return ok && storedHash !== null;
}
