import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import type { Context } from "hono";
import { videoJobs } from "../platform/db/schema";
import { publicBaseUrl } from "../platform/http/base-url";
import { ApiError, invalid, notFound } from "../platform/http/errors";
import { describeIssues } from "../platform/http/validation";
import { checkSourceAddress } from "../platform/http/source-address";
import { isOutputAvailable, videoDownloadLink } from "../platform/storage/links";
import { alphaVideoKey } from "../platform/storage/keys";
import { assertAllowed, videoCreationBlock, videoReadBlock } from "./access";
import { asAppContext, type ConsoleEnv, pageChrome } from "./context";
import { errorFlash, field, noticeFrom } from "./notices";
import type { Flash } from "./pages/layout";
import { VideosPage } from "./pages/videos";
import { videoJobPage } from "./job-pages";
import { listAvatars, ownVideoJob } from "./queries";
import { AUDIO_TYPES, completedAudio, contentHash, discardUpload, MiB, storeWhole, uploadSourceUrl } from "./uploads";
import { AVATAR_DENIED_MESSAGE, CreateVideoRequest, createVideoJob, normalizeVideoInput } from "../api/public";

/** Audio sent inside the form (no script to upload in parts) is capped well under the Worker's body limit. */
const MAX_FORM_AUDIO_BYTES = 90 * MiB;

async function renderVideos(
  c: Context<ConsoleEnv>,
  flash: Flash | null,
  status: 200 | 400 | 402 | 403 | 409 | 429 = 200,
) {
  const { account } = c.get("session");
  const readBlock = videoReadBlock(account);
  const [avatars, { jobs, olderHref }] = await Promise.all([
    listAvatars(c.env, account.id),
    readBlock ? { jobs: [], olderHref: null } : videoJobPage(c.env, account.id, c.req.query()),
  ]);
  return c.html(
    <VideosPage
      {...pageChrome(c)}
      flash={flash}
      readBlock={readBlock}
      createBlock={videoCreationBlock(account)}
      avatars={avatars}
      selectedAvatarId={c.req.query("avatarId")}
      jobs={jobs}
      olderHref={olderHref}
      requestId={crypto.randomUUID()}
      now={Date.now()}
    />,
    status,
  );
}

const num = (v: string) => (v.trim() === "" ? undefined : Number(v));

/** The form as the Open API's request body, so the very same schema (rules and messages) judges it. */
function asApiBody(form: Record<string, unknown>, audioUrl: string) {
  const f = (n: string) => field(form, n);
  return {
    avatarId: f("avatarId"),
    audioUrl,
    ...(f("backgroundUrl").trim() ? { backgroundUrl: f("backgroundUrl").trim() } : {}),
    ...(f("name").trim() ? { name: f("name").trim() } : {}),
    ...(f("requestId") ? { requestId: f("requestId") } : {}),
    video: {
      width: num(f("width")),
      height: num(f("height")),
      fit: f("fit") || undefined,
      backgroundColor: f("backgroundColor") || undefined,
      backgroundFit: f("backgroundFit") || undefined,
      leadInSeconds: num(f("leadInSeconds")),
      leadOutSeconds: num(f("leadOutSeconds")),
      // A ticked checkbox is sent ("on"), an unticked one is not: unticked is the omitted default.
      replaceBackground: f("replaceBackground") ? true : undefined,
      alpha: f("alpha") ? true : undefined,
      performance: {
        expression: f("expression") || undefined,
        intensity: num(f("intensity")),
        headMotion: num(f("headMotion")),
      },
    },
  };
}

interface AudioSource {
  url: string;
  own: boolean;
  /** Audio sent in the form: stored for this request (deleted if the request is refused), and its content hash. */
  stored?: { id: string; key: string };
  identity?: string;
}

