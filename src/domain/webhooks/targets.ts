import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classify, describe } from './address-class.js';

/**
 * Where a webhook may be sent. Only public unicast addresses: loopback, private, link-local
 * (169.254.169.254 is the cloud metadata service), unique-local, carrier-grade NAT, multicast
 * and reserved ranges are refused, at creation and again on every connection (DNS can change
 * between the two, so the delivery connects to the address it checked).
 */
export function forbiddenRange(ip: string): string | null {
  return classify(ip)?.range ?? null;
}

export class ForbiddenTarget extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

/** Null when the address is public; IPv6 forms embedding IPv4 are judged by what they embed. */
function refusal(host: string, address: string): ForbiddenTarget | null {
  const why = classify(address);
  return why ? new ForbiddenTarget(`${host} resolves to ${address}, ${describe(why)}`) : null;
}

/** The problem with a URL as a webhook target, or null; `allowPrivate` is WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must start with https:// or http://' : 'must start with https://';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  return null;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

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

/** For IP literals, which never reach a lookup function: checked before connecting. */
export function literalProblem(raw: string, allowPrivate: boolean): ForbiddenTarget | null {
  if (allowPrivate) return null;
  const host = hostOf(new URL(raw));
  return isIP(host) ? refusal(host, host) : null;
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
