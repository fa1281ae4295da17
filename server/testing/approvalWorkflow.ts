/** A YAML workflow of one approval with the given decision rules (YAML lines, indented here under `approval:`). */
export const approvalWorkflow = (name: string, rules: string, description = "one approval with its decision rules") => `name: ${name}
description: ${description}
nodes:
  - id: ok
    approval:
      message: "Ship it?"
${rules
  .split("\n")
  .filter(Boolean)
  .map((line) => `      ${line}`)
  .join("\n")}
`;
