import {
  BACKGROUND_FITS,
  DIMENSION,
  EXPRESSIONS,
  FITS,
  LEAD_SECONDS,
  PERFORMANCE_DEFAULTS,
  PERFORMANCE_RANGES,
} from "@avatar-video/contract";
import type { Child } from "hono/jsx";
import type { Avatar, PersonRole, VideoJob } from "../../platform/db/schema";
import { VIDEO_FAILURE_ACTIONS } from "../failure-help";
import { AUDIO_TYPES } from "../uploads";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";
import { VIDEO_DEFAULTS, effectiveVideoStatus } from "../../api/public";
import { JobList } from "./job-list";

export interface VideosPageProps {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  /** Video reads unavailable (no video access): the page shows only this. */
  readBlock: string | null;
  createBlock: string | null;
  avatars: Avatar[];
  selectedAvatarId?: string;
  jobs: VideoJob[];
  /** The next page of jobs, when there is one. */
  olderHref: string | null;
  requestId: string;
  now: number;
}

function Field(props: { id: string; label: string; children: Child; hint?: string }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? <p class="hint">{props.hint}</p> : null}
    </div>
  );
}

/** A checkbox with its own label: sent as "on" when ticked, absent otherwise. */
function Switch(props: { name: string; label: string; hint: string }) {
  return (
    <div class="switch">
      <input id={props.name} name={props.name} type="checkbox" aria-describedby={`${props.name}-hint`} />
      <label for={props.name}>{props.label}</label>
      <p id={`${props.name}-hint`} class="hint">
        {props.hint}
      </p>
    </div>
  );
}

