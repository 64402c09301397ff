import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOUCH_GROUPS, TRAFFIC_GROUPS } from '../../src/domain/reports/vocabulary.js';
import { ADMIN_TOKEN, adminCall, dni, type Harness, json, useHarness } from '../helpers/harness.js';
import { freshContact, grant, outboundTenant, touch } from '../helpers/outbound.js';
import { aggregate, type Bucket, type Fact, pathOf, sourceOf } from '../helpers/report-model.js';
import { recordCall, report } from '../helpers/reports.js';
import { testRetention } from '../helpers/retention.js';
import { createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring } from '../helpers/voice.js';

const h = useHarness({
  privateDatabase: 'the retention round prunes and folds for every organization',
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
});

/** Zones with 30- and 45-minute offsets and DST changes (Lord Howe moves by 30 minutes). */
const ZONES = [
  'UTC',
  'America/New_York',
  'Asia/Kathmandu',
  'Australia/Eucla',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'Europe/London',
];
/** A little before DST changes: New York and London in spring and autumn, Lord Howe and Chatham in April. */
const STARTS = [
  '2026-03-07T20:00:00Z',
  '2026-10-31T20:00:00Z',
  '2026-03-28T20:00:00Z',
  '2026-04-04T00:00:00Z',
];
const LANDINGS = [
  undefined,
  'https://ex.org/a?utm_source=Google&utm_medium=cpc&utm_campaign=spring',
  'https://ex.org/b/c?gclid=g1',
  'https://ex.org/?fbclid=f1',
  'https://ex.org/m?msclkid=m1&utm_medium=ppc',
  'https://ex.org/a?utm_source=%20news%20&utm_campaign=x,y',
  // A network's other names are its source (docs/reporting.md#sources).
  'https://ex.org/f?utm_source=Facebook',
  'https://ex.org/b?utm_source=%20BING%20%20',
];
const METRICS = [
  'sessions',
  'sessions_shared',
  'sessions_ambiguous',
  'session_renewals',
  'calls',
  'calls_with_session',
  'calls_on_shared_number',
  'calls_first_time',
  'buyer_reports',
  'buyer_corrections',
  'buyer_success',
  'buyer_rejected',
  'buyer_reported_calls',
  'buyer_report_seconds_sum',
  'calls_answered_by_buyer',
  'calls_billable',
];
/** Each buyer's payout (a billable leg lasts 60 s or more): revenue is summed in cents. */
const PAYOUTS = ['25.00', '7.35'];
const cents = (amount: unknown) => Math.round(Number(amount) * 100);
const money = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const TOUCH_METRICS = ['touches', 'placed', 'blocked'];

const event = fc.oneof(
  fc.record({
    kind: fc.constant('session' as const),
    visitor: fc.nat(5),
    landing: fc.nat(LANDINGS.length - 1),
  }),
  // Calls twice as often, from three numbers: callers come back in the same and later
  // buckets, which the unique-caller counts must tell apart.
  {
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      caller: fc.nat(2),
      number: fc.nat(1),
      lagMinutes: fc.nat(180),
    }),
    weight: 2,
  },
  // A call through the Twilio voice webhook, routed to the campaign's buyers: each offer ends
  // as given (a busy buyer passes the call to the other), the buyer's leg lasting `seconds`.
  {
    arbitrary: fc.record({
      kind: fc.constant('routed' as const),
      caller: fc.nat(2),
      number: fc.nat(1),
      legs: fc.array(
        fc.constantFrom(
          'completed' as const,
          'completed' as const,
          'busy' as const,
          'no-answer' as const,
        ),
        { minLength: 1, maxLength: 2 },
      ),
      seconds: fc.nat(120),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      call: fc.nat(40),
      success: fc.boolean(),
    }),
    weight: 2,
  },
  fc.record({ kind: fc.constant('touch' as const), contact: fc.nat(1), sms: fc.boolean() }),
  fc.record({ kind: fc.constant('retention' as const) }),
);
const query = fc.record({
  bucket: fc.constantFrom<Bucket>('none', 'hour', 'day', 'week', 'month'),
  traffic: fc
    .tuple(fc.subarray([...TRAFFIC_GROUPS], { maxLength: 2 }), fc.boolean())
    .map(([keys, byBuyer]) => (byBuyer ? [...new Set(['buyer' as const, ...keys])] : keys)),
  touches: fc.subarray([...TOUCH_GROUPS], { maxLength: 2 }),
  /** A source filter: the callers then count once among that source's calls only. */
  source: fc.option(fc.constantFrom('google', 'meta', 'direct', 'news', 'unattributed'), {
    nil: undefined,
  }),
  /** The most traffic groups to list: the rest fold into each bucket's `other` row. */
  groups: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
});
const scenario = fc.record({
  start: fc.constantFrom(...STARTS),
  zones: fc.tuple(fc.constantFrom(...ZONES), fc.constantFrom(...ZONES)),
  steps: fc.array(fc.record({ gapMinutes: fc.nat(300), event }), { minLength: 4, maxLength: 30 }),
  queries: fc.array(query, { minLength: 1, maxLength: 3 }),
});

