/**
 * Which network destinations a media source may point to. Pure TypeScript without node: imports,
 * because the Worker uses it too (to reject literal-IP source URLs at request time) while the
 * renderer's safe-fetch applies it to every address it actually connects to.
 */
import ipaddr from "ipaddr.js";

/** Why an address is not public. Stable names of our own, so an ipaddr.js upgrade cannot rename them. */
export type RejectedClass =
  | "invalid" // not a plain IPv4 dotted quad or IPv6 address
  | "zone-scoped" // IPv6 with a %zone: only meaningful on a local link
  | "unspecified" // 0.0.0.0/8, ::
  | "loopback" // 127/8, ::1
  | "private" // RFC 1918
  | "link-local" // 169.254/16 (cloud metadata lives here), fe80::/10
  | "carrier-grade-nat" // 100.64/10
  | "multicast" // 224/4, ff00::/8
  | "broadcast" // 255.255.255.255
  | "reserved" // 240/4 and other IANA special-purpose blocks
  | "benchmarking" // 198.18/15, 2001:2::/48
  | "documentation" // TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20
  | "ietf-protocol" // 192.0.0.0/24
  | "unique-local" // fc00::/7 (incl. fd00:ec2::254, the AWS IPv6 metadata address)
  | "site-local" // fec0::/10
  | "ipv4-mapped" // ::ffff:a.b.c.d and ::ffff:0:a.b.c.d
  | "ipv4-compatible" // ::a.b.c.d (ipaddr.js calls these unicast)
  | "nat64" // 64:ff9b::/96, 64:ff9b:1::/48
  | "6to4" // 2002::/16
  | "teredo" // 2001::/32
  | "not-global-unicast"; // any other IPv6 outside 2000::/3, or a special block ipaddr.js names

export type AddressClass = "public" | RejectedClass;

// Checked before ipaddr.js so the reason is precise (ipaddr.js lumps these into "reserved").
const OWN_RANGES: [string, RejectedClass][] = [
  ["192.0.0.0/24", "ietf-protocol"],
  ["192.0.2.0/24", "documentation"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["198.18.0.0/15", "benchmarking"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["2001:2::/48", "benchmarking"],
  ["::/96", "ipv4-compatible"], // :: and ::1 are classified before this table is consulted
];
const OWN_PARSED = OWN_RANGES.map(([cidr, cls]) => [ipaddr.parseCIDR(cidr), cls] as const);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

const IPADDR_NAMES: Record<string, RejectedClass> = {
  unspecified: "unspecified",
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade-nat",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  benchmarking: "benchmarking",
  uniqueLocal: "unique-local",
  deprecatedSiteLocal: "site-local",
  // Embedded-IPv4 forms are rejected as whole ranges, whatever IPv4 they carry. Simplest safe rule:
  // whether they reach the embedded IPv4 depends on gateways we cannot see, and no real media host
  // publishes such an address in DNS.
  ipv4Mapped: "ipv4-mapped",
  rfc6145: "ipv4-mapped",
  rfc6052: "nat64",
  "6to4": "6to4",
  teredo: "teredo",
};

/** Classifies one address as connected to: "public" or the class that makes it unacceptable. */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  // Only canonical spellings: odd IPv4 forms ("0x7f.1") must already have been normalised by the URL
  // parser; anything else here would be ambiguous, so it is refused rather than guessed at.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) addr = ipaddr.IPv4.parse(text);
  else if (ipaddr.IPv6.isValid(text) && text.includes(":")) addr = ipaddr.IPv6.parse(canonicalV6(text));
  else return "invalid";
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).zoneId) return "zone-scoped";

  const named = addr.range();
  if (named === "unspecified" || named === "loopback") return named;
  for (const [[net, bits], cls] of OWN_PARSED) {
    if (net.kind() === addr.kind() && addr.match(net, bits)) return cls;
  }
  // Anything ipaddr.js does not call plain unicast is refused (as112, amt, orchid, discard, …).
  if (named !== "unicast") return IPADDR_NAMES[named] ?? (addr.kind() === "ipv4" ? "reserved" : "not-global-unicast");
  // Only 2000::/3 is allocated for global IPv6 unicast; the rest of the space is special or unassigned.
  if (addr.kind() === "ipv6" && !addr.match(GLOBAL_UNICAST_V6)) return "not-global-unicast";
  return "public";
}

