import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildAdminApp, buildApp } from '../../src/app.js';
import type { AppDeps, Clock, HttpLimits, TwilioSettings } from '../../src/deps.js';
import { Keyring } from '../../src/domain/auth/keyring.js';
import { cachedPoolSizing } from '../../src/domain/dni/pool-gauges.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/domain/rate-limit/limiter.js';
import { suppressionListNotes } from '../../src/domain/suppression/freshness.js';
import { createMetrics } from '../../src/http/metrics.js';
import type { Store } from '../../src/store/db.js';
import { poolUsage } from '../../src/store/repos/dni.js';
import { createRepositories } from '../../src/store/repos/index.js';
import { startKeyringSync } from '../../src/store/repos/keyring-sync.js';
import { openTestStore, type TestStore } from './store.js';

export const ADMIN_TOKEN = 'adm_test_token_0123456789abcdef';

/** A clock tests set and advance instead of sleeping. */
export class TestClock implements Clock {
  constructor(public ms = Date.parse('2026-03-02T15:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export interface Harness {
  app: FastifyInstance;
  admin: FastifyInstance;
  deps: AppDeps;
  store: TestStore;
  clock: TestClock;
  close(): Promise<void>;
}

let numberSeq = 0;
/** Distinct, possible US numbers; the random base keeps test files apart on a shared database. */
export function freshNumbers(n: number): string[] {
  const base = 2_000_000 + Math.floor(Math.random() * 5_000_000);
  return Array.from({ length: n }, () => `+1415${String(base + numberSeq++).padStart(7, '0')}`);
}

export async function buildDeps(
  store: Store,
  clock: Clock,
  limiter: RateLimiter = new MemoryRateLimiter(),
) {
  const keyring = new Keyring();
  const sync = await startKeyringSync(store, keyring, 60_000, pino({ level: 'silent' }));
  sync.stop();
  const repos = createRepositories(store);
  const deps: AppDeps = {
    store,
    repos,
    keyring,
    limiter,
    clock,
    metrics: createMetrics(
      () => poolUsage(store, new Date(clock.now())),
      cachedPoolSizing(repos, () => clock.now()),
      () => clock.now(),
      () => suppressionListNotes(repos, clock.now()),
    ),
    logger: pino({ level: process.env.TEST_LOG ?? 'silent' }),
  };
  return { deps, sync };
}

export async function openHarness(
  options: {
    limiter?: RateLimiter;
    store?: TestStore;
    twilio?: TwilioSettings;
    /** Timeouts of the HTTP layer, for tests that listen on a real socket. */
    http?: HttpLimits;
  } = {},
): Promise<Harness> {
  const store = options.store ?? (await openTestStore());
  const clock = new TestClock();
  const { deps } = await buildDeps(store, clock, options.limiter);
  deps.twilio = options.twilio;
  const app = await buildApp(deps, options.http);
  const admin = await buildAdminApp(deps, ADMIN_TOKEN, ADMIN_TOKEN, options.http);
  await app.ready();
  await admin.ready();
  return {
    app,
    admin,
    deps,
    store,
    clock,
    async close() {
      await app.close();
      await admin.close();
      if (!options.store) await store.close();
    },
  };
}

/** A harness for the whole test file: opened before its tests, closed after them. */
export function useHarness(): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await openHarness());
  });
  afterAll(async () => {
    await h.close();
  });
  return h;
}

export function json(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

/** Calls the admin API and fails loudly when it does not answer 2xx. */
export async function adminCall(
  h: Harness,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  payload?: unknown,
) {
  const res = await h.admin.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return json(res);
}

export interface Tenant {
  orgId: string;
  key: string;
  keyId: string;
  code: string;
  numbers: string[];
}

let codeSeq = 0;
export function freshCode(): string {
  return (codeSeq++).toString(36).padStart(3, 'c').slice(-3);
}

/** A fresh organization with a key and a campaign: the unit of isolation between tests. */
export async function createTenant(
  h: Harness,
  o: {
    trackingEnabled?: boolean;
    scopes?: string[];
    numbers?: number;
    overflow?: boolean;
    ttl?: number;
    rateLimit?: number;
  } = {},
): Promise<Tenant> {
  const org = await adminCall(h, 'POST', '/admin/orgs', {
    name: 'Test org',
    tracking_enabled: o.trackingEnabled ?? true,
    ...(o.rateLimit ? { dni_rate_limit_per_minute: o.rateLimit } : {}),
  });
  const key = await adminCall(h, 'POST', `/admin/orgs/${org.org_id}/keys`, {
    scopes: o.scopes ?? ['enroll', 'execute'],
  });
  const numbers = freshNumbers(o.numbers ?? 3);
  const code = freshCode();
  await adminCall(h, 'POST', `/admin/orgs/${org.org_id}/campaigns`, {
    code,
    name: 'Campaign',
    numbers,
    ...(o.overflow ? { overflow_number: freshNumbers(1)[0] } : {}),
    ...(o.ttl ? { session_ttl_seconds: o.ttl } : {}),
  });
  return { orgId: org.org_id, key: key.api_key, keyId: key.key_id, code, numbers };
}

export function bearer(key: string) {
  return { authorization: `Bearer ${key}` };
}

export function dni(h: Harness, key: string, body: unknown, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/dni/session',
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
