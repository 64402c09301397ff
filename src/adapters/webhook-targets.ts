import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, refusal } from '../domain/webhooks/targets.js';

/**
 * The DNS side of the webhook target rules (src/domain/webhooks/targets.ts has the rules):
 * what a host resolves to, checked when an endpoint is saved and again on every connection.
 */

/** Resolves the URL's host and refuses it when any address is not public. */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(raw));
  if (isIP(host)) return refusal(host, host)?.message ?? null;
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) =>
    dnsLookup(host, { all: true }, (err, a) => resolve(err ?? a)),
  );
  if (addresses instanceof Error) return `${host} does not resolve (${addresses.message})`;
  for (const a of addresses) {
    const refused = refusal(host, a.address);
    if (refused) return refused.message;
  }
  return null;
}

/**
 * A `lookup` for the HTTP agent: resolves, checks every address, and hands the socket only
 * checked addresses, so a DNS answer that changed since creation (rebinding) is refused.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      if (!allowPrivate) {
        for (const a of list) {
          const refused = refusal(hostname, a.address);
          if (refused) return callback(refused, '', 0);
        }
      }
      if (options.all)
        return (callback as never as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
