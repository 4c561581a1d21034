import type { AppEnv } from "../platform/env";
import type { Account, ConsoleUser } from "../platform/db/schema";

export interface ConsoleSession {
  /** The cookie value (never stored: D1 holds its SHA-256). */
  id: string;
  user: ConsoleUser;
  account: Account;
}

/** Hono environment of the console: the Worker's bindings plus the signed-in session and its CSRF token. */
export interface ConsoleEnv {
  Bindings: AppEnv["Bindings"];
  Variables: AppEnv["Variables"] & {
    session: ConsoleSession;
    /** Token every form and fetch of this page must send back (docs/console.md, CSRF). */
    csrfToken: string;
  };
}

/** The console's context where a helper expects the Worker's (the console only adds variables). */
export const asAppContext = (c: import("hono").Context<ConsoleEnv>) => c as unknown as import("hono").Context<AppEnv>;

/** What every signed-in page's frame shows: the CSRF token for its forms, who is signed in, which account. */
export function pageChrome(c: import("hono").Context<ConsoleEnv>) {
  const { user, account } = c.get("session");
  return { csrf: c.get("csrfToken"), email: user.email, accountName: account.name, role: user.role };
}
