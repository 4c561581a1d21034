import type { AvatarJob } from "../resources/types.js";
import type { Command } from "./command.js";
import { jobFailed, listCommand, POLL_FLAG, showCommand, STATUS_FLAG, withProgress } from "./command.js";

const IMAGE_FLAG = {
  image: { value: "url", required: true, description: "Public URL of a JPEG or PNG portrait" },
} as const;

const createAvatar: Command = {
  summary: "Create an Avatar from a portrait URL and wait until it is ready",
  flags: { ...IMAGE_FLAG, name: { value: "name", description: "Avatar name, 1 to 128 characters" }, ...POLL_FLAG },
  async run(context) {
    const { av, args, out } = context;
    const created = await av.avatars.create({ imageUrl: args.string("image")!, name: args.string("name") });
    if (args.flag("no-wait")) {
      out.result(created, `jobId ${created.jobId}`);
      return 0;
    }
    const job = await withProgress(context, (options) => av.waitForAvatar(created.jobId, options));
    if (job.status !== "succeeded") {
      out.result(job, "");
      return jobFailed(context, job);
    }
    out.result(job, `avatarId ${job.avatarId}`);
    return 0;
  },
};

const check: Command = {
  summary: "Say whether a portrait would become an Avatar, and if not why (creates nothing)",
  flags: IMAGE_FLAG,
  async run({ av, args, out }) {
    const verdict = await av.avatars.check({ imageUrl: args.string("image")! });
    out.result(
      verdict,
      verdict.acceptable ? `acceptable: ${verdict.detail}` : `not acceptable (${verdict.reason}): ${verdict.detail}`,
    );
    return 0;
  },
};

export const avatarCommands: Record<string, Command> = {
  "create-avatar": createAvatar,
  check,
  "avatars list": listCommand(
    "List the account's Avatars, newest first",
    {},
    (av, _, page) => av.avatars.list(page),
    (a) => `${a.id}  ${a.createdAt}  ${a.name}`,
  ),
  "avatars get": showCommand("Show an Avatar", "avatarId", (av, id) => av.avatars.get(id)),
  "jobs list": listCommand(
    "List Avatar creation jobs, newest first",
    STATUS_FLAG,
    (av, args, page) => av.avatarJobs.list({ ...page, statuses: args.strings("status") as AvatarJob["status"][] }),
    (j) => `${j.id}  ${j.status}  ${j.avatarId ?? "-"}  ${j.name}`,
  ),
  "jobs get": showCommand("Show an Avatar creation job", "jobId", (av, id) => av.avatarJobs.get(id)),
};
