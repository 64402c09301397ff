import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent. Only public unicast addresses: loopback, private, link-local
 * (169.254.169.254 is the cloud metadata service), unique-local, carrier-grade NAT, multicast
 * and reserved ranges are refused, at creation and again on every connection (DNS can change
 * between the two, so the delivery connects to the address it checked).
 */
export function forbiddenRange(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return 'invalid';
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  const range = addr.range();
  return range === 'unicast' ? null : range;
}

export class ForbiddenTarget extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

export function refuse(host: string, address: string, range: string): ForbiddenTarget {
  return new ForbiddenTarget(`${host} resolves to ${address}, a ${range} address`);
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
  if (!isIP(host)) return null;
  const range = forbiddenRange(host);
  return range ? refuse(host, host, range) : null;
}
