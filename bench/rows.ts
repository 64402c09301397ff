import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import twilio from 'twilio';
import { benchContact } from './outbound-hook.js';
import type { WrkRequest } from './wrk.js';

export type Json = Record<string, unknown>;

/** What a row's seed step may use: the admin API of the store under test. */
export interface SeedApi {
  /** Calls the admin API and throws unless it answers 2xx. */
  admin(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Json>;
  orgId: string;
  /** An API key with every scope (enroll, execute). */
  apiKey: string;
  /** A new campaign with `pool` pool numbers and no overflow number; returns its code. */
  campaign(pool: number): Promise<string>;
  /** BENCH_POOL: a pool large enough not to run out during a row. */
  poolSize: number;
  /** The parent's webhook receiver (bench/receiver.ts). */
  receiverUrl: string;
  /** Its origin: the conversions row points GOOGLE_ADS_API_BASE there. */
  receiverBase: string;
  /** Raw SQL on the store under test, for rows that need many rows seeded at once. */
  sql(text: string, params: unknown[]): Promise<unknown[]>;
  /** pewc consent on file for `n` contacts (bench/outbound-hook.ts benchContact); returns n. */
  consents(n: number): Promise<number>;
}

export interface HttpContext {
  apiKey: string;
  /** What the row's seed step returned. */
  seed: Json;
  /** 'warmup' or 'measure': requests of the two phases must not collide (e.g. visitor ids). */
  phase: string;
}

/**
 * One line of the table. A row is either HTTP load (autocannon against a fresh
 * server child, bench/server.ts) or a direct loop (a fresh child running
 * `operation` from `direct` at the same concurrency, bench/direct.ts). To add
 * a row (e.g. `outbound`: touch decision + enqueue), append a definition here:
 * seed what it needs through the admin API, then give `http` or `direct`.
 */
export interface BenchRow {
  id: string;
  title: string;
  seed?(api: SeedApi): Promise<Json>;
  http?(ctx: HttpContext): autocannon.Request[];
  /** The same load for wrk (bench/wrk.ts), used instead of `http` when wrk is installed. */
  wrk?(ctx: HttpContext): WrkRequest;
  /** A module under bench/ (`.js`, as compiled) exporting `operation: DirectOperation` (see bench/direct.ts). */
  direct?: string;
  /**
   * HTTP rows: requests per second offered over all connections (autocannon
   * overallRate, latencies corrected for coordinated omission). Absent: each
   * connection sends its next request as soon as the last is answered.
   */
  rate?: number;
  /** The stores the row runs on; absent: all. */
  stores?: ('pglite' | 'postgres')[];
  /** Shown for information; not part of the ratios. */
  note?: string;
  /** Extra environment of the server child. */
  env?: Record<string, string>;
  /** Count what the parent's webhook receiver gets during the measured window. */
  countsWebhooks?: boolean;
  /** What that count is, in the printed line (default: webhooks delivered). */
  delivered?: string;
  /** Run ANALYZE on the database just before the row (PostgreSQL). */
  analyzeFirst?: boolean;
}

/** Monday 2 March 2026, 10:00 in New York: inside every calling window for 212 numbers. */
export const BENCH_OUTBOUND_NOW = '2026-03-02T15:00:00Z';
/** Contacts with consent: more than a row's touches, so none is capped. */
const OUTBOUND_CONTACTS = 60_000;

function outboundBody(contact: string, dryRun: boolean): string {
  return JSON.stringify({
    to_e164: contact,
    channel: 'sms',
    consent_basis: 'pewc',
    ...(dryRun ? { dry_run: true } : {}),
  });
}

function outboundHttp(ctx: HttpContext, dryRun: boolean): autocannon.Request[] {
  const contacts = ctx.seed.contacts as number;
  // Warm-up and measurement touch different contacts (each once at most).
  let n = ctx.phase === 'warmup' ? contacts / 2 : 0;
  return [
    {
      method: 'POST',
      path: `/tracking/campaigns/${ctx.seed.campaignCode}/outbound`,
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: outboundBody(benchContact(n++ % contacts), dryRun) }),
    },
  ];
}

