import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowlist } from "@avatar-video/contract";
import {
  FetchError,
  type ResolveAll,
  safeFetch,
  type SafeFetchOptions,
  USER_AGENT,
} from "../../container/src/io/public";
import { NON_PUBLIC } from "./helpers/fetch-samples";
import { closedPort, patternHash, startRawServer, startServer, type TestServer } from "./helpers/fetch-servers";

let a: TestServer; // the allowlisted fixture server
let b: TestServer; // a second local server that is NOT allowlisted: it must never see a request
let tmp: string;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(), startServer()]);
  tmp = await mkdtemp(path.join(os.tmpdir(), "safe-fetch-"));
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await rm(tmp, { recursive: true, force: true });
});

/** Options with A allowlisted; individual tests override. */
const base = (over: Partial<SafeFetchOptions> = {}): SafeFetchOptions & { toFile?: undefined } => ({
  maxBytes: 1024 * 1024,
  totalTimeoutMs: 5000,
  allowlist: parseAllowlist(a.hostPort),
  ...over,
  toFile: undefined,
});

/** A fake DNS: name → answers; records every name asked. */
function fakeDns(table: Record<string, string[]>): ResolveAll & { asked: string[] } {
  const asked: string[] = [];
  const fn = async (hostname: string) => {
    asked.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { asked });
}

async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "expected the fetch to fail").toBeInstanceOf(FetchError);
  return err as FetchError;
}

/** The destination checks run with both: an allowlist entry must bypass nothing but its exact match. */
const ALLOWLISTS = ["empty", "set to other entries"] as const;
const allowlistFor = (name: (typeof ALLOWLISTS)[number]) =>
  name === "empty" ? parseAllowlist("") : parseAllowlist(`${a.hostPort},media.test:${a.port},evil.test:${a.port}`);

describe("success", () => {
  it("returns status, bare lowercased content type, final URL and body", async () => {
    const r = await safeFetch(`${a.origin}/ok`, base());
    expect(r).toMatchObject({ status: 200, contentType: "audio/mpeg", finalUrl: `${a.origin}/ok`, bytes: 5 });
    expect(r.body.toString()).toBe("hello");
    expect((await safeFetch(`${a.origin}/no-type`, base())).contentType).toBeNull();
  });

  it("sends only a fixed User-Agent: no Authorization, no Cookie", async () => {
    a.seen.length = 0;
    await safeFetch(`${a.origin}/ok`, base());
    const h = a.seen[0].headers;
    expect(h["user-agent"]).toBe(USER_AGENT);
    expect(h.authorization).toBeUndefined();
    expect(h.cookie).toBeUndefined();
    expect(h["proxy-authorization"]).toBeUndefined();
  });

  it("streams a 20 MiB body to a file", async () => {
    const file = path.join(tmp, "big.wav");
    const chunks = 320;
    const size = 64 * 1024;
    const r = await safeFetch(`${a.origin}/big?chunks=${chunks}&size=${size}`, {
      ...base(),
      maxBytes: 25 * 1024 * 1024,
      toFile: file,
    });
    expect(r).toMatchObject({ status: 200, path: file, bytes: chunks * size, contentType: "audio/wav" });
    expect(statSync(file).size).toBe(chunks * size);
    expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(patternHash(chunks, size));
  });
});

