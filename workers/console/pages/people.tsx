import type { PersonRole } from "../../platform/db/schema";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";
import { RowAction, RowTable } from "./row-table";

export interface PeoplePageProps {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  /** The signed-in person (no Remove button for oneself). */
  selfId: string;
  people: { id: string; email: string; role: PersonRole; createdAt: Date }[];
  invites: { email: string; role: PersonRole | null; expiresAt: Date }[];
  /** Shown once, right after an invite: the link to hand to the person. */
  inviteUrl?: string;
}

const roleLabel = (role: PersonRole | null) => role ?? "member (owner if first)";

/** People and invites of the account: owners only (docs/console.md, "People and roles"). */
export function PeoplePage(props: PeoplePageProps) {
  return (
    <Page
      title="People"
      nav="people"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      {props.inviteUrl ? (
        <section class="panel" aria-labelledby="invite-link">
          <h2 id="invite-link">Invite link</h2>
          <p class="blocked">Send this link to the person: it works once, for 24 hours.</p>
          <div class="secret">
            <code id="invite-url">{props.inviteUrl}</code>
            <button type="button" class="secondary" data-copy="invite-url">
              Copy link
            </button>
          </div>
        </section>
      ) : null}
      <section class="panel">
        <h2>Invite a person</h2>
        <p class="hint">Owners manage Apps, keys, people and invites; members work with Avatars, videos and usage.</p>
        <form method="post" action="/console/people/invite">
          <CsrfField token={props.csrf} />
          <label for="inviteEmail">Email</label>
          <input id="inviteEmail" name="email" type="email" maxlength={254} required />
          <label for="inviteRole">Role</label>
          <select id="inviteRole" name="role">
            <option value="member">member</option>
            <option value="owner">owner</option>
          </select>
          <div>
            <button type="submit">Create invite link</button>
          </div>
        </form>
      </section>
      <section class="panel">
        <h2>People</h2>
        <RowTable
          columns={[{ label: "Email" }, { label: "Role" }, { label: "Since", wide: true }, { label: "Actions" }]}
          rows={props.people.map((p) => [
            p.email,
            p.role,
            when(p.createdAt),
            p.id === props.selfId ? null : (
              <RowAction
                csrf={props.csrf}
                action={`/console/people/${p.id}/remove`}
                confirm="Remove this person? They are signed out at once and cannot sign in again."
                kind="danger"
                name={`Remove ${p.email}`}
                label="Remove"
              />
            ),
          ])}
        />
      </section>
      <section class="panel">
        <h2>Pending invites</h2>
        {props.invites.length === 0 ? <p class="hint">No pending invites.</p> : null}
        {props.invites.length > 0 ? (
          <RowTable
            columns={[{ label: "Email" }, { label: "Role" }, { label: "Expires", wide: true }, { label: "Actions" }]}
            rows={props.invites.map((i) => [
              i.email,
              roleLabel(i.role),
              when(i.expiresAt),
              <RowAction
                csrf={props.csrf}
                action="/console/people/invites/revoke"
                email={i.email}
                kind="secondary"
                name={`Revoke the invite of ${i.email}`}
                label="Revoke"
              />,
            ])}
          />
        ) : null}
      </section>
    </Page>
  );
}
