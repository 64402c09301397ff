import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import twilio from 'twilio';

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
}

/** Issue 14's end-to-end goal on PostgreSQL, 64 connections, free pool. */
export const GOAL_SESSIONS = 10_000;
/** The offered rate of the latency-at-load row (BENCH_RATE overrides it). */
export const GOAL_RATE = Number(process.env.BENCH_RATE ?? 3_000);

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
    seed: async (api) => ({ campaignCode: await api.campaign(api.poolSize) }),
    http: dniCreate,
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
];