/**
 * ipaddr.js 2.5 parses "::a.b.c.d" as "::ffff:a.b.c.d". Rewrite dotted IPv6 forms through the WHATWG
 * URL parser (available in Workers and Node) so the embedded IPv4 lands in the right range.
 */
function canonicalV6(text: string): string {
  if (!text.includes(".") || text.includes("%")) return text;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === "public";
}

/** True if a URL hostname (as `URL.hostname` gives it) is a literal IP rather than a DNS name. */
export function isIpLiteralHost(hostname: string): boolean {
  if (hostname.startsWith("[")) return true; // WHATWG keeps IPv6 in brackets
  return ipaddr.IPv4.isValidFourPartDecimal(hostname); // WHATWG already normalised odd IPv4 spellings
}

// ---- allowlist -----------------------------------------------------------------------------

/**
 * Exact `host:port` entries (lowercase host, IPv6 in brackets, explicit port) that may be fetched
 * despite the address policy. For development and tests (local MinIO, fixture servers) only.
 */
export type Allowlist = ReadonlySet<string>;

export const EMPTY_ALLOWLIST: Allowlist = new Set();

/**
 * Parses `SOURCE_ALLOWLIST` ("127.0.0.1:9001, minio:9000, [::1]:8080"). An entry without an explicit
 * port or with an unparsable host throws: a silently ignored entry would be a confusing misconfiguration.
 */
export function parseAllowlist(s: string | undefined | null): Allowlist {
  const out = new Set<string>();
  for (const raw of (s ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^(.+):(\d{1,5})$/.exec(entry);
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535) throw new Error(`SOURCE_ALLOWLIST entry "${entry}" must be host:port`);
    let host: string;
    try {
      host = new URL(`http://${m[1]}/`).hostname; // same normalisation as the URLs it is compared with
    } catch {
      throw new Error(`SOURCE_ALLOWLIST entry "${entry}" has an invalid host`);
    }
    out.add(`${host}:${port}`);
  }
  return out;
}

/** The URL's `host:port` with the scheme's default port made explicit. */
export function hostPortKey(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

export function isAllowlisted(url: URL, allowlist: Allowlist): boolean {
  return allowlist.size > 0 && allowlist.has(hostPortKey(url));
}

// ---- URL acceptance ------------------------------------------------------------------------

export const MAX_URL_LENGTH = 4096;

export type UrlCheck =
  | { ok: true; url: URL }
  /** `kind` tells a syntax problem from a refused destination (a non-public literal IP). */
  | { ok: false; rule: string; kind: "syntax" | "address" };

/**
 * The URL rules checked when a source URL is accepted (and again on every redirect hop). DNS names
 * cannot be resolved here; their addresses are checked by safe-fetch at connection time.
 */
export function checkUrlSyntax(raw: string, allowlist: Allowlist = EMPTY_ALLOWLIST): UrlCheck {
  const syntax = (rule: string): UrlCheck => ({ ok: false, rule, kind: "syntax" });
  if (typeof raw !== "string" || raw.length < 1 || raw.length > MAX_URL_LENGTH) {
    return syntax(`must be 1 to ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return syntax("must be an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return syntax("must use http or https");
  if (!url.hostname) return syntax("must have a host");
  if (url.username || url.password) return syntax("must not contain a username or password");
  if (isIpLiteralHost(url.hostname) && !isAllowlisted(url, allowlist) && !isPublicAddress(url.hostname)) {
    return {
      ok: false,
      rule: "must not point to a private, loopback, link-local or otherwise non-public address",
      kind: "address",
    };
  }
  return { ok: true, url };
}
