import { DataView } from "./DataView";

/** A short list of names (domains, stakeholders) as chips; anything richer falls back to the generic view. */
export function Chips({ value }: { value: unknown }) {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v.length <= 60)) return <DataView value={value} />;
  return (
    <ul className="chips">
      {value.map((item, i) => (
        <li key={i} className="chip">
          {item}
        </li>
      ))}
    </ul>
  );
}