type Row = Record<string, unknown>;

/** Plays a scenario; returns what the model needs that raw rows do not keep (renewal times). */
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function play(h: Harness, sc: Scenario) {
  const t = await outboundTenant(h);
  const contacts = [t.contact, freshContact()];
  await grant(h, t.orgId, contacts[1]!);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { time_zone: sc.zones[0] });
  const buyers = [];
  for (const amount of PAYOUTS)
    buyers.push(await createBuyer(h, t.orgId, { payout: { amount, min_duration_seconds: 60 } }));
  await setRouting(h, t.orgId, t.code, {
    targets: buyers.map((b) => ({ buyer_id: b.buyer_id, priority: 1 })),
  });
  const sessions = new Map<string, Row>();
  const snapshot = async () => {
    const rows = await h.store.query<Row>('select * from dni_sessions where org_id = $1', [
      t.orgId,
    ]);
    for (const r of rows) sessions.set(String(r.id), r);
  };
  const renewals: { id: string; at: number }[] = [];
  const seen = new Set<string>();
  const calls: string[] = [];
  let now = Date.parse(sc.start);
  let reportSeq = 0;
  const retention = testRetention(h, { sessionDays: 1 });
  for (const step of sc.steps) {
    now += step.gapMinutes * 60_000;
    h.clock.ms = now;
    const e = step.event;
    if (e.kind === 'session') {
      const landing = LANDINGS[e.landing];
      const res = await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: `v${e.visitor}`,
        ...(landing ? { landing_url: landing } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = json(res).dni_session_id as string;
      if (seen.has(id)) renewals.push({ id, at: now });
      seen.add(id);
    } else if (e.kind === 'call') {
      const startedAt = new Date(now - e.lagMinutes * 60_000).toISOString();
      calls.push(
        await recordCall(h, t, {
          to: t.numbers[e.number],
          from: `+1212555000${e.caller}`,
          startedAt,
        }),
      );
    } else if (e.kind === 'routed') {
      const from = `+1212555000${e.caller}`;
      const call = await ring(h, t.numbers[e.number]!, from);
      let step = call.step;
      for (const leg of e.legs) {
        if (step.kind !== 'dial' || !step.path) break;
        step = await dialEnded(h, call, step, leg, leg === 'completed' ? e.seconds : 0);
      }
      const [row] = await h.store.query<{ id: string }>(
        'select id from calls where carrier_call_sid = $1',
        [call.callSid],
      );
      calls.push(row!.id);
    } else if (e.kind === 'report' && calls.length > 0) {
      const res = await report(h, t.key, t.code, {
        call_id: calls[e.call % calls.length],
        report_id: `r${reportSeq++}`,
        disposition: e.success ? 'success' : 'rejected',
      });
      expect([201, 422]).toContain(res.statusCode); // 422: beyond the report window
    } else if (e.kind === 'touch') {
      const res = await touch(h, t.key, t.code, {
        to_e164: contacts[e.contact],
        channel: e.sms ? 'sms' : 'call',
        consent_basis: 'pewc',
      });
      expect([200, 202]).toContain(res.statusCode);
    } else if (e.kind === 'retention') {
      await snapshot();
      // Each run's job holds the lease until it stops (below): a round always runs.
      expect(await retention.runOnce()).not.toBeNull();
    }
  }
  await snapshot();
  return { t, sessions, renewals, retention };
}