/** The audio source: a finished upload, audio sent in the form, or a URL typed by the person. */
async function audioSource(c: Context<ConsoleEnv>, form: Record<string, unknown>): Promise<AudioSource> {
  const accountId = c.get("session").account.id;
  const uploadId = field(form, "audioUploadId");
  if (uploadId)
    return { url: await uploadSourceUrl(c.env, await completedAudio(c.env, accountId, uploadId)), own: true };
  const file = form.audio instanceof File && form.audio.size > 0 ? form.audio : null;
  if (file) {
    const type = file.type.toLowerCase();
    const ext = AUDIO_TYPES[type];
    if (!ext)
      throw invalid(
        `Audio file must be one of ${Object.keys(AUDIO_TYPES).join(", ")} (got ${type || "an unknown type"})`,
      );
    if (file.size > MAX_FORM_AUDIO_BYTES)
      throw invalid("Audio file over 90 MiB needs the page's script (it uploads in parts, up to 500 MiB)");
    const bytes = await file.arrayBuffer();
    const stored = await storeWhole(c.env, accountId, "audio", bytes, type, ext);
    return {
      url: await uploadSourceUrl(c.env, stored),
      own: true,
      stored,
      identity: `console-audio-sha256:${await contentHash(bytes)}`,
    };
  }
  const url = field(form, "audioUrl").trim();
  if (!url) throw invalid("Audio file or Audio URL is required");
  return { url, own: false };
}

async function jobReadsAudio(env: ConsoleEnv["Bindings"], jobId: string, audioUrl: string): Promise<boolean> {
  const row = await drizzle(env.DB)
    .select({ audioUrl: videoJobs.audioUrl })
    .from(videoJobs)
    .where(eq(videoJobs.id, jobId))
    .get();
  return row?.audioUrl === audioUrl;
}

export const videoRoutes = new Hono<ConsoleEnv>()
  .get("/videos", (c) => renderVideos(c, noticeFrom(c.req.query("notice"))))
  .post("/videos", async (c) => {
    const { account, user } = c.get("session");
    const block = videoCreationBlock(account);
    if (block) return renderVideos(c, errorFlash(block), 403);
    const form = await c.req.parseBody();
    let audio: AudioSource | undefined;
    try {
      audio = await audioSource(c, form);
      const parsed = await CreateVideoRequest.safeParseAsync(asApiBody(form, audio.url));
      if (!parsed.success) {
        if (audio.stored) await discardUpload(c.env, audio.stored);
        return renderVideos(c, errorFlash(describeIssues(parsed.error.issues, "json")), 400);
      }
      const body = parsed.data;
      if (!audio.own) checkSourceAddress(c.env, "audioUrl", body.audioUrl);
      checkSourceAddress(c.env, "backgroundUrl", body.backgroundUrl);
      // The same creation path as POST /v1/open/videos: retry key, Avatar access, limits, the queue.
      const input = normalizeVideoInput(body);
      const job = await createVideoJob(
        c.env,
        { account, creator: { userId: user.id } },
        input,
        body.requestId ?? null,
        undefined,
        audio.identity,
      );
      // A double submit answered with the first job: this request's copy of the audio is not what it reads.
      if (audio.stored && !(await jobReadsAudio(c.env, job.jobId, input.audioUrl)))
        await discardUpload(c.env, audio.stored);
    } catch (err) {
      if (audio?.stored) await discardUpload(c.env, audio.stored);
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      const text = err.message === AVATAR_DENIED_MESSAGE ? "Choose one of your Avatars." : err.message;
      return renderVideos(c, errorFlash(text), err.status as 400);
    }
    return c.redirect("/console/videos?notice=video-created", 303);
  })
  // The player's source and the Download buttons: a fresh signed link for the person's own finished video
  // (?format=webm: its WebM with alpha).
  .get("/videos/:jobId/file", async (c) => {
    const { account } = c.get("session");
    assertAllowed(videoReadBlock(account));
    const job = await ownVideoJob(c.env, account.id, c.req.param("jobId"));
    const webm = c.req.query("format") === "webm";
    if (!isOutputAvailable(job, Date.now()) || (webm && !job.settings.alpha)) {
      throw notFound(`Video ${job.id} has no ${webm ? "WebM " : ""}output available (status ${job.status})`);
    }
    const link = await videoDownloadLink(
      c.env,
      publicBaseUrl(asAppContext(c)),
      job,
      Date.now(),
      webm ? alphaVideoKey(job.id) : job.outputKey,
    );
    c.header("Cache-Control", "no-store");
    return c.redirect(link.url, 302);
  });
