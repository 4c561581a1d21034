import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkUrlSyntax, classifyAddress, hostPortKey, isPublicAddress, parseAllowlist } from "@avatar-video/contract";
import { NON_PUBLIC } from "../../../test/renderer/helpers/fetch-samples";

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "100.128.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001::200e",
];

describe("classifyAddress", () => {
  it.each(NON_PUBLIC)("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(PUBLIC)("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBe("public");
    expect(isPublicAddress(ip)).toBe(true);
  });

  it("accepts bracketed IPv6 as URL.hostname gives it", () => {
    expect(classifyAddress("[::1]")).toBe("loopback");
    expect(classifyAddress("[2606:4700:4700::1111]")).toBe("public");
  });

  it("refuses anything that is not a canonical address, and zone-scoped IPv6", () => {
    for (const s of ["", "localhost", "0x7f.1", "2130706433", "127.1", "1.2.3.4.5", "999.1.1.1", "::g"]) {
      expect(classifyAddress(s)).toBe("invalid");
    }
    expect(classifyAddress("fe80::1%eth0")).toBe("zone-scoped");
  });
});

describe("checkUrlSyntax", () => {
  const ADDRESS_RULE = "must not point to a private, loopback, link-local or otherwise non-public address";

  it("accepts public http(s) URLs, signed query strings included", () => {
    for (const u of [
      "https://cdn.example.com/a.mp3?X-Amz-Signature=abc&X-Amz-Expires=900",
      "http://media.example.org:8080/x.wav",
      "http://8.8.8.8/a.png",
      "https://[2606:4700:4700::1111]/a.png",
    ]) {
      const r = checkUrlSyntax(u);
      expect(r.ok, u).toBe(true);
    }
  });

  it("limits the length to 1..4096 characters", () => {
    const base = "https://example.com/";
    expect(checkUrlSyntax(base + "a".repeat(4096 - base.length)).ok).toBe(true);
    expect(checkUrlSyntax(base + "a".repeat(4097 - base.length))).toMatchObject({
      ok: false,
      rule: "must be 1 to 4096 characters",
    });
    expect(checkUrlSyntax("")).toMatchObject({ ok: false, rule: "must be 1 to 4096 characters" });
  });

  it("requires an absolute http or https URL", () => {
    expect(checkUrlSyntax("/relative.png")).toMatchObject({
      ok: false,
      rule: "must be an absolute URL",
      kind: "syntax",
    });
    for (const u of [
      "ftp://example.com/a.mp3",
      "file:///etc/passwd",
      "gopher://example.com/",
      "data:audio/wav;base64,AA==",
    ]) {
      expect(checkUrlSyntax(u)).toMatchObject({ ok: false, rule: "must use http or https", kind: "syntax" });
    }
  });

  it("refuses embedded credentials", () => {
    for (const u of ["http://user@example.com/", "http://:pw@example.com/", "https://user:pw@example.com/a.png"]) {
      expect(checkUrlSyntax(u)).toMatchObject({ ok: false, rule: "must not contain a username or password" });
    }
  });

  it.each([
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://017700000001/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://0/",
    "http://0.0.0.0:8080/",
    "http://１２７.0.0.1/",
    "http://127。0。0。1/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://[fd00:ec2::254]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://10.1/",
  ])("refuses the non-public literal %s after URL normalisation", (u) => {
    expect(checkUrlSyntax(u)).toEqual({ ok: false, rule: ADDRESS_RULE, kind: "address" });
  });

  it.each(NON_PUBLIC)("refuses the literal %s (%s)", (ip) => {
    const host = ip.includes(":") ? `[${ip}]` : ip;
    expect(checkUrlSyntax(`https://${host}/a.png`)).toMatchObject({ ok: false, kind: "address" });
  });
});

describe("allowlist", () => {
  it("parses exact host:port entries with the URL parser's normalisation", () => {
    expect([...parseAllowlist(" 127.0.0.1:9001, MinIO:9000 ,[::1]:8080,,")]).toEqual([
      "127.0.0.1:9001",
      "minio:9000",
      "[::1]:8080",
    ]);
    expect(parseAllowlist("").size).toBe(0);
    expect(parseAllowlist(undefined).size).toBe(0);
  });

  it("throws on entries without an explicit valid port", () => {
    expect(() => parseAllowlist("127.0.0.1")).toThrow(/host:port/);
    expect(() => parseAllowlist("127.0.0.1:0")).toThrow(/host:port/);
    expect(() => parseAllowlist("127.0.0.1:70000")).toThrow(/host:port/);
    expect(() => parseAllowlist("a b:80")).toThrow(/invalid host/);
  });

  it("makes default ports explicit", () => {
    expect(hostPortKey(new URL("http://Example.com/x"))).toBe("example.com:80");
    expect(hostPortKey(new URL("https://example.com/x"))).toBe("example.com:443");
    expect(hostPortKey(new URL("http://[::1]:8080/"))).toBe("[::1]:8080");
  });

  it("bypasses the address rule for an exact host:port match only", () => {
    const allow = parseAllowlist("127.0.0.1:9001,10.0.0.5:80");
    expect(checkUrlSyntax("http://127.0.0.1:9001/a.png", allow).ok).toBe(true);
    expect(checkUrlSyntax("http://10.0.0.5/a.png", allow).ok).toBe(true); // default port made explicit
    expect(checkUrlSyntax("http://2130706433:9001/a.png", allow).ok).toBe(true); // the same address, normalised
    expect(checkUrlSyntax("http://127.0.0.1:9002/", allow)).toMatchObject({ ok: false, kind: "address" });
    expect(checkUrlSyntax("http://127.0.0.1/", allow)).toMatchObject({ ok: false, kind: "address" });
    expect(checkUrlSyntax("https://10.0.0.5/", allow)).toMatchObject({ ok: false, kind: "address" }); // 443 ≠ 80
    expect(checkUrlSyntax("http://127.0.0.2:9001/", allow)).toMatchObject({ ok: false, kind: "address" });
    expect(checkUrlSyntax("http://169.254.169.254/", allow)).toMatchObject({ ok: false, kind: "address" });
  });

  it("never bypasses the scheme and credential rules", () => {
    const allow = parseAllowlist("127.0.0.1:9001");
    expect(checkUrlSyntax("http://u:p@127.0.0.1:9001/", allow)).toMatchObject({ ok: false, kind: "syntax" });
    expect(checkUrlSyntax("ftp://127.0.0.1:9001/", allow)).toMatchObject({ ok: false, kind: "syntax" });
  });
});

describe("Worker compatibility", () => {
  it("address-policy.ts imports nothing from Node", () => {
    const src = readFileSync(new URL("../src/address-policy.ts", import.meta.url), "utf8");
    expect(src).not.toMatch(/from\s+["']node:|require\(|from\s+["'](fs|net|dns|http|https|os|path)["']/);
    expect([...src.matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1])).toEqual(["ipaddr.js"]);
  });

  it("the shared contract package imports nothing from Node, the Worker or the renderer", () => {
    const dir = new URL("../src/", import.meta.url);
    for (const file of readdirSync(dir)) {
      const src = readFileSync(new URL(file, dir), "utf8");
      expect(src, file).not.toMatch(/from\s+["']node:|require\(|from\s+["'](fs|net|dns|http|https|os|path)["']/);
      const imports = [...src.matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]);
      expect(
        imports.filter((m) => !m.startsWith("./") && m !== "zod" && m !== "ipaddr.js"),
        file,
      ).toEqual([]);
    }
  });
});
