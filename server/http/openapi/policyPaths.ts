/** The instance's policy (server/http/policyRoutes.ts): what every definition that says nothing follows. */
import { policyPaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, ref, refusals, tagged } from "./operations";

export const policyTag: Tag = {
  name: "policy",
  description:
    "Separation of duties where a definition is silent: whether the person who started a run may decide its decisions (`self_approval`). " +
    "A definition's own `self_approval` wins. Allowed on a fresh install, so the first account can take its first run to its end alone; an install that already had accounts keeps the separation it had.",
};

export function policyPathItems() {
  return tagged(policyTag, {
    [paths.policy.openapi]: {
      get: {
        operationId: "getPolicy", summary: "The instance's policy",
        description: "With when and by whom it was last changed (both null: never, the install's default).",
        responses: { 200: answer("The policy.", ref("InstancePolicy")) },
      },
      put: {
        operationId: "changePolicy", summary: "Change the instance's policy",
        description:
          "Recorded in the audit trail (`policy.change`, with what it was and what it became). Every open decision whose definition sets no `self_approval` follows it at once, " +
          "and whether anyone can take each is computed again.",
        requestBody: body("PolicyChange", { self_approval: false }),
        responses: { 200: answer("The policy as changed.", ref("InstancePolicy")), ...refusals({ 400: `${invalidJson400} Or a body that is not \`{ self_approval: boolean }\`.` }) },
      },
    },
  });
}
