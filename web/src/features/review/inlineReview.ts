/** The review feature as the app provides it to every conversation (components/review/InlineReview). */
import type { InlineReviewImplementation } from "../../components/review/InlineReview";
import { useComposer } from "./api/useComposer";
import { ReviewedOutputView } from "./components/ReviewedOutputView";

export const inlineReview: InlineReviewImplementation = { Output: ReviewedOutputView, useComposer };