describe("destination checks", () => {
  describe.each(ALLOWLISTS)("allowlist %s", (name) => {
    it.each(NON_PUBLIC)("refuses the literal %s (%s) without connecting", async (ip) => {
      const allowlist = allowlistFor(name);
      const resolve = fakeDns({});
      const host = ip.includes(":") ? `[${ip}]` : ip;
      const err = await failure(
        safeFetch(`http://${host}:${b.port}/x`, base({ allowlist, resolve, totalTimeoutMs: 2000 })),
      );
      expect(err.kind).toBe("refused_destination");
      expect(resolve.asked).toEqual([]); // literal hosts are checked directly, not via lookup
      expect(b.seen).toEqual([]);
    });

    it.each(NON_PUBLIC)("refuses a name resolving to %s (%s)", async (ip, cls) => {
      const allowlist = allowlistFor(name);
      const resolve = fakeDns({ "evil.test": [ip] });
      const err = await failure(
        safeFetch(`http://evil.test:${b.port}/x`, base({ allowlist, resolve, totalTimeoutMs: 2000 })),
      );
      expect(err.kind).toBe("refused_destination");
      expect(err.message).toContain(`(${cls})`);
      expect(resolve.asked).toEqual(["evil.test"]);
      expect(b.seen).toEqual([]);
    });
  });

  it.each([
    ["public first", ["93.184.216.34", "127.0.0.1"]],
    ["private first", ["10.0.0.1", "93.184.216.34"]],
    ["IPv6 loopback among IPv4", ["93.184.216.34", "::1"]],
  ])("refuses a name when any answer is non-public (%s)", async (_n, answers) => {
    const err = await failure(
      safeFetch(`http://mixed.test:${b.port}/`, base({ resolve: fakeDns({ "mixed.test": answers }) })),
    );
    expect(err.kind).toBe("refused_destination");
  });

  it.each([
    "http://2130706433:PORT/ok",
    "http://0177.0.0.1:PORT/ok",
    "http://0x7f.1:PORT/ok",
    "http://127.1:PORT/ok",
    "http://0:PORT/ok",
    "http://[::ffff:127.0.0.1]:PORT/ok",
  ])("refuses the odd spelling %s with an empty allowlist", async (u) => {
    a.seen.length = 0;
    const err = await failure(safeFetch(u.replace("PORT", String(a.port)), base({ allowlist: parseAllowlist("") })));
    expect(err.kind).toBe("refused_destination");
    expect(a.seen).toEqual([]);
  });

  it("connects to the checked answer of an allowlisted name, resolving once", async () => {
    a.seen.length = 0;
    const resolve = fakeDns({ "media.test": ["127.0.0.1"] });
    const r = await safeFetch(
      `http://media.test:${a.port}/ok`,
      base({ allowlist: parseAllowlist(`media.test:${a.port}`), resolve }),
    );
    expect(r.body.toString()).toBe("hello");
    expect(resolve.asked).toEqual(["media.test"]);
    expect(a.seen[0].headers.host).toBe(`media.test:${a.port}`);
  });

  it("matches the allowlist exactly: another port, another name for the same address, do not pass", async () => {
    const allowlist = parseAllowlist(a.hostPort);
    expect((await safeFetch(`${a.origin}/ok`, base({ allowlist }))).status).toBe(200);
    const viaName = safeFetch(
      `http://localhost:${a.port}/ok`,
      base({ allowlist, resolve: fakeDns({ localhost: ["127.0.0.1"] }) }),
    );
    expect((await failure(viaName)).kind).toBe("refused_destination");
    expect((await failure(safeFetch(`http://127.0.0.1:${b.port}/ok`, base({ allowlist })))).kind).toBe(
      "refused_destination",
    );
    expect(b.seen).toEqual([]);
  });

  it("uses the system resolver by default: localhost is refused unless allowlisted as localhost:port", async () => {
    a.seen.length = 0;
    const refused = await failure(safeFetch(`http://localhost:${a.port}/ok`, base()));
    expect(refused.kind).toBe("refused_destination");
    expect(a.seen).toEqual([]);
    const r = await safeFetch(
      `http://localhost:${a.port}/ok`,
      base({ allowlist: parseAllowlist(`localhost:${a.port}`) }),
    );
    expect(r.body.toString()).toBe("hello");
  });

  it("reports an unresolvable name as dns_failed", async () => {
    expect((await failure(safeFetch(`http://nowhere.test/`, base({ resolve: fakeDns({}) })))).kind).toBe("dns_failed");
    expect((await failure(safeFetch(`http://void.test/`, base({ resolve: fakeDns({ "void.test": [] }) })))).kind).toBe(
      "dns_failed",
    );
  });

  it("refuses bad URLs as bad_url, even on an allowlisted host", async () => {
    for (const u of ["ftp://127.0.0.1/x", `http://user:pw@${a.hostPort}/ok`, "not a url"]) {
      expect((await failure(safeFetch(u, base()))).kind).toBe("bad_url");
    }
  });
});

