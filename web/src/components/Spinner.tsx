import "./Spinner.css";

export function Spinner({ label, size = "sm" }: { label?: string; size?: "sm" | "md" }) {
  return (
    <span className={`spinner spinner-${size}`} role={label ? "status" : undefined} aria-label={label}>
      <span aria-hidden="true" />
    </span>
  );
}
