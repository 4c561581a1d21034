import { SELF } from "cloudflare:test";
import { adminFetch } from "./accounts";

/** A browser stand-in for console tests: one origin, a cookie jar, the CSRF token of the last page. */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  csrf = "";

  constructor(readonly origin = "http://127.0.0.1:8787") {}

  async fetch(
    path: string,
    init: {
      method?: string;
      form?: Record<string, string | File>;
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
      csrf?: boolean;
    } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: BodyInit | undefined = init.body;
    const method = init.method ?? (init.form || init.json || init.body ? "POST" : "GET");
    if (method !== "GET" && !("Origin" in headers)) headers.Origin = this.origin;
    if (init.form) {
      const fd = new FormData();
      if (init.csrf !== false) fd.set("_csrf", this.csrf);
      for (const [k, v] of Object.entries(init.form)) fd.set(k, v);
      body = fd;
    } else if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    if ((init.json !== undefined || init.body) && init.csrf !== false && !("X-CSRF-Token" in headers))
      headers["X-CSRF-Token"] = this.csrf;
    const res = await SELF.fetch(`${this.origin}${path}`, { method, headers, body, redirect: "manual" });
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0/i.test(raw) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return res;
  }

  /** GET a page and remember its CSRF token. */
  async page(path: string) {
    const res = await this.fetch(path);
    const html = await res.text();
    const m = /name="csrf-token" content="([^"]+)"/.exec(html);
    if (m) this.csrf = m[1]!;
    return { res, html };
  }
}

export async function invite(accountId: string, email: string, role?: "owner" | "member"): Promise<string> {
  const res = await adminFetch(`/accounts/${accountId}/console-invites`, { body: role ? { email, role } : { email } });
  if (res.status !== 201) throw new Error(`invite: ${res.status} ${await res.text()}`);
  const { url } = (await res.json()) as { url: string };
  return new URL(url).pathname;
}

export const PASSWORD = "correct horse battery staple";

/**
 * Invite + set password: a signed-in person of the account (the account's first person is its owner, later
 * ones members unless `role` says otherwise).
 */
export async function signedIn(
  accountId: string,
  email = `p${crypto.randomUUID().slice(0, 8)}@example.com`,
  origin?: string,
  role?: "owner" | "member",
) {
  const client = new ConsoleClient(origin);
  const path = await invite(accountId, email, role);
  await client.page(path);
  const res = await client.fetch(path, { form: { password: PASSWORD, confirm: PASSWORD } });
  if (res.status !== 303) throw new Error(`set password: ${res.status} ${await res.text()}`);
  await client.page("/console/avatars");
  return { client, email };
}

/** A PNG header (signature + IHDR) as an uploaded file: all the console's quick checks read. */
export function pngFile(width: number, height: number, name = "image.png"): File {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  b[24] = 8;
  b[25] = 2;
  return new File([b], name, { type: "image/png" });
}

/** The Videos page's form filled in (without the Avatar and the retry key each post adds). */
export const VIDEO_FORM = {
  width: "320",
  height: "240",
  fit: "crop",
  backgroundColor: "#102030",
  backgroundFit: "cover",
  leadInSeconds: "0",
  leadOutSeconds: "0",
  audioUrl: "https://media.example.com/voice.mp3",
};
