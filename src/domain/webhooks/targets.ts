import { isIP } from 'node:net';
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
export function refusal(host: string, address: string): ForbiddenTarget | null {
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

export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** For IP literals, which never reach a lookup function: checked before connecting. */
export function literalProblem(raw: string, allowPrivate: boolean): ForbiddenTarget | null {
  if (allowPrivate) return null;
  const host = hostOf(new URL(raw));
  return isIP(host) ? refusal(host, host) : null;
}