async function trafficFacts(
  h: Harness,
  orgId: string,
  code: string,
  sessions: Map<string, Row>,
  renewals: { id: string; at: number }[],
) {
  const facts: Fact[] = [];
  const keysOf = (s: Row) => ({
    campaign: code,
    source: sourceOf(s),
    medium: (s.utm_medium as string) || null,
    utm_campaign: (s.utm_campaign as string) || null,
    landing_path: pathOf(s.landing_url),
    tracking_number: String(s.tracking_number),
  });
  for (const s of sessions.values()) {
    facts.push({
      at: new Date(s.created_at as string).getTime(),
      keys: { ...keysOf(s), attribution: null },
      counts: {
        sessions: 1,
        sessions_shared: s.kind === 'shared' ? 1 : 0,
        sessions_ambiguous: s.ambiguous ? 1 : 0,
      },
    });
  }
  for (const r of renewals) {
    facts.push({
      at: r.at,
      keys: { ...keysOf(sessions.get(r.id)!), attribution: null },
      counts: { session_renewals: 1 },
    });
  }
  const calls = await h.store.query<Row>('select * from calls where org_id = $1', [orgId]);
  const events = await h.store.query<Row>(
    'select call_id, at from buyer_report_events where org_id = $1 order by seq',
    [orgId],
  );
  const firstOf = new Map<string, Row>();
  for (const c of calls) {
    const f = firstOf.get(String(c.from_number));
    const key = (x: Row) => [new Date(x.started_at as string).getTime(), String(x.id)] as const;
    if (!f || key(c)[0] < key(f)[0] || (key(c)[0] === key(f)[0] && key(c)[1] < key(f)[1]))
      firstOf.set(String(c.from_number), c);
  }
  for (const c of calls) {
    const s = c.dni_session_id ? sessions.get(String(c.dni_session_id)) : undefined;
    const mine = events.filter((e) => e.call_id === c.id);
    const started = new Date(c.started_at as string).getTime();
    facts.push({
      at: started,
      caller: String(c.from_number),
      keys: {
        ...(s
          ? keysOf(s)
          : {
              campaign: code,
              source: 'unattributed',
              medium: null,
              utm_campaign: null,
              landing_path: null,
            }),
        attribution: String(c.attribution),
        tracking_number: String(c.tracking_number),
        buyer: c.buyer_id ? String(c.buyer_id) : null,
      },
      counts: {
        calls: 1,
        calls_with_session: c.dni_session_id ? 1 : 0,
        calls_on_shared_number: c.ambiguous ? 1 : 0,
        calls_first_time: firstOf.get(String(c.from_number))?.id === c.id ? 1 : 0,
        buyer_reports: mine.length,
        buyer_corrections: Math.max(0, mine.length - 1),
        buyer_success: c.disposition === 'success' ? 1 : 0,
        buyer_rejected: c.disposition === 'rejected' ? 1 : 0,
        buyer_reported_calls: mine.length > 0 ? 1 : 0,
        buyer_report_seconds_sum:
          mine.length > 0
            ? Math.floor((new Date(mine[0]!.at as string).getTime() - started) / 1000)
            : 0,
        calls_answered_by_buyer: c.buyer_id ? 1 : 0,
        calls_billable: c.billable ? 1 : 0,
        revenue_cents: c.billable && c.disposition !== 'rejected' ? cents(c.payout) : 0,
      },
    });
  }
  return facts;
}

