import { AvatarVideo } from "../avatar-video.js";
import { DEFAULT_BASE_URL } from "../config.js";
import { AvatarVideoError } from "../errors.js";
import { VERSION } from "../version.js";
import { COMMON_FLAGS, describeFlags, parse, UsageError } from "./args.js";
import { avatarCommands } from "./avatar-commands.js";
import type { Command } from "./command.js";
import { Output, type Stream } from "./output.js";
import { videoCommands } from "./video-commands.js";

const COMMANDS: Record<string, Command> = { ...avatarCommands, ...videoCommands };

export interface Io {
  env: Record<string, string | undefined>;
  stdout: Stream;
  stderr: Stream;
}

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const commands = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    "Usage: avatar-video <command> [options]",
    "",
    "Commands:",
    ...commands,
    "",
    "Every command takes:",
    describeFlags(COMMON_FLAGS),
    "",
    "Exit codes: 0 done, 1 the API (or a job) answered with an error, 2 the command line is wrong.",
    "Run `avatar-video <command> --help` for a command's options.",
  ].join("\n");
}

function commandHelp(name: string, command: Command): string {
  const positionals = (command.positionals ?? []).map((p) => ` <${p}>`).join("");
  return [
    `Usage: avatar-video ${name}${positionals} [options]`,
    "",
    command.summary,
    "",
    "Options:",
    describeFlags({ ...command.flags, ...COMMON_FLAGS }),
  ].join("\n");
}

/** The command named by the first one or two words. */
function find(argv: string[]): { name: string; command: Command; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(" ");
    const command = COMMANDS[name];
    if (command) return { name, command, rest: argv.slice(words) };
  }
  return undefined;
}

/** Runs one command line; resolves with the exit code: 0 done, 1 an API or job error, 2 a usage error. */
export async function run(argv: string[], io: Io): Promise<number> {
  const envKey = io.env.AVATAR_VIDEO_API_KEY;
  let out = new Output(io, argv.includes("--json"), envKey ? [envKey] : []);
  const found = find(argv);
  try {
    if (argv[0] === "--help" || argv[0] === "-h") return print(io.stdout, mainHelp(), 0);
    if (argv[0] === "--version") return print(io.stdout, VERSION, 0);
    if (argv.length === 0) return print(io.stderr, mainHelp(), 2);
    if (!found) throw new UsageError(`unknown command; one of: ${Object.keys(COMMANDS).join(", ")}`);
    const args = parse({ ...found.command.flags, ...COMMON_FLAGS }, found.command.positionals ?? [], found.rest);
    if (args.flag("help")) return print(io.stdout, commandHelp(found.name, found.command), 0);
    const appId = args.string("app-id") ?? io.env.AVATAR_VIDEO_APP_ID;
    const apiKey = args.string("api-key") ?? envKey;
    if (!appId || !apiKey)
      throw new UsageError("set AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY (or --app-id and --api-key)");
    out = new Output(io, args.flag("json"), [apiKey]);
    const av = new AvatarVideo({
      baseUrl: args.string("base-url") ?? io.env.AVATAR_VIDEO_BASE_URL ?? DEFAULT_BASE_URL,
      appId,
      apiKey,
    });
    return await found.command.run({ av, args, out });
  } catch (error) {
    if (error instanceof UsageError) {
      out.error({
        code: "usage",
        message: `${error.message}; see \`avatar-video ${found ? `${found.name} ` : ""}--help\``,
      });
      return 2;
    }
    if (error instanceof AvatarVideoError) out.apiError(error);
    else out.error({ code: "failed", message: (error as Error).message });
    return 1;
  }
}

/** Help and version text (static: it never shows a value from the environment). */
function print(stream: Stream, text: string, code: number): number {
  stream.write(`${text}\n`);
  return code;
}
