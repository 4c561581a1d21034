/**
 * DNS for the safe fetcher: the socket's `lookup` hook checks every answer against the address policy and
 * hands the socket exactly those answers (no second resolution, so no DNS rebinding).
 */
import dns from "node:dns";
import net from "node:net";
import { classifyAddress } from "@avatar-video/contract";
import { FetchError } from "./fetch-error";

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a DNS name to all its addresses. Injectable so tests can simulate any DNS answer. */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: Error | null, address?: string | ResolvedAddress[], family?: number) => void;

/**
 * The socket's `lookup` hook: resolve once, refuse if ANY answer is non-public (an attacker controls
 * the order and the resolver's choice), and give the socket exactly the checked answers.
 * Node never calls this for literal-IP hosts; those are checked by checkUrlSyntax before connecting.
 */
export function checkedLookup(resolve: ResolveAll, allowlisted: boolean, t: { record(err: unknown): void }) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const answers: Promise<ResolvedAddress[]> = net.isIP(hostname)
      ? Promise.resolve([{ address: hostname, family: net.isIP(hostname) }])
      : resolve(hostname).catch((err: NodeJS.ErrnoException) => {
          throw new FetchError("dns_failed", `${hostname}: ${err?.code ?? err?.message ?? err}`);
        });
    answers
      .then((all) => {
        if (all.length === 0) throw new FetchError("dns_failed", `${hostname}: no addresses`);
        if (!allowlisted) {
          for (const a of all) {
            const cls = classifyAddress(a.address);
            if (cls !== "public")
              throw new FetchError("refused_destination", `${hostname} resolves to ${a.address} (${cls})`);
          }
        }
        const wanted =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) throw new FetchError("dns_failed", `${hostname}: no IPv${options.family} address`);
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      })
      .catch((err) => {
        t.record(err);
        callback(err as Error);
      });
  };
}
