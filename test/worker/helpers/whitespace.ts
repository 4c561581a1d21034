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
