import { AvatarVideo } from "../avatar-video.js";
import { DEFAULT_BASE_URL } from "../config.js";
import { AvatarVideoError } from "../errors.js";
import { VERSION } from "../version.js";
import { COMMON_FLAGS, describeFlags, parse, UsageError } from "./args.js";
import { avatarCommands } from "./avatar-commands.js";
import type { Command } from "./command.js";
import { Output, type Stream } from "./output.js";
import { sessionTokenCommands } from "./session-token-command.js";
import { closest } from "./suggest.js";
import { videoCommands } from "./video-commands.js";

const COMMANDS: Record<string, Command> = { ...avatarCommands, ...videoCommands, ...sessionTokenCommands };

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

/**
 * Why the first words name no command: a group without its subcommand, or the command a typo most likely
 * meant. Only command names are repeated, never what was typed (it may be a key pasted in the wrong place).
 */
function unknownCommand(argv: string[]): string {
  const names = Object.keys(COMMANDS);
  const [first = "", second = ""] = argv;
  const group = names.filter((name) => name.startsWith(`${first} `));
  const guess = group.length
    ? closest(`${first} ${second}`, group)
    : (closest(
        `${first} ${second}`,
        names.filter((name) => name.includes(" ")),
      ) ??
      closest(
        first,
        names.filter((name) => !name.includes(" ")),
      ));
  const quoted = (list: string[]) => list.map((name) => `\`avatar-video ${name}\``).join(", ");
  if (guess) return `unknown command; did you mean ${quoted([guess])}?`;
  if (group.length) return `missing or unknown subcommand; one of ${quoted(group)}`;
  return `unknown command; one of: ${names.join(", ")}`;
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
    if (!found) throw new UsageError(unknownCommand(argv));
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