function CreateForm(props: VideosPageProps) {
  const d = VIDEO_DEFAULTS;
  const disabled = !!props.createBlock || props.avatars.length === 0;
  return (
    <section class="panel">
      <h2>Create a video</h2>
      {props.createBlock ? <p class="blocked">Video creation is unavailable: {props.createBlock}</p> : null}
      {props.avatars.length === 0 ? <p class="blocked">Create an Avatar first.</p> : null}
      <form method="post" action="/console/videos" enctype="multipart/form-data" data-upload-form>
        <CsrfField token={props.csrf} />
        <input type="hidden" name="requestId" value={props.requestId} />
        <input type="hidden" name="audioUploadId" value="" />
        <Field id="avatarId" label="Avatar">
          <select id="avatarId" name="avatarId" required>
            {props.avatars.map((a) => (
              <option value={a.id} selected={a.id === props.selectedAvatarId}>
                {a.name}
              </option>
            ))}
          </select>
        </Field>
        <div class="dropzone">
          <label for="audio">Audio file</label>
          <input id="audio" name="audio" type="file" accept={[...new Set(Object.keys(AUDIO_TYPES))].join(",")} />
          <p class="hint">
            MP3, WAV, M4A/AAC or OGG, at most 500 MiB. Uploaded in parts; you can also drop the file here.
          </p>
          <progress max={100} value={0} hidden aria-label="Upload progress"></progress>
          <p class="hint" data-upload-status aria-live="polite"></p>
        </div>
        <Field id="audioUrl" label="Audio URL" hint="Or a public http(s) address of the audio, instead of a file.">
          <input id="audioUrl" name="audioUrl" type="url" maxlength={4096} placeholder="https://…" />
        </Field>
        <Field id="videoName" label="Name">
          <input id="videoName" name="name" type="text" maxlength={128} placeholder="Optional" />
        </Field>
        <fieldset class="settings">
          <legend>Presentation</legend>
          <Field id="width" label="Width">
            <input
              id="width"
              name="width"
              type="number"
              min={DIMENSION.min}
              max={DIMENSION.max}
              step={2}
              value={String(d.width)}
              required
            />
          </Field>
          <Field id="height" label="Height">
            <input
              id="height"
              name="height"
              type="number"
              min={DIMENSION.min}
              max={DIMENSION.max}
              step={2}
              value={String(d.height)}
              required
            />
          </Field>
          <Field id="fit" label="Fit">
            <select id="fit" name="fit">
              {FITS.map((v) => (
                <option value={v} selected={v === d.fit}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <Field id="backgroundColor" label="Background colour">
            <input id="backgroundColor" name="backgroundColor" type="color" value={d.backgroundColor} />
          </Field>
          <Field
            id="backgroundUrl"
            label="Background image URL"
            hint="Optional; without it the Avatar's saved background is used."
          >
            <input id="backgroundUrl" name="backgroundUrl" type="url" maxlength={4096} placeholder="https://…" />
          </Field>
          <Field id="backgroundFit" label="Background fit">
            <select id="backgroundFit" name="backgroundFit">
              {BACKGROUND_FITS.map((v) => (
                <option value={v} selected={v === d.backgroundFit}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <Field id="leadInSeconds" label="Lead-in (seconds)">
            <input
              id="leadInSeconds"
              name="leadInSeconds"
              type="number"
              min={LEAD_SECONDS.min}
              max={LEAD_SECONDS.max}
              step="any"
              value={String(d.leadInSeconds)}
              required
            />
          </Field>
          <Field id="leadOutSeconds" label="Lead-out (seconds)">
            <input
              id="leadOutSeconds"
              name="leadOutSeconds"
              type="number"
              min={LEAD_SECONDS.min}
              max={LEAD_SECONDS.max}
              step="any"
              value={String(d.leadOutSeconds)}
              required
            />
          </Field>
          <Field
            id="expression"
            label="Expression"
            hint="neutral is the photo's own; the others are drawn on its face while it speaks."
          >
            <select id="expression" name="expression">
              {EXPRESSIONS.map((v) => (
                <option value={v} selected={v === PERFORMANCE_DEFAULTS.expression}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <Field id="intensity" label="Intensity" hint="How strongly the expression shows, 0 to 1.">
            <input
              id="intensity"
              name="intensity"
              type="number"
              min={PERFORMANCE_RANGES.intensity.min}
              max={PERFORMANCE_RANGES.intensity.max}
              step="0.05"
              value={String(PERFORMANCE_DEFAULTS.intensity)}
            />
          </Field>
          <Field id="headMotion" label="Head motion" hint="0 still, 1 a calm speaker, 3 a lively presenter.">
            <input
              id="headMotion"
              name="headMotion"
              type="number"
              min={PERFORMANCE_RANGES.headMotion.min}
              max={PERFORMANCE_RANGES.headMotion.max}
              step="0.5"
              value={String(PERFORMANCE_DEFAULTS.headMotion)}
            />
          </Field>
          <Switch
            name="replaceBackground"
            label="Replace background"
            hint="The person on the background colour, also without a background image (with one, the person is always in front of it)."
          />
          <Switch
            name="alpha"
            label="Transparent background (WebM)"
            hint="Also a WebM of the person alone with a transparent background, to place over a page or in an editor."
          />
        </fieldset>
        <button type="submit" disabled={disabled}>
          Create video
        </button>
      </form>
    </section>
  );
}

function JobItem(props: { job: VideoJob; avatarName: string; now: number }) {
  const { job } = props;
  const status = effectiveVideoStatus(job, props.now);
  return (
    <li data-job-id={job.id} data-status={status}>
      <div class="job-head">
        <span class="name">{job.name}</span>
        <span class={`status ${status}`}>{status}</span>
        {status === "processing" || status === "queued" ? <span class="stage">{job.stage}</span> : null}
        <span class="hint">
          {props.avatarName} · {when(job.createdAt)}
        </span>
      </div>
      {status === "succeeded" ? (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: the caller's own render of their own audio file; no transcript exists to caption it */}
          <video
            controls
            preload="metadata"
            src={`/console/videos/${job.id}/file#t=0.1`}
            data-video-id={job.id}
          ></video>
          <a class="button secondary" href={`/console/videos/${job.id}/file?download=1`}>
            Download
          </a>
          {job.settings.alpha ? (
            <a class="button secondary" href={`/console/videos/${job.id}/file?format=webm&download=1`}>
              Download WebM (transparent)
            </a>
          ) : null}
        </>
      ) : null}
      {status === "failed" && job.errorCode ? (
        <p class="error-box">
          <strong>{job.errorCode}</strong>
          {job.errorRetryable ? " (retryable)" : " (not retryable)"}: {job.errorMessage}{" "}
          {VIDEO_FAILURE_ACTIONS[job.errorCode] ?? ""}
        </p>
      ) : null}
      {status === "expired" ? <p class="hint">{VIDEO_FAILURE_ACTIONS.expired}</p> : null}
    </li>
  );
}

export function VideosPage(props: VideosPageProps) {
  const names = new Map(props.avatars.map((a) => [a.id, a.name]));
  return (
    <Page
      title="Videos"
      nav="videos"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      {props.readBlock ? (
        <p class="blocked">Videos are unavailable: {props.readBlock}</p>
      ) : (
        <>
          <CreateForm {...props} />
          <section class="panel">
            <h2>Video jobs</h2>
            {props.jobs.length === 0 ? <p class="hint">No videos yet.</p> : null}
            <JobList poll="/console/api/video-jobs" label="Video jobs" olderHref={props.olderHref}>
              {props.jobs.map((job) => (
                <JobItem job={job} avatarName={names.get(job.avatarId) ?? "Avatar"} now={props.now} />
              ))}
            </JobList>
          </section>
        </>
      )}
    </Page>
  );
}
