import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { baseUrl, createAccount, errorOf } from "./helpers";

// Credentials over a real socket to wrangler dev (workerd): the header bytes a client writes, including the
// UTF-8 bytes of U+2028 and friends, must never authenticate (docs/admin-api.md, "Credentials are exact").

const WHITESPACE: Record<string, string> = {
  VT: "\u000b",
  FF: "\u000c",
  NBSP: "\u00a0",
  NEL: "\u0085",
  "U+2028": "\u2028",
  "U+2029": "\u2029",
  "U+3000": "\u3000",
  "U+200B": "\u200b",
  "U+FEFF": "\ufeff",
};

/**
 * GET over a raw socket: each header value goes out as the UTF-8 bytes of the string, control characters
 * included (Node's http client refuses VT/FF, which a client may still send).
 */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, baseUrl);
  const head = [
    `GET ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(url.port), url.hostname, () =>
      socket.end(Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "utf8")),
    );
    socket
      .on("data", (c) => chunks.push(c))
      .on("error", reject)
      .on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const [top, rest = ""] = raw.split("\r\n\r\n", 2);
        // Chunked or not, the JSON object is the only thing between the first "{" and the last "}".
        const body = rest.slice(rest.indexOf("{"), rest.lastIndexOf("}") + 1);
        resolve({ status: Number(top.split(" ")[1]), body: body ? JSON.parse(body) : null });
      });
  });
}

describe("exact credentials over HTTP", () => {
  it("API key, App ID and admin token with any non-SP/HTAB whitespace around them → the plain 401", async () => {
    const acct = await createAccount(0);
    const admin = inject("adminToken");
    expect((await get("/v1/open/avatars", acct.headers)).status).toBe(200);
    expect(
      (
        await get("/v1/open/avatars", {
          "X-App-ID": ` ${acct.appId}\t`,
          "X-API-Key": `\t${acct.headers["X-API-Key"]} `,
        })
      ).status,
    ).toBe(200);
    expect((await get(`/v1/admin/accounts/${acct.accountId}`, { Authorization: `Bearer ${admin} ` })).status).toBe(200);
    // Each character's six refusals come from an address of its own (wrangler dev keeps a client's
    // CF-Connecting-IP): past 20 a minute one address is throttled (docs/security.md), which is not tested here.
    for (const [n, [name, ch]] of Object.entries(WHITESPACE).entries()) {
      const from = { "CF-Connecting-IP": `198.51.100.${n + 1}` };
      for (const wrap of [(v: string) => v + ch, (v: string) => ch + v]) {
        const cases: [string, Record<string, string>][] = [
          ["/v1/open/avatars", { ...acct.headers, "X-API-Key": wrap(acct.headers["X-API-Key"]) }],
          ["/v1/open/avatars", { ...acct.headers, "X-App-ID": wrap(acct.appId) }],
          [`/v1/admin/accounts/${acct.accountId}`, { Authorization: `Bearer ${wrap(admin)}` }],
        ];
        for (const [path, headers] of cases) {
          const res = await get(path, { ...from, ...headers });
          expect(res.status, `${name} ${path} ${Object.keys(headers).join(",")}`).toBe(401);
          expect(errorOf(res)).toMatchObject({ code: "unauthorized", message: "Unauthorized." });
        }
      }
    }
  });
});