function outboundWrk(ctx: HttpContext, dryRun: boolean): WrkRequest {
  const contacts = ctx.seed.contacts as number;
  return {
    method: 'POST',
    path: `/tracking/campaigns/${ctx.seed.campaignCode}/outbound`,
    headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
    body: outboundBody('{pick}', dryRun),
    // Warm-up and measurement each walk their own half (bench/measure.ts passes the phase).
    picks: Array.from({ length: contacts / 2 }, (_, i) =>
      benchContact(ctx.phase === 'warmup' ? contacts / 2 + i : i),
    ),
  };
}

/** Issue 14's end-to-end goal on PostgreSQL, 64 connections, free pool. */
export const GOAL_SESSIONS = 10_000;
/** The offered rate of the latency-at-load row (BENCH_RATE overrides it). */
export const GOAL_RATE = Number(process.env.BENCH_RATE ?? 3_000);

/** The same for wrk: `{n}` is a counter, prefixed per phase (bench/wrk.ts). */
function dniCreateWrk(ctx: HttpContext): WrkRequest {
  return {
    method: 'POST',
    path: '/dni/session',
    headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ campaign_code: ctx.seed.campaignCode, visitor_id: 'v-{n}' }),
  };
}

/** POST /dni/session with a visitor id never seen before on every request. */
function dniCreate(ctx: HttpContext): autocannon.Request[] {
  const run = `${ctx.phase}-${randomBytes(4).toString('hex')}`;
  let n = 0;
  const headers = {
    authorization: `Bearer ${ctx.apiKey}`,
    'content-type': 'application/json',
  };
  const code = ctx.seed.campaignCode as string;
  return [
    {
      method: 'POST',
      path: '/dni/session',
      headers,
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ campaign_code: code, visitor_id: `v-${run}-${n++}` }),
      }),
    },
  ];
}

const TWILIO_TOKEN = 'bench0123456789abcdef0123456789ab';
export const BENCH_SECRETS_KEY = 'b'.repeat(64);
/** Calls seeded for the conversions row: the warm-up takes the first WARMUP_CALLS. */
const SEEDED_CALLS = 60_000;
const WARMUP_CALLS = 15_000;

/** A success report on a seeded call (each with a gclid session), a new call every request. */
function successReport(ctx: HttpContext): autocannon.Request[] {
  let n = ctx.phase === 'warmup' ? 0 : WARMUP_CALLS;
  const run = randomBytes(4).toString('hex');
  return [
    {
      method: 'POST',
      path: `/dni/campaigns/${ctx.seed.campaignCode as string}/buyer-report`,
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      setupRequest: (req) => {
        n++;
        const call = `call_bench${String(n).padStart(10, '0')}`;
        return {
          ...req,
          body: JSON.stringify({
            call_id: call,
            report_id: `r-${run}-${n}`,
            disposition: 'success',
          }),
        };
      },
    },
  ];
}
const PUBLIC_BASE = 'https://bench.example.com';
const VOICE = '/carrier/twilio/voice';

/** Twilio's voice webhook, signed, a new CallSid every request: each one records a call. */
function twilioVoice(ctx: HttpContext): autocannon.Request[] {
  const numbers = ctx.seed.numbers as string[];
  const run = `${ctx.phase}${Date.now().toString(16)}`;
  let n = 0;
  return [
    {
      method: 'POST',
      path: VOICE,
      setupRequest: (req) => {
        const i = n++;
        const params = {
          CallSid: `CA${run}${String(i).padStart(32 - run.length, '0')}`,
          CallStatus: 'ringing',
          From: `+1212${String(2_000_000 + (i % 7_000_000)).padStart(7, '0')}`,
          To: numbers[i % numbers.length]!,
        };
        return {
          ...req,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': twilio.getExpectedTwilioSignature(
              TWILIO_TOKEN,
              `${PUBLIC_BASE}${VOICE}`,
              params,
            ),
          },
          body: new URLSearchParams(params).toString(),
        };
      },
    },
  ];
}

