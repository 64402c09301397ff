import { describe, expect, it } from 'vitest';
import { forbiddenRange } from '../../../src/domain/webhooks/targets.js';

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries, transcribed here (not imported
 * from the code) so that a range the code forgets fails the table. Every range is refused as a
 * webhook target, even those marked globally reachable (anycast DNS, TURN, AMT: no webhook
 * receiver lives there). The IPv6 forms that embed an IPv4 address are judged by what they
 * embed, and are tested with every IPv4 range below.
 */
const IPV4 = [
  ['0.0.0.0/8', 'This network'],
  ['0.0.0.0/32', 'This host on this network'],
  ['10.0.0.0/8', 'Private-Use'],
  ['100.64.0.0/10', 'Shared Address Space'],
  ['127.0.0.0/8', 'Loopback'],
  ['169.254.0.0/16', 'Link Local'],
  ['172.16.0.0/12', 'Private-Use'],
  ['192.0.0.0/24', 'IETF Protocol Assignments'],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix'],
  ['192.0.0.8/32', 'IPv4 dummy address'],
  ['192.0.0.9/32', 'Port Control Protocol Anycast'],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast'],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery'],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery'],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112-v4'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)'],
  ['192.88.99.2/32', '6a44-relay anycast address'],
  ['192.168.0.0/16', 'Private-Use'],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service'],
  ['198.18.0.0/15', 'Benchmarking'],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)'],
  ['240.0.0.0/4', 'Reserved'],
  ['255.255.255.255/32', 'Limited Broadcast'],
  ['224.0.0.0/4', 'Multicast (its own registry)'],
] as const;

const IPV6 = [
  ['::1/128', 'Loopback Address'],
  ['::/128', 'Unspecified Address'],
  ['100::/64', 'Discard-Only Address Block'],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix'],
  ['2001::/23', 'IETF Protocol Assignments'],
  ['2001:1::1/128', 'Port Control Protocol Anycast'],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast'],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast'],
  ['2001:2::/48', 'Benchmarking'],
  ['2001:3::/32', 'AMT'],
  ['2001:4:112::/48', 'AS112-v6'],
  ['2001:10::/28', 'Deprecated (previously ORCHID)'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix'],
  ['2001:db8::/32', 'Documentation'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service'],
  ['3fff::/20', 'Documentation'],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs'],
  ['fc00::/7', 'Unique-Local'],
  ['fe80::/10', 'Link-Local Unicast'],
  ['ff00::/8', 'Multicast (its own registry)'],
  ['fec0::/10', 'Deprecated site-local'],
] as const;

/** The registry's IPv6 entries that carry an IPv4 address, and how to write one inside them. */
const hex = (v4: string) =>
  v4
    .split('.')
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')
    .replace(/^(.{4})/, '$1:');
const inverted = (v4: string) =>
  hex(
    v4
      .split('.')
      .map((n) => 255 - Number(n))
      .join('.'),
  );
const EMBEDDING = [
  ['::ffff:0:0/96 IPv4-mapped', (v4: string) => `::ffff:${v4}`],
  ['::ffff:0:0:0/96 IPv4-translated (RFC 6145)', (v4: string) => `::ffff:0:${v4}`],
  ['::/96 IPv4-compatible (deprecated)', (v4: string) => `::${hex(v4)}`],
  ['64:ff9b::/96 NAT64 well-known prefix', (v4: string) => `64:ff9b::${v4}`],
  ['64:ff9b:1::/48 local-use NAT64, /96 layout', (v4: string) => `64:ff9b:1::${v4}`],
  ['2002::/16 6to4', (v4: string) => `2002:${hex(v4)}::1`],
  ['2001::/32 Teredo, client', (v4: string) => `2001:0:4136:e378:8000:63bf:${inverted(v4)}`],
  [
    '2001::/32 Teredo, server',
    (v4: string) => `2001:0:${hex(v4)}:8000:63bf:${inverted('8.8.4.4')}`,
  ],
] as const;

/** First, middle and last address of a CIDR block, computed without the code under test. */
function samples(block: string): string[] {
  const [base, lengthText] = block.split('/') as [string, string];
  const v6 = base.includes(':');
  const bits = v6 ? 128 : 32;
  const first = v6 ? parse6(base) : parse4(base);
  const size = 1n << BigInt(bits - Number(lengthText));
  const show = v6 ? show6 : show4;
  return [...new Set([first, first + size / 2n, first + size - 1n].map(show))];
}
const parse4 = (s: string) => s.split('.').reduce((n, o) => (n << 8n) + BigInt(o), 0n);
const show4 = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => (n >> s) & 255n).join('.');
function parse6(s: string): bigint {
  const [head, tail = ''] = s.split('::') as [string, string?];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) + BigInt(`0x${g}`), 0n);
}
const show6 = (n: bigint) =>
  [...Array(8).keys()].map((i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

describe('every IANA special-purpose range is refused', () => {
  it.each([...IPV4, ...IPV6])('%s (%s): first, middle and last address', (block) => {
    for (const ip of samples(block)) expect([ip, forbiddenRange(ip)]).not.toEqual([ip, null]);
  });
});

describe('IPv6 forms embedding IPv4 are judged by the address they embed', () => {
  it.each(EMBEDDING)('%s: refused for every special IPv4 range', (_form, write) => {
    for (const [block] of IPV4) {
      for (const v4 of samples(block)) {
        const ip = write(v4);
        expect([ip, v4, forbiddenRange(ip)]).not.toEqual([ip, v4, null]);
      }
    }
  });

  it.each(EMBEDDING)('%s: a public IPv4 address inside is public', (_form, write) => {
    for (const v4 of ['8.8.8.8', '93.184.215.14', '1.1.1.1'])
      expect(forbiddenRange(write(v4))).toBeNull();
  });

  it.each([
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['2002:c0a8:1::1', 'private'],
  ])('%s is refused as %s, the class of what it embeds', (ip, range) => {
    expect(forbiddenRange(ip)).toBe(range);
  });

  it('a local-use NAT64 address in a layout whose IPv4 part cannot be located is refused', () => {
    expect(forbiddenRange('64:ff9b:1:a00:1::')).toBe('unattributable');
  });

  it.each(['2606:4700::1111', '2a00:1450:4001:81c::200e', '2001:200::1'])(
    'a global unicast address (%s) is public',
    (ip) => expect(forbiddenRange(ip)).toBeNull(),
  );
});
