import type { Context } from "hono";
import { forbidden } from "../platform/http/errors";
import type { ConsoleEnv } from "./context";

/** What only an owner may do (docs/console.md, "People and roles"); a member's request is refused with this. */
export const OWNER_ONLY =
  "Only an owner of the account can do this: owners manage Apps, keys, people and invites. Ask an owner.";

export const isOwner = (c: Context<ConsoleEnv>) => c.get("session").user.role === "owner";

/** 403 for a member: the console hides these controls, and the server refuses a forged request. */
export function assertOwner(c: Context<ConsoleEnv>): void {
  if (!isOwner(c)) throw forbidden(OWNER_ONLY);
}
