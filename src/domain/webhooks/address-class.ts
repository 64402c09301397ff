import ipaddr from 'ipaddr.js';

/**
 * Why an address may not receive a webhook, or null when it is public unicast. The labels are
 * ipaddr.js's range names (loopback, private, linkLocal…), which follow the IANA IPv4 and IPv6
 * special-purpose registries.
 *
 * IPv6 has several forms that carry an IPv4 address inside them, and a host (or a NAT64 or
 * 6to4 gateway on its path) may deliver them to that IPv4 address: `::7f00:1` reaches 127.0.0.1
 * through an automatic tunnel, `64:ff9b::a9fe:a9fe` reaches the metadata service through NAT64.
 * ipaddr.js calls the IPv4-compatible form "unicast", so every such form is decoded here and
 * judged by the class of the address it embeds.
 */
export interface Refusal {
  /** The class that refuses the address: of the embedded IPv4 address when there is one. */
  range: string;
  /** The embedding form and the IPv4 address found in it. */
  via?: { form: string; ipv4: string };
}

type V6 = ipaddr.IPv6;
const cidr = (text: string) => ipaddr.parseCIDR(text) as [V6, number];
const ipv4At = (bytes: number[], at: number, invert = false) =>
  new ipaddr.IPv4(bytes.slice(at, at + 4).map((b) => (invert ? b ^ 0xff : b)));

/**
 * The forms that embed IPv4, with where the address sits. Teredo embeds two: its server, and its
 * client's address inverted (RFC 4380). The local-use NAT64 prefix (RFC 8215) may be as long as
 * the operator likes: only its /96 layout (zeros between the prefix and the address) is
 * decoded; any other layout cannot be attributed and is refused.
 */
const EMBEDDING: {
  form: string;
  net: [V6, number];
  decode: (b: number[]) => ipaddr.IPv4[] | null;
}[] = [
  { form: 'IPv4-mapped', net: cidr('::ffff:0:0/96'), decode: (b) => [ipv4At(b, 12)] },
  { form: 'IPv4-translated', net: cidr('::ffff:0:0:0/96'), decode: (b) => [ipv4At(b, 12)] },
  { form: 'IPv4-compatible', net: cidr('::/96'), decode: (b) => [ipv4At(b, 12)] },
  { form: 'NAT64', net: cidr('64:ff9b::/96'), decode: (b) => [ipv4At(b, 12)] },
  {
    form: 'local-use NAT64',
    net: cidr('64:ff9b:1::/48'),
    decode: (b) => (b.slice(6, 12).every((x) => x === 0) ? [ipv4At(b, 12)] : null),
  },
  { form: '6to4', net: cidr('2002::/16'), decode: (b) => [ipv4At(b, 2)] },
  { form: 'Teredo', net: cidr('2001::/32'), decode: (b) => [ipv4At(b, 4), ipv4At(b, 12, true)] },
];

/** Global unicast (RFC 4291): any other IPv6 address is special, reserved or unassigned. */
const GLOBAL_UNICAST = cidr('2000::/3');

function classifyV4(addr: ipaddr.IPv4): string | null {
  const range = addr.range();
  return range === 'unicast' ? null : range;
}

function classifyV6(addr: V6): Refusal | null {
  const own = addr.range();
  // :: and ::1 sit in ::/96 but are IPv6's own unspecified and loopback addresses.
  if (own === 'loopback' || own === 'unspecified') return { range: own };
  const bytes = addr.toByteArray();
  for (const { form, net, decode } of EMBEDDING) {
    if (!addr.match(net)) continue;
    const inner = decode(bytes);
    if (!inner) return { range: 'unattributable', via: { form, ipv4: 'unknown' } };
    for (const v4 of inner) {
      const range = classifyV4(v4);
      if (range) return { range, via: { form, ipv4: v4.toString() } };
    }
    return null;
  }
  if (own !== 'unicast') return { range: own };
  return addr.match(GLOBAL_UNICAST) ? null : { range: 'reserved' };
}

export function classify(ip: string): Refusal | null {
  if (!ipaddr.isValid(ip)) return { range: 'invalid' };
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv4') {
    const range = classifyV4(addr as ipaddr.IPv4);
    return range ? { range } : null;
  }
  return classifyV6(addr as V6);
}

/** "a loopback address", or "an IPv4-compatible address embedding 127.0.0.1, a loopback address". */
export function describe(refusal: Refusal): string {
  const what = `a ${refusal.range} address`;
  if (!refusal.via) return what;
  const article = /^[AEIOU]/.test(refusal.via.form) ? 'an' : 'a';
  return refusal.via.ipv4 === 'unknown'
    ? `${article} ${refusal.via.form} address whose embedded IPv4 address cannot be located`
    : `${article} ${refusal.via.form} address embedding ${refusal.via.ipv4}, ${what}`;
}
