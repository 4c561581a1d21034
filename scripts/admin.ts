/**
 * Operator CLI over the admin API (docs/admin-api.md). `npm run admin -- --help`, `npm run admin -- <command> --help`.
 *
 *   npm run admin -- <command> [args] [--base-url URL] [--token TOKEN]
 *
 * Base URL: --base-url, else $BASE_URL, else http://127.0.0.1:8787.
 * Token: --token, else $ADMIN_TOKEN, else ADMIN_TOKEN from ./.dev.vars (written by `npm start`).
 *
 * Each command is one entry of COMMANDS: its arguments (for --help) and a handler that receives the parsed
 * command line and the connection. Add a command by adding an entry.
 */
import { type ArgsDef, type CommandDef, defineCommand, renderUsage, runMain, showUsage } from "citty";
import {
  bool,
  call,
  type Connection,
  connection,
  int,
  need,
  type Parsed,
  parseArgs,
  print,
  shortDuration,
  table,
  UsageError,
} from "./lib/admin-client";

const VIDEO_CEILINGS = {
  perMinute: 20,
  perHour: 200,
  perDay: 2000,
  readsPerSecond: 20,
  readBurst: 40,
  readsPerMinute: 1200,
};
const FLAGS = ["active", "openApiAccess", "avatarCreationEnabled", "videoAccess", "videoCreationEnabled"] as const;
/** Options written `--opt VALUE` as well as `--opt=VALUE`. */
const TAKES_VALUE = new Set(["name", "units", "base-url", "token", "email", "limit", "role", "account"]);

const id = (name: string, description: string): ArgsDef => ({
  [name]: { type: "positional", description, required: false, valueHint: name },
});
const flag = (description: string) => ({ type: "string" as const, description, valueHint: "true|false" });

