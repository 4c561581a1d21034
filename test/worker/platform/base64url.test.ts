import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../../workers/platform/crypto/base64url";

describe("base64url (signatures, page tokens, session tokens)", () => {
  const mac = Uint8Array.from({ length: 32 }, (_, i) => (i * 37) & 0xff);
  const canonical = toBase64Url(mac);

  it("round-trips 32-byte MACs without padding", () => {
    expect(canonical).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fromBase64Url(canonical)).toEqual(mac);
  });

  it("accepts only the canonical spelling: unused bits in the last character make a different string invalid", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(canonical.at(-1)!);
    // 32 bytes leave 2 unused low bits in the last character: these three spellings decode to the same bytes.
    for (const unused of [1, 2, 3]) {
      const twin = canonical.slice(0, -1) + alphabet[last | unused];
      expect(fromBase64Url(twin)).toBeNull();
    }
  });

  it("rejects characters outside the alphabet and impossible lengths", () => {
    expect(fromBase64Url(canonical.replace(/.$/, "="))).toBeNull();
    expect(fromBase64Url("a+b/")).toBeNull();
    expect(fromBase64Url("abcde")).toBeNull();
  });
});
