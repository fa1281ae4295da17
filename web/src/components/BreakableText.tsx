/**
 * An id, an e-mail address or an address that may wrap only after its separators (`@ . - _ / :`), never in the middle
 * of a word: a narrow column breaks `rita.ramos@example.com` as `rita.ramos@` / `example.com`, not `rita.ra` / `mos@...`.
 */
import { Fragment } from "react";

export function BreakableText({ text }: { text: string }) {
  const pieces = text.split(/(?<=[@./_:-])/);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
