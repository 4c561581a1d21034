/**
 * Operator CLI over the admin API (docs/admin-api.md).
 *
 *   npm run admin -- <command> [args] [--base-url URL] [--token TOKEN]
 *
 * Base URL: --base-url, else $BASE_URL, else http://127.0.0.1:8787.
 * Token: --token, else $ADMIN_TOKEN, else ADMIN_TOKEN from ./.dev.vars (written by `npm start`).
 */
import { existsSync, readFileSync } from "node:fs";
import { parseDevVars } from "./lib/dev-vars";

const USAGE = `Usage: npm run admin -- <command> [args] [--base-url URL] [--token TOKEN]

  create-account --name NAME [--enable-all] [--units N] [--inactive]
        --enable-all: Open API access, Avatar creation, video access and video creation on,
                      with explicit video limits at the hard ceilings
  get-account ACCOUNT_ID
  set-flags ACCOUNT_ID [--active=B] [--openApiAccess=B] [--avatarCreationEnabled=B]
                       [--videoAccess=B] [--videoCreationEnabled=B] [--name=NAME]      (B: true|false)
  set-limits ACCOUNT_ID [--avatar.FIELD=N ...] [--video.FIELD=N ...] [--video=ceilings|none]
        avatar fields: perMinute perHour perDay concurrent readsPerSecond readBurst readsPerMinute
        video fields:  perMinute perHour perDay readsPerSecond readBurst readsPerMinute
  grant-units ACCOUNT_ID N      add N Avatar Creations atomically (negative N withdraws)
  set-units ACCOUNT_ID N        set the balance to N (reserved units included)
  create-app ACCOUNT_ID [--name NAME]      prints the API key: it is shown only once
  list-apps ACCOUNT_ID
  revoke-app APP_ID
  avatar-access AVATAR_ID [--public=B] [--allow=ACCOUNT_ID,ACCOUNT_ID,...|--allow=]
  reconcile ACCOUNT_ID          re-align the account's limiter with the job records
  invite-user ACCOUNT_ID --email EMAIL   prints a one-time web console link (…/console/invite/<token>, 24 h)
`;

const VIDEO_CEILINGS = { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 };
const FLAGS = ["active", "openApiAccess", "avatarCreationEnabled", "videoAccess", "videoCreationEnabled"] as const;

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  options: Map<string, string | true>;
}

/** `--key=value`, `--key value` (for known value options) and bare `--flag`. */
function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  const takesValue = new Set(["name", "units", "base-url", "token", "email"]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (takesValue.has(arg.slice(2)) && i + 1 < argv.length) options.set(arg.slice(2), argv[++i]);
    else options.set(arg.slice(2), true);
  }
  return { positional, options };
}

function config(options: Parsed["options"]) {
  const baseUrl = String(options.get("base-url") ?? process.env.BASE_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
  let token = options.get("token") ?? process.env.ADMIN_TOKEN;
  if (!token && existsSync(".dev.vars")) token = parseDevVars(readFileSync(".dev.vars", "utf8")).ADMIN_TOKEN;
  if (!token || token === true) throw new UsageError("No admin token: pass --token, set ADMIN_TOKEN, or run `npm start` once to create .dev.vars");
  return { baseUrl, token };
}

const bool = (name: string, value: string | true): boolean => {
  if (value === true || value === "true") return true;
  if (value === "false") return false;
  throw new UsageError(`--${name} must be true or false`);
};

const int = (name: string, value: string | true | undefined): number => {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw new UsageError(`${name} must be an integer`);
  return Number(value);
};

const need = (value: string | undefined, what: string) => {
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
};

async function call(cfg: { baseUrl: string; token: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${cfg.baseUrl}/v1/admin${path}`, {
    method,
    headers: { Authorization: `Bearer ${cfg.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      const err = JSON.parse(text).error;
      message = `${err.code}: ${err.message} (request ${err.requestId})`;
    } catch {
      // not an envelope: show the raw text
    }
    throw new Error(`${method} ${path} → ${res.status} ${message}`);
  }
  return text ? JSON.parse(text) : null;
}

async function main(argv: string[]) {
  const parsed = parseArgs(argv);
  const [command, ...positional] = parsed.positional;
  const options = parsed.options;
  if (!command || command === "help" || options.has("help")) {
    process.stdout.write(USAGE);
    return;
  }
  const cfg = config(options);
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

  switch (command) {
    case "create-account": {
      const body: Record<string, unknown> = { name: need(options.get("name") as string | undefined, "--name") };
      if (options.has("units")) body.avatarUnits = int("--units", options.get("units"));
      if (options.has("inactive")) body.active = false;
      if (options.has("enable-all")) {
        Object.assign(body, { openApiAccess: true, avatarCreationEnabled: true, videoAccess: true, videoCreationEnabled: true });
        body.limits = { video: VIDEO_CEILINGS };
      }
      return print(await call(cfg, "POST", "/accounts", body));
    }
    case "get-account":
      return print(await call(cfg, "GET", `/accounts/${need(positional[0], "ACCOUNT_ID")}`));
    case "set-flags": {
      const body: Record<string, unknown> = {};
      for (const flag of FLAGS) if (options.has(flag)) body[flag] = bool(flag, options.get(flag)!);
      if (options.has("name")) body.name = options.get("name");
      if (Object.keys(body).length === 0) throw new UsageError(`set-flags needs at least one of ${FLAGS.map((f) => `--${f}`).join(", ")}`);
      return print(await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, body));
    }
    case "set-limits": {
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
      if (Object.keys(limits).length === 0) throw new UsageError("set-limits needs --avatar.FIELD=N, --video.FIELD=N or --video=ceilings|none");
      return print(await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, { limits }));
    }
    case "grant-units":
      return print(
        await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/avatar-units`, { delta: int("N", need(positional[1], "N")) }),
      );
    case "set-units":
      return print(await call(cfg, "PATCH", `/accounts/${need(positional[0], "ACCOUNT_ID")}`, { avatarUnits: int("N", need(positional[1], "N")) }));
    case "create-app": {
      const name = options.get("name");
      const created = await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/apps`, typeof name === "string" ? { name } : {});
      print(created);
      process.stderr.write(
        `\nThe API key is shown only now; store it safely.\nexport APP_ID=${created.app.id}\nexport API_KEY=${created.apiKey}\n`,
      );
      return;
    }
    case "list-apps":
      return print(await call(cfg, "GET", `/accounts/${need(positional[0], "ACCOUNT_ID")}/apps`));
    case "revoke-app":
      await call(cfg, "DELETE", `/apps/${need(positional[0], "APP_ID")}`);
      return print({ revoked: positional[0] });
    case "avatar-access": {
      const body: Record<string, unknown> = {};
      if (options.has("public")) body.public = bool("public", options.get("public")!);
      if (options.has("allow")) {
        const allow = options.get("allow");
        body.allowAccountIds = typeof allow === "string" && allow ? allow.split(",").map((s) => s.trim()) : [];
      }
      return print(await call(cfg, "PUT", `/avatars/${need(positional[0], "AVATAR_ID")}/access`, body));
    }
    case "invite-user": {
      const email = need(options.get("email") as string | undefined, "--email");
      const created = await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/console-invites`, { email });
      process.stdout.write(`${created.url}\n`); // one line: the link (valid 24 h, works once)
      return;
    }
    case "reconcile":
      return print(await call(cfg, "POST", `/accounts/${need(positional[0], "ACCOUNT_ID")}/reconcile`));
    default:
      throw new UsageError(`Unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}`);
  else process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
