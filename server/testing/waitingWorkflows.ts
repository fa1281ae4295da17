/** Workflows whose runs stay in flight until a test moves them: a YAML one that waits for a person at once, a step one that pauses a minute. */

/** A YAML workflow of one approval, `gate`, and nothing else; `approval` adds YAML lines under the approval (`on_reject:` ...), indented as they go there. */
export const gateFirstWorkflow = (name: string, approval = "") => `name: ${name}
description: waits for a person at once
nodes:
  - id: gate
    approval:
      message: "Go on?"
${approval}`;

/** A step workflow whose one step, `pause`, waits a minute. */
export const pausingStepWorkflow = (id: string) => ({ id, steps: [{ id: "pause", tool: "utils.delay", params: { ms: 60_000 } }] });
