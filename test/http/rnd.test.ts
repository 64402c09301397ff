import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FccRndChecker } from '../../src/adapters/fcc-rnd-checker.js';
import { RndUnavailable, SimulatedRndChecker } from '../../src/domain/rnd/checker.js';
import { RndRefresher } from '../../src/workers/rnd-checks.js';
import { json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';

/** A local fake of the RND query API: answers by the number's last digit, counts queries. */
const answers: Record<string, string> = { '1': 'yes', '2': 'no', '3': 'no_data' };
const queries: { tn: string; date: string; auth: string | undefined }[] = [];
let failNext = 0;
let server: Server;
let baseUrl: string;
const h = useHarness({
  privateDatabase:
    "the RND refresher checks every organization's consents; its answers are not per organization",
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/query') return res.writeHead(404).end();
      if (req.headers.authorization !== 'Bearer tok') return res.writeHead(401).end();
      if (failNext > 0) {
        failNext--;
        return res.writeHead(503).end();
      }
      const q = JSON.parse(body) as { tn: string; date: string };
      queries.push({ ...q, auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: answers[q.tn.slice(-1)] ?? 'no' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.clock.set(WEEKDAY_MORNING_ET);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('FCC RND adapter against a local fake', () => {
  it('maps yes / no / no_data and sends the 10 digits, the consent date and the token', async () => {
    const c = new FccRndChecker(baseUrl, 'tok');
    expect(await c.query('+12075550101', '2026-01-05')).toBe('reassigned');
    expect(await c.query('+12075550102', '2026-01-05')).toBe('not_reassigned');
    expect(await c.query('+12075550103', '2026-01-05')).toBe('no_data');
    expect(queries.at(-1)).toEqual({ tn: '2075550103', date: '2026-01-05', auth: 'Bearer tok' });
    // Outside the NANP: not in the database, no request.
    const before = queries.length;
    expect(await c.query('+442071234567', '2026-01-05')).toBe('no_data');
    expect(queries.length).toBe(before);
  });

  it('throws RndUnavailable on a refused token, a 5xx or an unreachable host', async () => {
    await expect(
      new FccRndChecker(baseUrl, 'bad').query('+12075550102', '2026-01-05'),
    ).rejects.toBeInstanceOf(RndUnavailable);
    failNext = 1;
    await expect(
      new FccRndChecker(baseUrl, 'tok').query('+12075550102', '2026-01-05'),
    ).rejects.toBeInstanceOf(RndUnavailable);
    await expect(
      new FccRndChecker('http://127.0.0.1:1', 'tok').query('+12075550102', '2026-01-05'),
    ).rejects.toBeInstanceOf(RndUnavailable);
  });

  it('the simulated checker gives every outcome', async () => {
    const s = new SimulatedRndChecker();
    expect(await s.query('+12075550199')).toBe('reassigned');
    expect(await s.query('+12075550198')).toBe('no_data');
    expect(await s.query('+12075550100')).toBe('not_reassigned');
  });
});

describe('the gate reads stored answers', () => {
  const logger = { warn: () => {} };
  const refresher = () =>
    new RndRefresher(h.deps.repos, new FccRndChecker(baseUrl, 'tok'), () => h.clock.now(), logger, {
      intervalMs: 60_000,
      maxAgeDays: 30,
      batch: 1000,
    });
  const maine = (last: string) => `${freshContact(207).slice(0, -1)}${last}`;
  // New York numbers ending in `last` in an area code no other contact here uses: a fresh 212
  // contact with its last digit replaced could be an earlier tenant's contact, already checked.
  const newYork = (last: string) => `+1646${freshContact(212).slice(5, -1)}${last}`;
  const place = (t: { key: string; code: string }, to: string) =>
    touch(h, t.key, t.code, { to_e164: to, channel: 'call', consent_basis: 'pewc', dry_run: true });

  it('Maine: blocked without an answer, allowed after the scheduled check says not reassigned', async () => {
    const t = await outboundTenant(h);
    const n = maine('2');
    await grant(h, t.orgId, n);
    const before = json(await place(t, n));
    expect(before.reasons.map((r: { code: string }) => r.code)).toEqual(['reassigned']);
    expect(before.checks.reassigned).toMatchObject({
      required: true,
      result: null,
      consent_date: '2026-01-01',
    });
    expect(await refresher().runOnce()).toBeGreaterThan(0);
    const after = json(await place(t, n));
    expect(after.status).toBe('would_queue');
    expect(after.checks.reassigned).toMatchObject({
      result: 'not_reassigned',
      checked_at: '2026-03-02T15:00:00.000Z',
    });
    // Cached per (number, consent date): the next round does not ask again.
    const asked = queries.filter((q) => q.tn === n.slice(2)).length;
    await refresher().runOnce();
    expect(queries.filter((q) => q.tn === n.slice(2)).length).toBe(asked);
  });

  it('a grant triggers the check; a reassigned answer blocks; a failure leaves it to the schedule', async () => {
    const t = await outboundTenant(h);
    const r = refresher();
    // The checks the grants start, to wait for them (no scheduled round runs in this test).
    const started: Promise<void>[] = [];
    h.deps.rnd = {
      checkSoon: (work) => {
        const p = r.checkSoon(work);
        started.push(p);
        return p;
      },
    };
    try {
      const n = newYork('1');
      await grant(h, t.orgId, n);
      expect(started).toHaveLength(1);
      await Promise.all(started);
      expect(queries.filter((q) => q.tn === n.slice(2))).toEqual([
        { tn: n.slice(2), date: '2026-01-01', auth: 'Bearer tok' },
      ]);
      expect(json(await place(t, n)).reasons.map((x: { code: string }) => x.code)).toEqual([
        'reassigned',
      ]);
      // Elsewhere a missing answer (here: the query failed) is reported and allowed.
      const m = newYork('4');
      failNext = 1;
      await grant(h, t.orgId, m);
      await Promise.all(started);
      const open = json(await place(t, m));
      expect(open.status).toBe('would_queue');
      expect(open.checks.reassigned).toMatchObject({ required: false, result: null });
      // The schedule picks the failed one up.
      await r.runOnce();
      expect(json(await place(t, m)).checks.reassigned.result).toBe('not_reassigned');
    } finally {
      h.deps.rnd = undefined;
    }
  });
});
