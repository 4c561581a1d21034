import type { App, PersonRole } from "../../platform/db/schema";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";
import { RowAction, RowTable } from "./row-table";

export interface AppsPageProps {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  apps: App[];
  /** Shown once, right after Create App or Rotate key; never stored, never shown again. */
  secret?: { appId: string; apiKey: string; appName: string };
}

function SecretField(props: { id: string; label: string; value: string }) {
  return (
    <>
      {/* A caption of the value shown, not of a form control: styled as a label, not a <label>. */}
      <div class="label">{props.label}</div>
      <div class="secret">
        <code id={props.id}>{props.value}</code>
        <button type="button" class="secondary" data-copy={props.id}>
          Copy {props.label}
        </button>
      </div>
    </>
  );
}

function Secret(props: { appId: string; apiKey: string; appName: string }) {
  return (
    <section class="panel" aria-labelledby="secret-heading">
      <h2 id="secret-heading">API key of {props.appName}</h2>
      <p class="blocked">
        Copy the API key now: it is shown only once. Keep it on your backend, never in client-side code.
      </p>
      <SecretField id="new-app-id" label="App ID" value={props.appId} />
      <SecretField id="new-api-key" label="API key" value={props.apiKey} />
    </section>
  );
}

/** Create an App: owners only (the page leaves it out for members). */
function CreateApp(props: { csrf: string }) {
  return (
    <section class="panel">
      <h2>Create an App</h2>
      <p class="hint">
        An App is a pair of App ID and API key for the Open API. Every App of the account shares its Avatars, jobs and
        limits.
      </p>
      <form method="post" action="/console/apps">
        <CsrfField token={props.csrf} />
        <label for="appName">Name</label>
        <input id="appName" name="name" type="text" maxlength={128} placeholder="Optional" />
        <div>
          <button type="submit">Create App</button>
        </div>
      </form>
    </section>
  );
}

export function AppsPage(props: AppsPageProps) {
  return (
    <Page
      title="Apps"
      nav="apps"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      {props.secret ? <Secret {...props.secret} /> : null}
      {props.role === "owner" ? <CreateApp csrf={props.csrf} /> : null}
      <section class="panel">
        <h2>Your Apps</h2>
        {props.role === "owner" ? null : (
          <p class="hint">Only an owner of the account can create Apps and rotate or disable their keys.</p>
        )}
        {props.apps.length === 0 ? <p class="hint">No Apps yet.</p> : null}
        {props.apps.length > 0 ? (
          <RowTable
            columns={[
              { label: "Name" },
              { label: "App ID" },
              { label: "Created", wide: true },
              { label: "State" },
              { label: "Actions" },
            ]}
            rows={props.apps.map((app) => [
              app.name,
              <code>{app.id}</code>,
              when(app.createdAt),
              app.revokedAt ? (
                <span class="status failed">disabled</span>
              ) : (
                <span class="status succeeded">active</span>
              ),
              app.revokedAt || props.role !== "owner" ? null : (
                <div class="row-actions">
                  <RowAction
                    csrf={props.csrf}
                    action={`/console/apps/${app.id}/rotate`}
                    confirm="Rotate the key? The current key stops working at once."
                    kind="secondary"
                    name={`Rotate key of ${app.name}`}
                    label="Rotate key"
                  />
                  <RowAction
                    csrf={props.csrf}
                    action={`/console/apps/${app.id}/disable`}
                    confirm="Disable this App? Its key stops working for good."
                    kind="danger"
                    name={`Disable ${app.name}`}
                    label="Disable"
                  />
                </div>
              ),
            ])}
          />
        ) : null}
      </section>
    </Page>
  );
}