interface Command {
  description: string;
  args?: ArgsDef;
  run(cli: Parsed & { positional: string[] }, cfg: Connection): Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  "create-account": {
    description: "Create an account (POST /accounts)",
    args: {
      name: { type: "string", description: "Account name", required: true },
      "enable-all": {
        type: "boolean",
        description:
          "Open API access, Avatar creation, video access and video creation on, with explicit video limits at the hard ceilings",
      },
      units: { type: "string", description: "Initial Avatar Creation balance", valueHint: "N" },
      inactive: { type: "boolean", description: "Create the account inactive" },
    },
    async run({ options }, cfg) {
      const body: Record<string, unknown> = { name: need(options.get("name") as string | undefined, "--name") };
      if (options.has("units")) body.avatarUnits = int("--units", options.get("units"));
      if (options.has("inactive")) body.active = false;
      if (options.has("enable-all")) {
        Object.assign(body, {
          openApiAccess: true,
          avatarCreationEnabled: true,
          videoAccess: true,
          videoCreationEnabled: true,
        });
        body.limits = { video: VIDEO_CEILINGS };
      }
      print(await call(cfg, "POST", "/accounts", body));
    },
  },
  "get-account": {
    description: "Show an account, its flags, limits and balance",
    args: id("ACCOUNT_ID", "Account"),
    run: async ({ positional }, cfg) => print(await call(cfg, "GET", `/accounts/${need(positional[0], "ACCOUNT_ID")}`)),
  },
  "set-flags": {
    description: "Change access flags (and --name) of an account",
    args: {
      ...id("ACCOUNT_ID", "Account"),
      ...Object.fromEntries(FLAGS.map((f) => [f, flag(`Set ${f}`)])),
      name: { type: "string", description: "Rename the account" },
    },
    async run({ positional, options }, cfg) {
      const body: Record<string, unknown> = {};
      for (const f of FLAGS) if (options.has(f)) body[f] = bool(f, options.get(f)!);
      if (options.has("name")) body.name = options.get("name");
      if (Object.keys(body).length === 0)
        throw new UsageError(`set-flags needs at least one of ${FLAGS.map((f) => `--${f}`).join(", ")}`);
      print(await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, body));
    },
  },
  "set-limits": {
    description: "Change rate limits (--avatar.FIELD=N, --video.FIELD=N, --video=ceilings|none)",
    args: {
      ...id("ACCOUNT_ID", "Account"),
      "avatar.FIELD": {
        type: "string",
        description: "perMinute perHour perDay concurrent readsPerSecond readBurst readsPerMinute",
        valueHint: "N",
      },
      "video.FIELD": {
        type: "string",
        description: "perMinute perHour perDay readsPerSecond readBurst readsPerMinute",
        valueHint: "N",
      },
      video: {
        type: "string",
        description: "ceilings (every video limit at its ceiling) or none",
        valueHint: "ceilings|none",
      },
    },
    async run({ positional, options }, cfg) {
      const avatar: Record<string, number> = {};
      let video: Record<string, number> | null | undefined;
      for (const [key, value] of options) {
        if (key === "base-url" || key === "token") continue;
        if (key === "video") {
          if (value === "none") video = null;
          else if (value === "ceilings") video = { ...VIDEO_CEILINGS, ...(video ?? {}) };
          else throw new UsageError("--video must be ceilings or none");
          continue;
        }
        const m = /^(avatar|video)\.(\w+)$/.exec(key);
        if (!m) throw new UsageError(`Unknown option --${key}`);
        if (m[1] === "avatar") avatar[m[2]] = int(`--${key}`, value);
        else {
          if (video === null) throw new UsageError("--video=none cannot be combined with video fields");
          video = { ...(video ?? {}), [m[2]]: int(`--${key}`, value) };
        }
      }
      const limits: Record<string, unknown> = {};
      if (Object.keys(avatar).length) limits.avatar = avatar;
      if (video !== undefined) limits.video = video;
      if (Object.keys(limits).length === 0)
        throw new UsageError("set-limits needs --avatar.FIELD=N, --video.FIELD=N or --video=ceilings|none");
      print(await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, { limits }));
    },
  },
  "grant-units": {
    description: "Add N Avatar Creations atomically (negative N withdraws)",
    args: { ...id("ACCOUNT_ID", "Account"), ...id("N", "Units to add") },
    run: async ({ positional }, cfg) =>
      print(
        await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/avatar-units`, {
          delta: int("N", need(positional[1], "N")),
        }),
      ),
  },
  "set-units": {
    description: "Set the Avatar Creation balance to N (reserved units included)",
    args: { ...id("ACCOUNT_ID", "Account"), ...id("N", "New balance") },
    run: async ({ positional }, cfg) =>
      print(
        await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, {
          avatarUnits: int("N", need(positional[1], "N")),
        }),
      ),
  },
  "create-app": {
    description: "Create an App; prints its API key, which is shown only once",
    args: { ...id("ACCOUNT_ID", "Account"), name: { type: "string", description: "App name" } },
    async run({ positional, options }, cfg) {
      const name = options.get("name");
      const created = await call(
        cfg,
        "POST",
        `/accounts/${need(positional[0], "ACCOUNT_ID")}/apps`,
        typeof name === "string" ? { name } : {},
      );
      print(created);
      // The variables the client CLI (npm run avatar-video) and the SDK examples read: paste them as they are.
      process.stderr.write(
        `\nThe API key is shown only now; store it safely. For the avatar-video CLI:\nexport AVATAR_VIDEO_APP_ID=${created.app.id}\nexport AVATAR_VIDEO_API_KEY=${created.apiKey}\nexport AVATAR_VIDEO_BASE_URL=${cfg.baseUrl}\n`,
      );
    },
  },
  "list-apps": {
    description: "List the Apps of an account (revoked ones with revokedAt)",
    args: id("ACCOUNT_ID", "Account"),
    run: async ({ positional }, cfg) =>
      print(await call(cfg, "GET", `/accounts/${need(positional[0], "ACCOUNT_ID")}/apps`)),
  },
  "revoke-app": {
    description: "Revoke an App: its key stops working with the next request",
    args: id("APP_ID", "App"),
    async run({ positional }, cfg) {
      await call(cfg, "DELETE", `/apps/${need(positional[0], "APP_ID")}`);
      print({ revoked: positional[0] });
    },
  },
  "avatar-access": {
    description: "Make an Avatar public or set the accounts allowed to use it (--allow= clears the set)",
    args: {
      ...id("AVATAR_ID", "Avatar"),
      public: flag("Usable by every account"),
      allow: {
        type: "string",
        description: "Accounts allowed to use it, comma separated",
        valueHint: "ACCOUNT_ID,ACCOUNT_ID",
      },
    },
    async run({ positional, options }, cfg) {
      const body: Record<string, unknown> = {};
      if (options.has("public")) body.public = bool("public", options.get("public")!);
      if (options.has("allow")) {
        const allow = options.get("allow");
        body.allowAccountIds = typeof allow === "string" && allow ? allow.split(",").map((s) => s.trim()) : [];
      }
      print(await call(cfg, "PUT", `/avatars/${need(positional[0], "AVATAR_ID")}/access`, body));
    },
  },
  reconcile: {
    description: "Re-align the account's limiter with the job records",
    args: id("ACCOUNT_ID", "Account"),
    run: async ({ positional }, cfg) =>
      print(await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/reconcile`)),
  },
  "invite-user": {
    description: "Print a one-time web console link (…/console/invite/<token>, 24 h)",
    args: {
      ...id("ACCOUNT_ID", "Account"),
      email: { type: "string", description: "The person's email", required: true },
      role: {
        type: "string",
        description: "owner or member (default: the account's first person owner, later ones member)",
        valueHint: "owner|member",
      },
    },
    async run({ positional, options }, cfg) {
      const email = need(options.get("email") as string | undefined, "--email");
      const role = options.get("role");
      const created = await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/console-invites`, {
        email,
        ...(typeof role === "string" ? { role } : {}),
      });
      process.stdout.write(`${created.url}\n`); // one line: the link (valid 24 h, works once)
    },
  },
  "list-users": {
    description: "List an account's console people (id, email, role) and pending invites",
    args: id("ACCOUNT_ID", "Account"),
    run: async ({ positional }, cfg) =>
      print(await call(cfg, "GET", `/accounts/${need(positional[0], "ACCOUNT_ID")}/console-users`)),
  },
  "remove-user": {
    description: "Remove a console person (by USER_ID, or ACCOUNT_ID --email): sessions end at once, invites revoked",
    args: {
      ...id("ID", "USER_ID, or ACCOUNT_ID with --email"),
      email: { type: "string", description: "The person's email (ID is then the account)" },
    },
    async run({ positional, options }, cfg) {
      const userId = await personId(cfg, need(positional[0], "ID"), options.get("email"));
      print(await call(cfg, "DELETE", `/console-users/${userId}`));
    },
  },
  "end-sessions": {
    description: "Sign a console person out everywhere (by USER_ID, or ACCOUNT_ID --email); the password stays",
    args: {
      ...id("ID", "USER_ID, or ACCOUNT_ID with --email"),
      email: { type: "string", description: "The person's email (ID is then the account)" },
    },
    async run({ positional, options }, cfg) {
      const userId = await personId(cfg, need(positional[0], "ID"), options.get("email"));
      print(await call(cfg, "DELETE", `/console-users/${userId}/sessions`));
    },
  },
  "set-role": {
    description: "Make a console person owner or member (by USER_ID, or ACCOUNT_ID --email)",
    args: {
      ...id("ID", "USER_ID, or ACCOUNT_ID with --email"),
      email: { type: "string", description: "The person's email (ID is then the account)" },
      role: { type: "string", description: "owner or member", required: true, valueHint: "owner|member" },
    },
    async run({ positional, options }, cfg) {
      const userId = await personId(cfg, need(positional[0], "ID"), options.get("email"));
      print(
        await call(cfg, "PATCH", `/console-users/${userId}`, { role: need(options.get("role") as string, "--role") }),
      );
    },
  },
  "revoke-invites": {
    description: "Revoke an account's pending console invites (all, or --email's)",
    args: {
      ...id("ACCOUNT_ID", "Account"),
      email: { type: "string", description: "Only this email's invites" },
    },
    async run({ positional, options }, cfg) {
      const email = options.get("email");
      const query = typeof email === "string" ? `?email=${encodeURIComponent(email)}` : "";
      print(await call(cfg, "DELETE", `/accounts/${need(positional[0], "ACCOUNT_ID")}/console-invites${query}`));
    },
  },
  audit: {
    description: "The admin audit trail, newest first: who changed what, when, before → after",
    args: {
      account: { type: "string", description: "Only this account's entries", valueHint: "ACCOUNT_ID" },
      limit: { type: "string", description: "At most N entries (1–500, default 100)", valueHint: "N" },
      json: { type: "boolean", description: "Print the API answer as JSON instead of a table" },
    },
    async run({ options }, cfg) {
      const query = new URLSearchParams();
      const account = options.get("account");
      if (typeof account === "string") query.set("accountId", account);
      if (options.has("limit")) query.set("limit", String(int("--limit", options.get("limit"))));
      const answer = await call(cfg, "GET", `/audit${query.size ? `?${query}` : ""}`);
      if (options.has("json")) return print(answer);
      type Entry = { at: string; actor: string; action: string; accountId: string | null; target: string | null };
      type Change = { before: unknown; after: unknown };
      const change = (e: Change) => `${JSON.stringify(e.before ?? null)} → ${JSON.stringify(e.after ?? null)}`;
      const rows = (answer.entries as (Entry & Change)[]).map((e) => [
        e.at,
        e.actor,
        e.action,
        e.accountId ?? "-",
        e.target ?? "-",
        change(e),
      ]);
      process.stdout.write(table(["WHEN", "WHO", "WHAT", "ACCOUNT", "TARGET", "BEFORE → AFTER"], rows));
    },
  },
  jobs: {
    description:
      "List non-terminal jobs (queued, processing) of every account with age, attempt, stage and last heartbeat",
    args: {
      active: { type: "boolean", description: "Non-terminal jobs (required: the only listing so far)", required: true },
      limit: { type: "string", description: "At most N jobs of each kind (1–500, default 200)", valueHint: "N" },
      json: { type: "boolean", description: "Print the API answer as JSON instead of a table" },
    },
    async run({ options }, cfg) {
      if (!options.has("active")) throw new UsageError("jobs needs --active");
      const limit = options.has("limit") ? `?limit=${int("--limit", options.get("limit"))}` : "";
      const answer = await call(cfg, "GET", `/jobs/active${limit}`);
      if (options.has("json")) return print(answer);
      type Job = {
        kind: string;
        id: string;
        accountId: string;
        status: string;
        stage: string;
        attempt: number;
        ageSeconds: number;
        heartbeatAgeSeconds: number | null;
      };
      const rows = (answer.jobs as Job[]).map((j) => [
        j.kind,
        j.id,
        j.accountId,
        j.status,
        j.stage,
        String(j.attempt),
        shortDuration(j.ageSeconds),
        j.heartbeatAgeSeconds === null ? "-" : `${shortDuration(j.heartbeatAgeSeconds)} ago`,
      ]);
      process.stdout.write(table(["KIND", "JOB", "ACCOUNT", "STATUS", "STAGE", "ATTEMPT", "AGE", "HEARTBEAT"], rows));
      process.stdout.write(`${rows.length} active job${rows.length === 1 ? "" : "s"} at ${answer.now}\n`);
    },
  },
  pool: {
    description: "The renderer pool: instances and their leases, the line per account, the oldest wait",
    args: { json: { type: "boolean", description: "Print the API answer as JSON instead of tables" } },
    async run({ options }, cfg) {
      const answer = await call(cfg, "GET", "/renderer-pool");
      if (options.has("json")) return print(answer);
      type Lease = { instance: number; kind: string; jobId: string; accountId: string; heldSeconds: number };
      type Line = { accountId: string; running: number; waiting: number; oldestWaitSeconds: number | null };
      const wait = (s: number | null) => (s === null ? "-" : shortDuration(s));
      const leases = answer.leases as Lease[];
      const busy = new Set(leases.filter((l) => l.kind === "video").map((l) => l.instance)).size;
      process.stdout.write(
        `${answer.instances} instances, ${busy} rendering; while others wait one account holds at most ${answer.accountCap} and ${answer.reserve} stay for first renders\n`,
      );
      const held = leases.map((l) => [String(l.instance), l.kind, l.jobId, l.accountId, shortDuration(l.heldSeconds)]);
      process.stdout.write(table(["INSTANCE", "KIND", "JOB", "ACCOUNT", "HELD"], held));
      const lines = (answer.accounts as Line[]).map((a) => [
        a.accountId,
        String(a.running),
        String(a.waiting),
        wait(a.oldestWaitSeconds),
      ]);
      process.stdout.write(table(["ACCOUNT", "RUNNING", "WAITING", "OLDEST WAIT"], lines));
      process.stdout.write(
        `${answer.waiting} waiting over ${answer.accountsWaiting} account(s); oldest wait ${wait(answer.oldestWaitSeconds)}\n`,
      );
    },
  },
};

/** A person's id: ID itself, or (with --email) the id of that email's person in account ID. */
async function personId(cfg: Connection, id: string, email: string | boolean | undefined): Promise<string> {
  if (typeof email !== "string") return id;
  const { people } = (await call(cfg, "GET", `/accounts/${id}/console-users`)) as {
    people: { id: string; email: string }[];
  };
  const person = people.find((p) => p.email === email.trim().toLowerCase());
  if (!person) throw new Error(`No person with email ${email} in account ${id}.`);
  return person.id;
}

const common: ArgsDef = {
  "base-url": {
    type: "string",
    description: "Worker base URL (default $BASE_URL or http://127.0.0.1:8787)",
    valueHint: "URL",
  },
  token: {
    type: "string",
    description: "Admin token (default $ADMIN_TOKEN or ADMIN_TOKEN of ./.dev.vars)",
    valueHint: "TOKEN",
  },
};

function subCommand(name: string, c: Command): CommandDef {
  const cmd: CommandDef = defineCommand({
    meta: { name, description: c.description },
    args: { ...c.args, ...common },
    async run({ rawArgs }) {
      try {
        const cli = parseArgs(rawArgs, TAKES_VALUE);
        await c.run(cli, connection(cli.options));
      } catch (err) {
        if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${await renderUsage(cmd, main)}\n`);
        else process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      }
    },
  });
  return cmd;
}

const main: CommandDef = defineCommand({
  meta: { name: "npm run admin --", description: "Operator CLI over the admin API (docs/admin-api.md)" },
  subCommands: {
    ...Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, subCommand(name, c)])),
    help: defineCommand({ meta: { name: "help", description: "Show this help" }, run: () => showUsage(main) }),
  },
});

await runMain(main);
