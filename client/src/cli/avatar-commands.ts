import type { Command } from "./command.js";
import { collect, fields, jobFailed, LIST_FLAGS, POLL_FLAG, STATUS_FLAG, withProgress } from "./command.js";
import type { AvatarJob } from "../resources/types.js";

const IMAGE_FLAG = { image: { value: "url", required: true, description: "Public URL of a JPEG or PNG portrait" } } as const;

const createAvatar: Command = {
  summary: "Create an Avatar from a portrait URL and wait until it is ready",
  flags: { ...IMAGE_FLAG, name: { value: "name", description: "Avatar name, 1 to 128 characters" }, ...POLL_FLAG },
  async run(context) {
    const { av, args, out } = context;
    const created = await av.avatars.create({ imageUrl: args.string("image")!, name: args.string("name") });
    if (args.flag("no-wait")) return out.result(created, `jobId ${created.jobId}`);
    const job = await withProgress(context, (options) => av.waitForAvatar(created.jobId, options));
    if (job.status !== "succeeded") {
      out.result(job, "");
      return jobFailed(context, job);
    }
    out.result(job, `avatarId ${job.avatarId}`);
  },
};

const check: Command = {
  summary: "Say whether a portrait would become an Avatar, and if not why (creates nothing)",
  flags: IMAGE_FLAG,
  async run({ av, args, out }) {
    const verdict = await av.avatars.check({ imageUrl: args.string("image")! });
    out.result(verdict, verdict.acceptable ? `acceptable: ${verdict.detail}` : `not acceptable (${verdict.reason}): ${verdict.detail}`);
  },
};

const listAvatars: Command = {
  summary: "List the account's Avatars, newest first",
  flags: LIST_FLAGS,
  async run({ av, args, out }) {
    const avatars = await collect(args, (options) => av.avatars.list(options));
    out.result(avatars, avatars.map((a) => `${a.id}  ${a.createdAt}  ${a.name}`).join("\n"));
  },
};

const getAvatar: Command = {
  summary: "Show an Avatar",
  positionals: ["avatarId"],
  flags: {},
  async run({ av, args, out }) {
    const avatar = await av.avatars.get(args.positionals[0]!);
    out.result(avatar, fields(avatar));
  },
};

const listJobs: Command = {
  summary: "List Avatar creation jobs, newest first",
  flags: { ...STATUS_FLAG, ...LIST_FLAGS },
  async run({ av, args, out }) {
    const statuses = args.strings("status") as AvatarJob["status"][];
    const jobs = await collect(args, (options) => av.avatarJobs.list({ ...options, statuses }));
    out.result(jobs, jobs.map((j) => `${j.id}  ${j.status}  ${j.avatarId ?? "-"}  ${j.name}`).join("\n"));
  },
};

const getJob: Command = {
  summary: "Show an Avatar creation job",
  positionals: ["jobId"],
  flags: {},
  async run({ av, args, out }) {
    const job = await av.avatarJobs.get(args.positionals[0]!);
    out.result(job, fields(job));
  },
};

export const avatarCommands: Record<string, Command> = {
  "create-avatar": createAvatar,
  check,
  "avatars list": listAvatars,
  "avatars get": getAvatar,
  "jobs list": listJobs,
  "jobs get": getJob,
};
