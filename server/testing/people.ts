/** People for tests: an account with a role and a personal API token, made through the people front door itself. */
import type { People } from "../people/people";
import type { Role } from "../people/schemas";
import { bootstrapOperator } from "./credentials";

export interface TestPerson {
  accountId: string;
  name: string;
  role: Role;
  email: string;
  password: string;
  /** Send as `Authorization: Bearer <token>`. */
  token: string;
}

let serial = 0;

export async function createPerson(people: People, name: string, role: Role): Promise<TestPerson> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${++serial}.${Date.now()}@example.test`;
  const password = `a long password for ${name}`;
  const invited = await people.commands.invite(bootstrapOperator, { name, email, role });
  const session = await people.commands.acceptInvitation({ token: invited.invitationPath.split("/").pop()!, password }, { address: "127.0.0.1", userAgent: "test" });
  const accountId = session.account.id;
  const { token } = await people.commands.createToken({ kind: "token", accountId, name, role, tokenId: "" }, `${name}'s test token`);
  return { accountId, name, role, email, password, token };
}