export const rows: BenchRow[] = [
  {
    id: 'http-ceiling',
    title: 'HTTP ceiling (GET /__bench/noop)',
    http: () => [{ method: 'GET', path: '/__bench/noop' }],
    wrk: () => ({ method: 'GET', path: '/__bench/noop' }),
  },
  {
    id: 'store-ceiling',
    title: 'Store ceiling, one request per statement (direct)',
    seed: async (api) => ({ orgId: api.orgId, campaignCode: await api.campaign(api.poolSize) }),
    direct: 'ops/dni-open.js',
  },
  {
    id: 'store-ceiling-batched',
    title: 'Store ceiling, batched as the route does (direct)',
    seed: async (api) => ({ orgId: api.orgId, campaignCode: await api.campaign(api.poolSize) }),
    direct: 'ops/dni-open-batched.js',
  },
  {
    id: 'dni-create',
    title: 'DNI create e2e (POST /dni/session)',
    note: 'on PostgreSQL: a database loaded a moment ago, never analysed (the machine runs autovacuum off)',
    seed: async (api) => ({ campaignCode: await api.campaign(api.poolSize) }),
    http: dniCreate,
    wrk: dniCreateWrk,
  },
  {
    id: 'dni-create-analyzed',
    title: 'DNI create e2e after ANALYZE',
    note: 'the same as dni-create, with fresh statistics on every table (ANALYZE just before the row)',
    stores: ['postgres'],
    analyzeFirst: true,
    seed: async (api) => ({ campaignCode: await api.campaign(api.poolSize) }),
    http: dniCreate,
    wrk: dniCreateWrk,
  },
  {
    id: 'dni-create-rate',
    title: `DNI create at ${GOAL_RATE.toLocaleString('en-US')}/s offered`,
    note: 'latency at the goal rate: with 64 closed-loop connections, mean latency = 64 / throughput',
    stores: ['postgres'],
    rate: GOAL_RATE,
    seed: async (api) => ({ campaignCode: await api.campaign(api.poolSize) }),
    http: dniCreate,
  },
  {
    id: 'dni-exhausted',
    title: 'DNI create, pool exhausted (100 numbers)',
    note: 'every new visitor shares the least recently assigned number',
    seed: async (api) => ({ campaignCode: await api.campaign(100) }),
    http: dniCreate,
    wrk: dniCreateWrk,
  },
  {
    id: 'buyer-report',
    title: 'Buyer report (POST …/buyer-report), a new report id each time',
    note: '1,000 calls, each request a new report_id on the next one (a buyer correction after the first)',
    seed: async (api) => {
      const code = await api.campaign(1000);
      const shown = await api.admin('GET', `/admin/orgs/${api.orgId}/campaigns/${code}`);
      const numbers = shown.numbers as string[];
      const calls: string[] = [];
      for (let i = 0; i < 1000; i++) {
        const call = await api.admin('POST', `/admin/orgs/${api.orgId}/calls`, {
          to: numbers[i % numbers.length],
          from: `+1212${2_000_000 + i}`,
        });
        calls.push(call.call_id as string);
      }
      return { campaignCode: code, calls };
    },
    http: (ctx) => {
      const calls = ctx.seed.calls as string[];
      const run = `${ctx.phase}-${randomBytes(4).toString('hex')}`;
      let n = 0;
      return [
        {
          method: 'POST',
          path: `/dni/campaigns/${ctx.seed.campaignCode}/buyer-report`,
          headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
          setupRequest: (req) => {
            const i = n++;
            return {
              ...req,
              body: JSON.stringify({
                call_id: calls[i % calls.length],
                report_id: `r-${run}-${i}`,
                disposition: i % 3 ? 'success' : 'rejected',
              }),
            };
          },
        },
      ];
    },
    wrk: (ctx) => ({
      method: 'POST',
      path: `/dni/campaigns/${ctx.seed.campaignCode}/buyer-report`,
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      body: '{"call_id":"{pick}","report_id":"r-{n}","disposition":"success"}',
      picks: ctx.seed.calls as string[],
    }),
  },
  {
    id: 'outbound-dry',
    title: 'Outbound touch, dry run (POST …/outbound, dry_run: true)',
    note: 'the whole decision (consent, quiet hours, frequency), nothing written',
    env: { BENCH_NOW: BENCH_OUTBOUND_NOW },
    seed: async (api) => {
      const code = await api.campaign(1);
      return { campaignCode: code, contacts: await api.consents(OUTBOUND_CONTACTS) };
    },
    http: (ctx) => outboundHttp(ctx, true),
    wrk: (ctx) => outboundWrk(ctx, true),
  },
  {
    id: 'outbound-placed',
    title: 'Outbound touch, placed (POST …/outbound → 202)',
    note: 'decision, touch, dispatch job, audit line; each contact touched once (no frequency cap reached)',
    env: { BENCH_NOW: BENCH_OUTBOUND_NOW },
    seed: async (api) => {
      const code = await api.campaign(1);
      return { campaignCode: code, contacts: await api.consents(OUTBOUND_CONTACTS) };
    },
    http: (ctx) => outboundHttp(ctx, false),
    wrk: (ctx) => outboundWrk(ctx, false),
  },
  {
    id: 'outbound',
    title: 'Outbound touch decision + enqueue (executeTouch, direct)',
    note: 'consent read, per-contact lock, frequency read, evaluation, touch, dispatch job, audit line',
    seed: async (api) => ({ orgId: api.orgId, campaignCode: await api.campaign(1) }),
    direct: 'ops/outbound-touch.js',
  },
  {
    id: 'webhooks',
    title: 'Webhooks: call.received per Twilio voice webhook, delivered to a local receiver',
    note: 'req/s is the event-producing rate; the delivery rate is printed beside it',
    env: {
      BENCH_WORKERS: '1',
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      PUBLIC_BASE_URL: PUBLIC_BASE,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_PER_ENDPOINT_CONCURRENCY: '16',
      WORKER_POLL_MS: '50',
    },
    countsWebhooks: true,
    seed: async (api) => {
      const code = await api.campaign(1000);
      const shown = await api.admin('GET', `/admin/orgs/${api.orgId}/campaigns/${code}`);
      await api.admin('POST', `/admin/orgs/${api.orgId}/webhooks`, {
        url: api.receiverUrl,
        events: ['call.received'],
      });
      return { numbers: shown.numbers };
    },
    http: twilioVoice,
  },
  {
    id: 'conversions',
    title:
      'Conversion uploads: success buyer reports, uploaded to a fake Google Ads answering after 50 ms',
    note: 'req/s is buyer reports recorded (each writes its upload row); the upload rate is printed beside it',
    env: {
      BENCH_WORKERS: '1',
      WORKER_POLL_MS: '50',
    },
    countsWebhooks: true,
    delivered: 'conversions uploaded',
    // 60,000 calls and sessions seeded in two statements: plan with their statistics.
    analyzeFirst: true,
    seed: async (api) => {
      const code = await api.campaign(10);
      await api.admin('POST', `/admin/orgs/${api.orgId}/conversion-destinations`, {
        platform: 'google_ads',
        name: 'Bench Google',
        // Only this row's campaign: the buyer-report row's reports stay without uploads.
        campaigns: [code],
        // The Google Ads API path, whose answer bench/receiver.ts gives.
        settings: { customer_id: '1234567890', conversion_action: '1', api: 'google_ads_api' },
        secrets: { developer_token: 'd', client_id: 'c', client_secret: 's', refresh_token: 'r' },
        value: { amount: 1, currency: 'USD' },
      });
      const args = [api.orgId, code, SEEDED_CALLS];
      // Materialized: inlined, its number's subquery ran once per seeded row, each a scan of
      // the never-analysed numbers table (750,000 rows with 150,000-number pools): hours.
      const campaign =
        'select id, (select e164 from tracking_numbers where campaign_id = c.id limit 1) as num from campaigns c where org_id = $1 and code = $2';
      await api.sql(
        `with c as materialized (${campaign})
         insert into dni_sessions (id, org_id, campaign_id, visitor_id, tracking_number, kind,
           created_at, expires_at, last_seen_at, gclid)
         select 'ds_bench' || lpad(g::text, 10, '0'), $1, c.id, 'bv' || g, c.num, 'allocated',
           now() - interval '2 hours', now() + interval '1 day', now(), 'Gbench-' || g
           from c, generate_series(1, $3::integer) g`,
        args,
      );
      await api.sql(
        `with c as materialized (${campaign})
         insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number,
           started_at, attribution)
         select 'call_bench' || lpad(g::text, 10, '0'), $1, c.id, 'ds_bench' || lpad(g::text, 10, '0'),
           c.num, '+12125550100', now() - interval '1 hour', 'session'
           from c, generate_series(1, $3::integer) g`,
        args,
      );
      return {
        campaignCode: code,
        env: {
          GOOGLE_ADS_API_BASE: `${api.receiverBase}/google`,
          GOOGLE_OAUTH_TOKEN_URL: `${api.receiverBase}/google-oauth/token`,
        },
      };
    },
    http: successReport,
  },
];
