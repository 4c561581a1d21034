import type { components } from "../openapi.js";
import type { VideoJob } from "../resources/types.js";
import { type Args, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { jobFailed, listCommand, POLL_FLAG, showCommand, STATUS_FLAG, withProgress } from "./command.js";
import { download } from "./download.js";
import { byteProgress } from "./progress.js";

type VideoSettings = components["schemas"]["VideoSettings"];

const render: Command = {
  summary: "Render a video of an Avatar speaking an audio URL and download the MP4 (progress on stderr)",
  flags: {
    avatar: { value: "id", required: true, description: "Avatar ID" },
    audio: { value: "url", required: true, description: "Public URL of the audio (mp3, wav, m4a, ogg…)" },
    out: { value: "file", description: "Where to write the MP4 (default video.mp4)" },
    width: { value: "px", description: "Video width, even, 64 to 1920 (default 1024)" },
    height: { value: "px", description: "Video height, even, 64 to 1920 (default 1024)" },
    background: { value: "url", description: "Public URL of a PNG, JPEG or WebP background" },
    expression: { value: "name", description: "neutral (the photo's own), happy, serious, surprised or sad" },
    "head-motion": { value: "0-3", description: "Head movement: 0 still, 1 calm (default), 3 a lively presenter" },
    name: { value: "name", description: "Job name, 1 to 128 characters" },
    "request-id": {
      value: "uuid",
      description: "Retry key: the same key and input answer with the same job (default: a new one)",
    },
    ...POLL_FLAG,
  },
  async run(context) {
    const { av, args, out } = context;
    const [width, height] = [args.integer("width"), args.integer("height")];
    const performance = performanceOf(args);
    const video =
      width === undefined && height === undefined && !performance ? undefined : { width, height, performance };
    const body = {
      avatarId: args.string("avatar")!,
      audioUrl: args.string("audio")!,
      backgroundUrl: args.string("background"),
      name: args.string("name"),
      video,
    };
    const created = await av.videos.create(body, { requestId: args.string("request-id") });
    if (args.flag("no-wait")) {
      out.result(created, `jobId ${created.jobId}`);
      return 0;
    }
    const detail = await withProgress(context, (options) => av.waitForVideo(created.jobId, options));
    if (detail.job.status !== "succeeded" || !detail.videoUrl) {
      out.result(detail, "");
      return jobFailed(context, detail.job);
    }
    const file = args.string("out") ?? "video.mp4";
    const progress = byteProgress(out.stderr);
    const size = await download(detail.videoUrl, file, progress.bytes);
    progress.done();
    out.result({ ...detail, file, bytes: size }, `wrote ${file} (${size} bytes, job ${detail.job.id})`);
    return 0;
  },
};

/** `--expression` and `--head-motion` as video.performance (the service checks the values). */
function performanceOf(args: Args): NonNullable<VideoSettings["performance"]> | undefined {
  const expression = args.string("expression") as NonNullable<VideoSettings["performance"]>["expression"];
  const text = args.string("head-motion");
  if (text !== undefined && !/^\d+(\.\d+)?$/.test(text))
    throw new UsageError("--head-motion takes a number from 0 to 3");
  const headMotion = text === undefined ? undefined : Number(text);
  return expression === undefined && headMotion === undefined ? undefined : { expression, headMotion };
}

export const videoCommands: Record<string, Command> = {
  render,
  "videos list": listCommand(
    "List video jobs, newest first",
    STATUS_FLAG,
    (av, args, page) => av.videos.list({ ...page, statuses: args.strings("status") as VideoJob["status"][] }),
    (j) => `${j.id}  ${j.status}  ${j.progress.stage}  ${j.name}`,
  ),
  "videos get": showCommand("Show a video job (with its download link once it succeeded)", "jobId", (av, id) =>
    av.videos.get(id),
  ),
};
