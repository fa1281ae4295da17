/**
 * Who is acting: the `x-actor` header, recorded with every event a person causes. Header values are byte strings,
 * so clients percent-encode names (`encodeURIComponent`); a value that is not valid percent-encoding is taken as is.
 */
export function actorOf(c: { req: { header(name: string): string | undefined } }): string | null {
  const raw = c.req.header("x-actor")?.trim();
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
