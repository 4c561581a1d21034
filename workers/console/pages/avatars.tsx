import type { Avatar, AvatarJob, PersonRole } from "../../platform/db/schema";
import { AVATAR_FAILURE_ACTIONS } from "../failure-help";
import { when } from "./format";
import { JobList } from "./job-list";
import { CsrfField, type Flash, Page } from "./layout";

export interface AvatarsPageProps {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  /** Why creation is paused (the create button is then disabled), or null. */
  block: string | null;
  avatars: { avatar: Avatar; coverUrl: string }[];
  jobs: AvatarJob[];
  /** The next page of jobs, when there is one. */
  olderHref: string | null;
  name?: string;
}

function JobItem(props: { job: AvatarJob }) {
  const { job } = props;
  return (
    <li data-job-id={job.id} data-status={job.status}>
      <div class="job-head">
        <span class="name">{job.name}</span>
        <span class={`status ${job.status}`}>{job.status}</span>
        <span class="hint">{when(job.createdAt)}</span>
      </div>
      {job.status === "failed" && job.errorCode ? (
        <p class="error-box">
          <strong>{job.errorCode}</strong>: {job.errorMessage} {AVATAR_FAILURE_ACTIONS[job.errorCode] ?? ""}
        </p>
      ) : null}
    </li>
  );
}

export function AvatarsPage(props: AvatarsPageProps) {
  // Jobs still running, and failures (job-pages.ts); succeeded ones are the Avatars below.
  const jobs = props.jobs;
  return (
    <Page
      title="Avatars"
      nav="avatars"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      <section class="panel">
        <h2>Create an Avatar</h2>
        {props.block ? <p class="blocked">Avatar creation is unavailable: {props.block}</p> : null}
        <form method="post" action="/console/avatars" enctype="multipart/form-data">
          <CsrfField token={props.csrf} />
          <div class="dropzone">
            <label for="portrait">Portrait photo</label>
            <input
              id="portrait"
              name="portrait"
              type="file"
              accept="image/jpeg,image/png"
              required
              aria-describedby="portrait-rules"
            />
            <p id="portrait-rules" class="hint">
              JPEG or PNG, at most 5 MiB, shorter side at least 340 pixels, exactly one clearly visible face. You can
              also drop the file here.
            </p>
            <img class="portrait-preview" data-preview-for="portrait" alt="Preview of the chosen portrait" hidden />
          </div>
          <label for="name">Name</label>
          <input id="name" name="name" type="text" maxlength={128} value={props.name ?? ""} placeholder="Optional" />
          <div>
            <button type="submit" disabled={!!props.block}>
              Create Avatar
            </button>
          </div>
        </form>
      </section>
      {jobs.length > 0 ? (
        <section class="panel">
          <h2>Avatar jobs</h2>
          <JobList poll="/console/api/avatar-jobs" label="Avatar jobs" olderHref={props.olderHref}>
            {jobs.map((job) => (
              <JobItem job={job} />
            ))}
          </JobList>
        </section>
      ) : null}
      <section data-refresh="avatars">
        <h2>Your Avatars</h2>
        {props.avatars.length === 0 ? <p class="hint">No Avatars yet.</p> : null}
        <div class="grid">
          {props.avatars.map(({ avatar, coverUrl }) => (
            <a class="tile" href={`/console/avatars/${avatar.id}`} aria-label={`Open Avatar ${avatar.name}`}>
              <img src={coverUrl} alt="" loading="lazy" />
              <div class="meta">
                <div class="name">{avatar.name}</div>
                <div class="hint">{when(avatar.createdAt)}</div>
                <span class={`badge ${avatar.origin}`}>{avatar.origin === "console" ? "Console" : "API"}</span>
              </div>
            </a>
          ))}
        </div>
      </section>
    </Page>
  );
}