async function touchFacts(h: Harness, orgId: string, code: string) {
  const rows = await h.store.query<Row>('select * from outbound_touches where org_id = $1', [
    orgId,
  ]);
  return rows.map((t) => {
    const checks = t.checks as {
      consent: { purpose: string };
      quiet_hours: { state: string | null };
    };
    const reasons = [...new Set((t.reasons as { code: string }[]).map((r) => r.code))];
    return {
      at: new Date(t.decided_at as string).getTime(),
      keys: {
        campaign: code,
        channel: String(t.channel),
        purpose: checks.consent.purpose,
        outcome: t.placed ? 'queued' : 'blocked',
        state: checks.quiet_hours.state ?? 'unknown',
      },
      reasons: reasons.length > 0 ? reasons : ['none'],
      counts: { touches: 1, placed: t.placed ? 1 : 0, blocked: t.placed ? 0 : 1 },
    };
  });
}

function compare(
  body: Row,
  expected: ReturnType<typeof aggregate>,
  groupBy: string[],
  metrics: string[],
  distinct: boolean,
) {
  const got = new Map<string, Row>();
  for (const r of body.rows as Row[]) {
    const b = r.bucket_start === undefined ? null : Date.parse(String(r.bucket_start));
    got.set(JSON.stringify([b, ...groupBy.map((g) => r[g] ?? null)]), r);
  }
  expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [k, e] of expected) {
    const r = got.get(k)!;
    for (const m of metrics) expect(r[m], `${k} ${m}`).toBe(e.counts[m] ?? 0);
    if ('revenue' in r) expect(r.revenue, `${k} revenue`).toBe(money(e.counts.revenue_cents ?? 0));
    if (distinct) expect(r.unique_callers, `${k} unique_callers`).toBe(e.callers.size);
  }
}

/**
 * A folded answer against the model: the groups listed are the largest by sessions then calls,
 * each listed row is its group's aggregate, and each bucket's `other` row is the sum of the
 * groups not listed (unique callers summed over those groups).
 */
function compareFolded(
  body: Row,
  expected: ReturnType<typeof aggregate>,
  groupBy: string[],
  metrics: string[],
) {
  const groupOf = (key: string) => JSON.stringify((JSON.parse(key) as unknown[]).slice(1));
  const bucketOf = (key: string) => (JSON.parse(key) as unknown[])[0] as number | null;
  const size = new Map<string, [number, number]>();
  for (const [k, e] of expected) {
    const [s, c] = size.get(groupOf(k)) ?? [0, 0];
    size.set(groupOf(k), [s + (e.counts.sessions ?? 0), c + (e.counts.calls ?? 0)]);
  }
  const rows = body.rows as Row[];
  const bucketOfRow = (r: Row) =>
    r.bucket_start === undefined ? null : Date.parse(String(r.bucket_start));
  const listed = new Set(
    rows.filter((r) => !r.other).map((r) => JSON.stringify(groupBy.map((g) => r[g] ?? null))),
  );
  expect(body.groups_folded).toBe(Math.max(0, size.size - Number(body.groups_listed)));
  expect(listed.size).toBe(Math.min(size.size, Number(body.groups_listed)));
  const folded = [...size.keys()].filter((g) => !listed.has(g));
  for (const l of listed) {
    for (const f of folded) {
      const [ls, lc] = size.get(l)!;
      const [fs, fc_] = size.get(f)!;
      expect(ls > fs || (ls === fs && lc >= fc_), `${l} listed before ${f}`).toBe(true);
    }
  }
  // The model's rows: the listed groups as they are, the others summed per bucket.
  const want = new Map<string, { counts: Record<string, number>; callers: number }>();
  for (const [k, e] of expected) {
    const key = listed.has(groupOf(k)) ? k : JSON.stringify(['other', bucketOf(k)]);
    const w = want.get(key) ?? { counts: {}, callers: 0 };
    for (const [m, n] of Object.entries(e.counts)) w.counts[m] = (w.counts[m] ?? 0) + n;
    w.callers += e.callers.size;
    want.set(key, w);
  }
  const got = new Map<string, Row>();
  for (const r of rows) {
    if (r.other) {
      for (const g of groupBy) expect(r[g]).toBeNull();
      got.set(JSON.stringify(['other', bucketOfRow(r)]), r);
    } else got.set(JSON.stringify([bucketOfRow(r), ...groupBy.map((g) => r[g] ?? null)]), r);
  }
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [k, w] of want) {
    const r = got.get(k)!;
    for (const m of metrics) expect(r[m], `${k} ${m}`).toBe(w.counts[m] ?? 0);
    expect(r.unique_callers, `${k} unique_callers`).toBe(w.callers);
  }
}

