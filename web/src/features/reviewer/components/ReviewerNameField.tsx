/**
 * "Your name": who the server records as approving or requesting changes. Saved as it is typed, so
 * the next decision carries it; a name that cannot travel in a header is refused beside the field.
 */
import { useState } from "react";
import { Field } from "../../../components/Field";
import { errorMessage } from "../../../lib/errors";
import { reviewerNameMaxLength, saveReviewerName, useReviewerName } from "../../../lib/reviewerName";
import "../reviewer.css";

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
    <Field
      className="reviewer-name"
      label="Your name"
      value={draft}
      maxLength={reviewerNameMaxLength}
      autoComplete="name"
      placeholder="Signs your decisions"
      hint="Recorded with each approval and request for changes."
      error={error}
      announce="polite"
      onChange={(event) => change(event.target.value)}
      onBlur={() => !error && setDraft(saved)}
    />
  );
}
