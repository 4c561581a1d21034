import { checkUrlSyntax, EMPTY_ALLOWLIST, parseAllowlist, type Allowlist } from "@avatar-video/contract";
import type { Env } from "../env";
import { invalid } from "./errors";
import { logEvent } from "../logging/log-event";

let cached: { raw: string; allowlist: Allowlist } | undefined;

/** SOURCE_ALLOWLIST parsed once per isolate; a malformed value is logged and treated as empty (fail closed). */
function allowlistOf(env: Pick<Env, "SOURCE_ALLOWLIST">): Allowlist {
  const raw = env.SOURCE_ALLOWLIST ?? "";
  if (cached?.raw !== raw) {
    let allowlist = EMPTY_ALLOWLIST;
    try {
      allowlist = parseAllowlist(raw);
    } catch (err) {
      logEvent("bad_source_allowlist", { error: err }, "error");
    }
    cached = { raw, allowlist };
  }
  return cached.allowlist;
}

/**
 * The address half of the URL rules (the schema checked the syntax half): a literal private, loopback,
 * link-local or otherwise non-public IP host is refused at request time, unless its exact host:port is in
 * SOURCE_ALLOWLIST (local media servers in development and tests). DNS names are checked by the
 * renderer's fetcher at connection time, on every hop.
 */
export function checkSourceAddress(env: Pick<Env, "SOURCE_ALLOWLIST">, field: string, raw: string | undefined) {
  if (raw === undefined) return;
  const r = checkUrlSyntax(raw, allowlistOf(env));
  if (!r.ok) throw invalid(`${field} ${r.rule}`);
}