describe("redirects", () => {
  const redirect = (to: string, status = 302) => `${a.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it.each([301, 302, 303, 307, 308])("follows %i, re-checking the hop (relative Location)", async (status) => {
    const r = await safeFetch(redirect("/ok", status), base());
    expect(r).toMatchObject({ status: 200, finalUrl: `${a.origin}/ok` });
  });

  it("refuses a redirect from the allowlisted server to another local port", async () => {
    const err = await failure(safeFetch(redirect(`http://127.0.0.1:${b.port}/ok`), base()));
    expect(err.kind).toBe("refused_destination");
    expect(b.seen).toEqual([]);
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://2130706433/",
    "http://internal.test/",
  ])("refuses a redirect to %s", async (to) => {
    const resolve = fakeDns({ "internal.test": ["10.1.2.3"] });
    const err = await failure(safeFetch(redirect(to), base({ resolve })));
    expect(err.kind).toBe("refused_destination");
  });

  it("refuses a redirect to another scheme or to embedded credentials as bad_url", async () => {
    expect((await failure(safeFetch(redirect("file:///etc/passwd"), base()))).kind).toBe("bad_url");
    expect((await failure(safeFetch(redirect(`http://u:p@${a.hostPort}/ok`), base()))).kind).toBe("bad_url");
  });

  it("sends no Authorization or Cookie after a cross-host redirect (and keeps no cookie jar)", async () => {
    a.seen.length = 0;
    b.seen.length = 0;
    const allowlist = parseAllowlist(`${a.hostPort},${b.hostPort}`);
    const r = await safeFetch(redirect(`${b.origin}/ok`, 307), base({ allowlist }));
    expect(r.finalUrl).toBe(`${b.origin}/ok`);
    for (const seen of [a.seen[0], b.seen[0]]) {
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers.cookie).toBeUndefined(); // A set a cookie on the redirect
      expect(seen.headers["user-agent"]).toBe(USER_AGENT);
    }
  });

  it("follows at most maxRedirects hops", async () => {
    expect((await safeFetch(`${a.origin}/chain/5`, base())).body.toString()).toBe("end");
    expect((await failure(safeFetch(`${a.origin}/chain/6`, base()))).kind).toBe("too_many_redirects");
    expect((await failure(safeFetch(`${a.origin}/chain/1`, base({ maxRedirects: 0 })))).kind).toBe(
      "too_many_redirects",
    );
  });

  it("stops a redirect loop", async () => {
    expect((await failure(safeFetch(`${a.origin}/loop`, base()))).kind).toBe("too_many_redirects");
  });

  it("treats a redirect without Location as http_status", async () => {
    const err = await failure(safeFetch(`${a.origin}/nolocation`, base()));
    expect(err).toMatchObject({ kind: "http_status", status: 302 });
  });
});

