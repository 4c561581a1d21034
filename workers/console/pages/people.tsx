import type { PersonRole } from "../../platform/db/schema";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";

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
        <div class="table-wrap">
          <table class="stack-narrow">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th class="hide-narrow">Since</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.people.map((p) => (
                <tr>
                  <td>{p.email}</td>
                  <td>{p.role}</td>
                  <td class="hide-narrow">{when(p.createdAt)}</td>
                  <td>
                    {p.id === props.selfId ? null : (
                      <form
                        method="post"
                        action={`/console/people/${p.id}/remove`}
                        data-confirm="Remove this person? They are signed out at once and cannot sign in again."
                      >
                        <CsrfField token={props.csrf} />
                        <button type="submit" class="danger" aria-label={`Remove ${p.email}`}>
                          Remove
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="panel">
        <h2>Pending invites</h2>
        {props.invites.length === 0 ? <p class="hint">No pending invites.</p> : null}
        {props.invites.length > 0 ? (
          <div class="table-wrap">
            <table class="stack-narrow">
              <thead>
                <tr>
                  <th>Email</th>
                  <th>Role</th>
                  <th class="hide-narrow">Expires</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {props.invites.map((i) => (
                  <tr>
                    <td>{i.email}</td>
                    <td>{roleLabel(i.role)}</td>
                    <td class="hide-narrow">{when(i.expiresAt)}</td>
                    <td>
                      <form method="post" action="/console/people/invites/revoke">
                        <CsrfField token={props.csrf} />
                        <input type="hidden" name="email" value={i.email} />
                        <button type="submit" class="secondary" aria-label={`Revoke the invite of ${i.email}`}>
                          Revoke
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </Page>
  );
}
