/**
 * Who may call each operation, written into the document from the table the server enforces (server/http/access.ts)
 * rather than per operation, so the document cannot promise a door the guard does not keep: the security
 * requirement and "Requires the <role> role." of a person's door, how a machine's callback is authenticated, the
 * audit trail's name for a change, and the refusals the guard answers before any route runs (401, 403, 413, 415).
 */
import { roleAllows } from "../../people/roles";
import { Role } from "../../people/schemas";
import { type AccessRule, type Admits, accessRules } from "../access";
import { CSRF_HEADER, SESSION_COOKIE } from "../guard";
import { type ErrorStatus, type PathItems, queryParam, refusals } from "./operations";

export const securitySchemes = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description: "A personal API token, created in the app by each person and acting with their role, or the server's STITCH_BOOTSTRAP_TOKEN (an operator).",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: `The session cookie POST /api/auth/sign-in sets. A change made with it must carry the session's CSRF token as \`${CSRF_HEADER}\`.`,
  },
};

/** Either credential will do. */
const personSecurity = Object.keys(securitySchemes).map((scheme) => ({ [scheme]: [] }));

/** The machines that call back, each authenticated by the token of the URL the engine gave it. */
const callers = {
  worker: { who: "Workers", url: "the callback URL of their webhook's payload (`callbackUrl`)", secret: "STITCH_CALLBACK_SECRET", tokenOf: "this run and node" },
  agent: { who: "agents (n8n flows and the built-in agents)", url: "the `callback_url` of their call", secret: "PIPELINE_CALLBACK_SECRET", tokenOf: "this run and agent" },
} as const;

type Caller = keyof typeof callers;
const roleOf = (admits: Admits): Role | undefined => (typeof admits === "object" && "role" in admits ? admits.role : undefined);
const callerOf = (admits: Admits): Caller | undefined => (typeof admits === "object" && "caller" in admits ? admits.caller : undefined);

/** Who may call, as the operation's first line. */
function accessLine(rule: AccessRule): string {
  const role = roleOf(rule.admits);
  const caller = callerOf(rule.admits);
  const audited = rule.action ? ` Recorded in the audit trail as \`${rule.action}\`, accepted or refused.` : "";
  if (role) return `Requires the ${role} role.${audited}`;
  if (caller) {
    const { who, url, secret } = callers[caller];
    return (
      `Called by ${who}, not people: at ${url}, authenticated by what that URL carries. With ${secret} set, the URL carries \`?token=\` and the ` +
      `callback must present it (in the query, or as \`Authorization: Bearer <token>\`), or it is refused with 401 before its body is read.${audited}`
    );
  }
  return `Needs no credentials.${audited}`;
}

/** The guard's refusals of this operation, before its route runs. */
function guardRefusals(rule: AccessRule): Partial<Record<ErrorStatus, string>> {
  const role = roleOf(rule.admits);
  const caller = callerOf(rule.admits);
  const change = rule.method !== "GET";
  const lesserRole = role !== undefined && Role.options.some((other) => !roleAllows(other, role));
  const forbidden = [
    ...(lesserRole ? ["Signed in with a role that may not do this: `forbidden`, naming the `required_role` and the caller's `role`."] : []),
    ...(change ? [`A change made with the session cookie without its \`${CSRF_HEADER}\` header, or naming another site as its Origin: \`forbidden\`.`] : []),
  ];
  return {
    ...(role ? { 401: "No credentials, or a bearer token that is unknown, revoked or of a disabled account: `unauthorized`, naming the `required_role`." } : {}),
    ...(caller ? { 401: `The server has ${callers[caller].secret} and the callback's token is missing or not the one for ${callers[caller].tokenOf}.` } : {}),
    ...(forbidden.length ? { 403: forbidden.join(" Or: ") } : {}),
    ...(change
      ? {
          413: "The body is larger than the server's MAX_BODY_BYTES: `body_too_large`.",
          415: "A change sent without a bearer token whose body is not `application/json`: `unsupported_media_type`.",
        }
      : {}),
  };
}

/** The parameters the guard reads: a callback's token, and the session's CSRF token on a change people make. */
function guardParameters(rule: AccessRule): object[] {
  const caller = callerOf(rule.admits);
  if (caller) return [queryParam("token", `The token of the callback URL, required when the server has ${callers[caller].secret}.`)];
  if (rule.method === "GET") return [];
  return [{
    name: CSRF_HEADER, in: "header", required: false, schema: { type: "string" },
    description: "With the session cookie: the session's CSRF token (`csrf_token` of sign-in, `csrfToken` of GET /api/auth/session). Not read with a bearer token.",
  }];
}

interface Operation {
  description?: string;
  parameters?: object[];
  responses: Record<string, object>;
}

function withRule(operation: Operation, rule: AccessRule): Operation {
  const role = roleOf(rule.admits);
  const parameters = [...(operation.parameters ?? []), ...guardParameters(rule)];
  return {
    ...operation,
    description: [accessLine(rule), operation.description].filter(Boolean).join("\n\n"),
    ...(parameters.length ? { parameters } : {}),
    ...(role ? { security: personSecurity } : {}),
    // The operation's own description of a status wins over the guard's.
    responses: { ...refusals(guardRefusals(rule)), ...operation.responses },
  };
}

/** Every operation with its door from `rules`; an operation without a rule is an error, as it is for the server. */
export function withAccess(items: PathItems, rules: AccessRule[] = accessRules): PathItems {
  return Object.fromEntries(
    Object.entries(items).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          const rule = rules.find((candidate) => candidate.method.toLowerCase() === method && candidate.path.openapi === path);
          if (!rule) throw new Error(`${method.toUpperCase()} ${path} is documented but has no access rule in server/http/access.ts`);
          return [method, withRule(operation as Operation, rule)];
        }),
      ),
    ]),
  );
}
