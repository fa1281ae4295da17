/**
 * "Your name": who the server records as approving or requesting changes. Saved as it is typed, so
 * the next decision carries it; a name that cannot travel in a header is refused beside the field.
 */
import { useId, useState } from "react";
import { errorMessage } from "../../../lib/errors";
import { reviewerNameMaxLength, saveReviewerName, useReviewerName } from "../../../lib/reviewerName";

export function ReviewerNameField() {
  const saved = useReviewerName();
  const [draft, setDraft] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  // A name saved in another tab replaces what this one shows.
  const [lastSaved, setLastSaved] = useState(saved);
  if (saved !== lastSaved) {
    setLastSaved(saved);
    if (saved !== draft.trim()) setDraft(saved);
  }
  const inputId = useId();
  const hintId = useId();

  const change = (value: string) => {
    setDraft(value);
    try {
      saveReviewerName(value);
      setError(null);
    } catch (problem) {
      setError(errorMessage(problem));
    }
  };

  return (
    <div className="reviewer-name">
      <label htmlFor={inputId} className="field-title">
        Your name
      </label>
      <input
        id={inputId}
        className="input"
        value={draft}
        maxLength={reviewerNameMaxLength}
        autoComplete="name"
        placeholder="Signs your decisions"
        aria-invalid={error ? true : undefined}
        aria-describedby={hintId}
        onChange={(event) => change(event.target.value)}
        onBlur={() => !error && setDraft(saved)}
      />
      <p id={hintId} className={error ? "hint hint-error" : "hint"} aria-live="polite">
        {error ?? "Recorded with each approval and request for changes."}
      </p>
    </div>
  );
}
