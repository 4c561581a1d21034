import type { PersonRole } from "../../platform/db/schema";
import { PASSWORD_MIN_LENGTH } from "../password";
import { CardPage, CsrfField, type Flash, Page } from "./layout";

export function SignInPage(props: { csrf: string; email?: string; flash?: Flash | null }) {
  return (
    <CardPage title="Sign in" csrf={props.csrf} flash={props.flash}>
      <form method="post" action="/console/sign-in" class="stack">
        <CsrfField token={props.csrf} />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={props.email ?? ""}
          autofocus
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      <p class="hint">No account yet? Ask your operator for an invite link.</p>
    </CardPage>
  );
}

function NewPasswordFields() {
  return (
    <>
      <label for="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="new-password"
        required
        minlength={PASSWORD_MIN_LENGTH}
        aria-describedby="password-rule"
      />
      <p id="password-rule" class="hint">
        At least {PASSWORD_MIN_LENGTH} characters. A long passphrase is best.
      </p>
      <label for="confirm">Confirm password</label>
      <input
        id="confirm"
        name="confirm"
        type="password"
        autocomplete="new-password"
        required
        minlength={PASSWORD_MIN_LENGTH}
      />
    </>
  );
}

export function InvitePage(props: { csrf: string; token: string; email: string; flash?: Flash | null }) {
  return (
    <CardPage title="Set your password" csrf={props.csrf} flash={props.flash}>
      <p>
        You are invited as <strong>{props.email}</strong>.
      </p>
      <form method="post" action={`/console/invite/${props.token}`} class="stack">
        <CsrfField token={props.csrf} />
        <NewPasswordFields />
        <button type="submit">Set password</button>
      </form>
    </CardPage>
  );
}

export function InviteInvalidPage(props: { csrf: string }) {
  return (
    <CardPage title="Invite link not valid" csrf={props.csrf}>
      <p>This invite link has expired or was already used. Invite links work once, for 24 hours.</p>
      <p>
        Ask your operator for a new one, or <a href="/console/sign-in">sign in</a> if you already set a password.
      </p>
    </CardPage>
  );
}

export function PasswordPage(props: {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
}) {
  return (
    <Page
      title="Password"
      nav="password"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      <p>Changing your password signs you out everywhere else.</p>
      <form method="post" action="/console/password" class="stack narrow">
        <CsrfField token={props.csrf} />
        <label for="current">Current password</label>
        <input id="current" name="current" type="password" autocomplete="current-password" required />
        <NewPasswordFields />
        <button type="submit">Change password</button>
      </form>
    </Page>
  );
}
