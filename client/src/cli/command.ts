import type { AvatarVideo } from "../avatar-video.js";
import type { AvatarJob, VideoJob } from "../resources/types.js";
import type { Args, Flags } from "./args.js";
import type { Output } from "./output.js";
import { progressBar } from "./progress.js";

export interface Context {
  av: AvatarVideo;
  args: Args;
  out: Output;
}

export interface Command {
  summary: string;
  /** Names of the positional arguments, all required. */
  positionals?: string[];
  flags: Flags;
  /** Resolves with the exit code. */
  run(context: Context): Promise<number>;
}

export const POLL_FLAG: Flags = {
  "poll-ms": { value: "ms", description: "Poll interval (default: the spec's, 5 s for Avatars, 15 s for videos)" },
  "no-wait": { description: "Print the new job at once instead of waiting for it" },
};

const LIST_FLAGS: Flags = {
  limit: { value: "n", description: "Stop after n items (default 20; 0 for all)" },
  "page-size": { value: "n", description: "Items per request, 1 to 99 (default: the limit, at most 99)" },
};

/** Statuses of job lists, as the `statuses` filter; the API rejects an unknown one with 400. */
export const STATUS_FLAG: Flags = {
  status: { value: "status", multiple: true, description: "Only jobs in this status" },
};

/** The first `--limit` items of a list, asked in pages of `--page-size`. */
async function collect<T>(args: Args, list: (options: { pageSize?: number }) => AsyncIterable<T>): Promise<T[]> {
  const limit = args.integer("limit") ?? 20;
  const pageSize = args.integer("page-size") ?? (limit > 0 ? Math.min(limit, 99) : undefined);
  const items: T[] = [];
  for await (const item of list({ pageSize })) {
    items.push(item);
    if (items.length === limit) break;
  }
  return items;
}

/** Waits for a job with a progress bar on stderr (redrawn on a terminal, one line per stage elsewhere). */
export async function withProgress<T>(
  context: Context,
  wait: (options: { intervalMs?: number; onStage: (stage: string) => void }) => Promise<T>,
): Promise<T> {
  const bar = progressBar(context.out.stderr);
  try {
    return await wait({ intervalMs: context.args.integer("poll-ms"), onStage: bar.stage });
  } finally {
    bar.done();
  }
}

/** A job that ended without success: its error on stderr, exit code 1. */
export function jobFailed(context: Context, job: AvatarJob | VideoJob): number {
  const error = job.error ?? { code: job.status, message: `the job ${job.status}` };
  context.out.error({ code: error.code, message: error.message, jobId: job.id });
  return 1;
}

/** A resource as "path  value" lines, for people (scripts take --json). */
function fields(value: unknown, path = ""): string {
  if (value === null || typeof value !== "object") return `${path}  ${String(value)}`;
  return Object.entries(value)
    .map(([key, inner]) => fields(inner, path ? `${path}.${key}` : key))
    .join("\n");
}

/** A command that shows one resource by its ID. */
export function showCommand(
  summary: string,
  idName: string,
  get: (av: AvatarVideo, id: string) => Promise<object>,
): Command {
  return {
    summary,
    positionals: [idName],
    flags: {},
    async run({ av, args, out }) {
      const value = await get(av, args.positionals[0]!);
      out.result(value, fields(value));
      return 0;
    },
  };
}

/** A command that lists up to `--limit` items: one line each for people, an array with --json. */
export function listCommand<T>(
  summary: string,
  flags: Flags,
  list: (av: AvatarVideo, args: Args, page: { pageSize?: number }) => AsyncIterable<T>,
  line: (item: T) => string,
): Command {
  return {
    summary,
    flags: { ...flags, ...LIST_FLAGS },
    async run({ av, args, out }) {
      const items = await collect(args, (page) => list(av, args, page));
      out.result(items, items.map(line).join("\n"));
      return 0;
    },
  };
}