describe("status and body", () => {
  it.each([404, 500, 403])("%i is http_status", async (status) => {
    expect(await failure(safeFetch(`${a.origin}/status/${status}`, base()))).toMatchObject({
      kind: "http_status",
      status,
    });
  });

  it("keeps signed query strings and credentials out of error messages (they end up in logs)", async () => {
    const e1 = await failure(safeFetch(`${a.origin}/status/404?X-Amz-Signature=s3cr3t`, base()));
    const e2 = await failure(safeFetch(`http://user:s3cr3t@${a.hostPort}/ok?sig=s3cr3t`, base()));
    const e3 = await failure(safeFetch(`http://169.254.169.254/?sig=s3cr3t`, base()));
    for (const e of [e1, e2, e3]) expect(e.message).not.toContain("s3cr3t");
  });

  it("an empty body is empty (200 with length 0, and 204), also when streaming to a file", async () => {
    expect((await failure(safeFetch(`${a.origin}/empty`, base()))).kind).toBe("empty");
    expect((await failure(safeFetch(`${a.origin}/no-content`, base()))).kind).toBe("empty");
    const file = path.join(tmp, "empty.wav");
    expect((await failure(safeFetch(`${a.origin}/empty`, { ...base(), toFile: file }))).kind).toBe("empty");
    expect(existsSync(file)).toBe(false);
  });

  it("a declared Content-Length over the limit fails at once, before any body", async () => {
    const started = Date.now();
    expect((await failure(safeFetch(`${a.origin}/declared-big`, base()))).kind).toBe("too_large");
    expect(Date.now() - started).toBeLessThan(2500); // not the 5 s transfer deadline
  });

  it("a body without Content-Length is counted: over the limit is too_large", async () => {
    expect((await safeFetch(`${a.origin}/chunked?bytes=1000`, base({ maxBytes: 1000 }))).bytes).toBe(1000);
    expect((await failure(safeFetch(`${a.origin}/chunked?bytes=1001`, base({ maxBytes: 1000 })))).kind).toBe(
      "too_large",
    );
    const file = path.join(tmp, "big.mp3");
    const err = await failure(
      safeFetch(`${a.origin}/chunked?bytes=300000`, { ...base({ maxBytes: 100_000 }), toFile: file }),
    );
    expect(err.kind).toBe("too_large");
    expect(existsSync(file)).toBe(false); // no partial file left behind
  });

  it("a close-delimited body (no length, no chunking) over the limit is too_large", async () => {
    const raw = await startRawServer((s) => {
      s.write("HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nConnection: close\r\n\r\n");
      s.end(Buffer.alloc(50_000, 7));
    });
    try {
      const allowlist = parseAllowlist(raw.hostPort);
      expect((await failure(safeFetch(`${raw.origin}/`, base({ allowlist, maxBytes: 10_000 })))).kind).toBe(
        "too_large",
      );
    } finally {
      await raw.close();
    }
  });

  it("a Content-Length lying small cannot smuggle a bigger body", async () => {
    // HTTP framing ends the body at the declared length; surplus bytes are never delivered. Pairing the
    // small length with chunked encoding (a smuggling classic) is a protocol error.
    const lying = await startRawServer((s) => {
      s.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n");
      s.end(Buffer.alloc(50_000, 7));
    });
    const smuggling = await startRawServer((s) => {
      s.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
      s.end(`c350\r\n${"x".repeat(50_000)}\r\n0\r\n\r\n`);
    });
    try {
      const allowlist = parseAllowlist(`${lying.hostPort},${smuggling.hostPort}`);
      const r = await safeFetch(`${lying.origin}/`, base({ allowlist, maxBytes: 10_000 }));
      expect(r.bytes).toBe(100);
      expect(r.body.length).toBe(100);
      const err = await failure(safeFetch(`${smuggling.origin}/`, base({ allowlist, maxBytes: 10_000 })));
      expect(err.kind).toBe("transfer_failed");
    } finally {
      await Promise.all([lying.close(), smuggling.close()]);
    }
  });

  it("a truncated body or a refused connection is transfer_failed", async () => {
    expect((await failure(safeFetch(`${a.origin}/truncated`, base()))).kind).toBe("transfer_failed");
    const port = await closedPort();
    const err = await failure(
      safeFetch(`http://127.0.0.1:${port}/`, base({ allowlist: parseAllowlist(`127.0.0.1:${port}`) })),
    );
    expect(err.kind).toBe("transfer_failed");
  });
});

describe("deadlines", () => {
  it("headers after 4 s with a 3 s first-byte timeout is timeout, at about 3 s", async () => {
    const started = Date.now();
    const err = await failure(
      safeFetch(`${a.origin}/slow-headers?ms=4000`, base({ firstByteTimeoutMs: 3000, totalTimeoutMs: 10_000 })),
    );
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(Date.now() - started).toBeLessThan(3990); // the server answers at 4 s
  });

  it("a body trickling past the whole-transfer deadline is timeout", async () => {
    const started = Date.now();
    const url = `${a.origin}/trickle?chunks=1000&interval=50`;
    const err = await failure(safeFetch(url, base({ firstByteTimeoutMs: 3000, totalTimeoutMs: 1000 })));
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000); // the trickle would last 50 s
  });

  it("the first-byte timeout does not cut a body that keeps flowing", async () => {
    const r = await safeFetch(
      `${a.origin}/trickle?chunks=8&interval=100`,
      base({ firstByteTimeoutMs: 300, totalTimeoutMs: 5000 }),
    );
    expect(r.body.toString()).toBe("x".repeat(8));
  });

  it("the whole-transfer deadline spans all redirect hops", async () => {
    const url = `${a.origin}/slow-chain?n=3&ms=400`;
    const err = await failure(safeFetch(url, base({ firstByteTimeoutMs: 1000, totalTimeoutMs: 1000 })));
    expect(err.kind).toBe("timeout");
  });

  it("an abort signal stops the transfer with the signal's reason", async () => {
    const ctrl = new AbortController();
    const reason = new Error("job aborted");
    setTimeout(() => ctrl.abort(reason), 200);
    const p = safeFetch(`${a.origin}/trickle?chunks=1000&interval=50`, base({ signal: ctrl.signal }));
    await expect(p).rejects.toBe(reason);
  });
});