async function checkReports(
  h: Harness,
  orgId: string,
  zone: string,
  sc: Scenario,
  facts: Fact[],
  tf: Awaited<ReturnType<typeof touchFacts>>,
) {
  const from = new Date(Date.parse(sc.start) - 2 * 86_400_000).toISOString();
  const to = new Date(Date.parse(sc.start) + 20 * 86_400_000).toISOString();
  for (const q of sc.queries) {
    const bucket = q.bucket;
    const base = `from=${from}&to=${to}&bucket=${bucket}`;
    const folds = q.groups !== undefined && q.traffic.length > 0;
    const filter = `${q.source ? `&source=${q.source}` : ''}${folds ? `&groups=${q.groups}` : ''}`;
    const res = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/reports/traffic?${base}&group_by=${q.traffic.join(',')}${filter}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body.time_zone).toBe(zone);
    const range = { zone, bucket, from: Date.parse(body.from), to: Date.parse(body.to) };
    const mine = q.source ? facts.filter((f) => f.keys.source === q.source) : facts;
    const expected = aggregate(mine, { ...range, groupBy: q.traffic });
    if (folds) compareFolded(body, expected, q.traffic, METRICS);
    else {
      compare(body, expected, q.traffic, METRICS, true);
      expect(body.groups_folded).toBe(0);
    }
    const [total] = aggregate(mine, { ...range, bucket: 'none', groupBy: [] }).values();
    for (const m of METRICS) expect(body.totals[m], `totals ${m}`).toBe(total?.counts[m] ?? 0);
    expect(body.totals.revenue, 'totals revenue').toBe(money(total?.counts.revenue_cents ?? 0));
    expect(body.totals.unique_callers).toBe(total?.callers.size ?? 0);

    const tres = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/reports/touches?${base}&group_by=${q.touches.join(',')}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(tres.statusCode, tres.body).toBe(200);
    const tb = json(tres);
    const byReason = q.touches.includes('reason');
    const expanded: Fact[] = tf.flatMap((x) =>
      (byReason ? x.reasons : [null]).map((reason) => ({
        at: x.at,
        keys: { ...x.keys, reason },
        counts: x.counts,
      })),
    );
    compare(
      tb,
      aggregate(expanded, { ...range, groupBy: q.touches }),
      q.touches,
      TOUCH_METRICS,
      false,
    );
  }
}

describe('every report equals the same aggregate of the raw rows', () => {
  it('random sessions, calls, buyer reports, touches and retention rounds, across DST and zones', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const { t, sessions, renewals, retention } = await play(h, sc);
        try {
          const facts = await trafficFacts(h, t.orgId, t.code, sessions, renewals);
          const tf = await touchFacts(h, t.orgId, t.code);
          await checkReports(h, t.orgId, sc.zones[0], sc, facts, tf);
          // The organization moves to another zone: the same history, bucketed anew, first
          // from the quarter hours (its days are in the old zone), then from the days the next
          // fold builds again in the new zone.
          await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { time_zone: sc.zones[1] });
          await checkReports(h, t.orgId, sc.zones[1], sc, facts, tf);
          expect(await retention.runOnce()).not.toBeNull();
          const [kept] = await h.store.query<Row>(
            'select time_zone from report_day_zones where org_id = $1',
            [t.orgId],
          );
          expect(kept?.time_zone).toBe(sc.zones[1]);
          await checkReports(h, t.orgId, sc.zones[1], sc, facts, tf);
        } finally {
          await retention.stop();
        }
      }),
      {
        numRuns: Number(process.env.REPORT_PROPERTY_RUNS ?? 6),
        endOnFailure: true,
        ...(process.env.REPORT_PROPERTY_SEED
          ? {
              seed: Number(process.env.REPORT_PROPERTY_SEED),
              path: process.env.REPORT_PROPERTY_PATH,
            }
          : {}),
      },
    );
  });
});
