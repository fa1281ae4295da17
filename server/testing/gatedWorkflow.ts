/** A YAML workflow of a draft, an approval of it and what follows, the approval capturing the reviewer's comment. */
export const gatedWorkflow = (name: string) => `name: ${name}
description: a draft, a review, what follows
nodes:
  - id: draft
    bash: echo "plan for $ARGUMENTS"
  - id: review
    depends_on: [draft]
    approval:
      message: "Approve this? $draft.output"
      capture_response: true
  - id: after
    depends_on: [review]
    bash: echo "approved with $review.output"
`;
