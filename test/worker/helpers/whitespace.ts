/** Whitespace that HTTP keeps inside a header value: the cases of the exact-credential tests (issue 8, point 5). */

/**
 * Unicode whitespace that `.trim()` or `\s` would strip but HTTP does not (NEL is not even JS whitespace, but
 * some libraries strip it). Each must make a credential fail.
 */
export const WHITESPACE: Record<string, string> = {
  VT: "\u000b",
  FF: "\u000c",
  NBSP: "\u00a0",
  NEL: "\u0085",
  "LINE SEPARATOR U+2028": "\u2028",
  "PARAGRAPH SEPARATOR U+2029": "\u2029",
  "IDEOGRAPHIC SPACE U+3000": "\u3000",
  "ZERO WIDTH SPACE U+200B": "\u200b",
  "BOM U+FEFF": "\ufeff",
};
export const PLACES: Record<string, (value: string, ch: string) => string> = {
  appended: (v, ch) => v + ch,
  prepended: (v, ch) => ch + v,
  "appended after a space": (v, ch) => `${v} ${ch}`,
};

/**
 * A request whose headers hold exactly these strings, handed to the Worker in-process. workerd UTF-8-decodes
 * the header bytes a client sends (cloudflare/workerd#6927), so a key sent with the UTF-8 bytes of U+2028
 * reaches the Worker as "key\u2028"; the e2e test exact-secrets.test.ts sends such bytes over a socket. Here
 * the same strings go in without the HTTP hop (which would print a workerd warning per non-ASCII header).
 */
export function requestWithHeaders(url: string, headers: Record<string, string>, init: RequestInit = {}): Request {
  const req = new Request(url, init);
  const real = req.headers;
  const own = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const merged = () => new Map([...real, ...own]);
  const view = {
    get: (name: string) => own.get(name.toLowerCase()) ?? real.get(name),
    has: (name: string) => own.has(name.toLowerCase()) || real.has(name),
    forEach: (fn: (value: string, key: string) => void) => merged().forEach((v, k) => fn(v, k)),
    entries: () => merged().entries(),
    keys: () => merged().keys(),
    values: () => merged().values(),
    [Symbol.iterator]: () => merged().entries(),
  };
  Object.defineProperty(req, "headers", { value: view });
  return req;
}
