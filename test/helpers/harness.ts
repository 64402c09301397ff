import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildAdminApp, buildApp } from '../../src/app.js';
import type { AppDeps, Clock, HttpLimits, TwilioSettings } from '../../src/deps.js';
import { Keyring } from '../../src/domain/auth/keyring.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/domain/rate-limit/limiter.js';
import type { Store } from '../../src/store/db.js';
import { startKeyringSync } from '../../src/store/repos/keyring-sync.js';
import { wireStore } from '../../src/wiring.js';
import { checkConformance } from './conformance.js';
import { openTestStore, openWorkerStore, type TestStore } from './store.js';

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
  /** The listening app's base URL (`listen`), '' when it only answers `inject`. */
  url: string;
  /** Closes the apps, the limiter and a store the harness opened. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  limiter?: RateLimiter;
  /** A store to borrow (left open on close), e.g. another harness's, as a second process would. */
  store?: TestStore;
  /**
   * Why this file needs a database of its own instead of the worker's, which
   * earlier files have written to: it runs a job over every organization (the
   * dispatch or webhook worker, retention), lists or counts every one, reads a
   * table that is not per organization…
   */
  privateDatabase?: string;
  twilio?: TwilioSettings;
  /** Timeouts of the HTTP layer, for tests that listen on a real socket. */
  http?: HttpLimits;
  /** The apps' logger (silent unless TEST_LOG names a level), for tests that read the log. */
  logger?: Logger;
  /** Puts the public app, or the admin app (as the CLI needs), on a socket on 127.0.0.1. */
  listen?: 'app' | 'admin';
}

// Tracking numbers are unique across organizations: one sequence for the
// whole worker, as its files share a database; the random base keeps other
// processes apart on one database.
const numberBase = 2_000_000 + Math.floor(Math.random() * 5_000_000);
let numberSeq = 0;
/** Distinct, possible US numbers, never handed out twice in this process. */
export function freshNumbers(n: number): string[] {
  return Array.from(
    { length: n },
    () => `+1415${String(numberBase + numberSeq++).padStart(7, '0')}`,
  );
}

export async function buildDeps(
  store: Store,
  clock: Clock,
  limiter: RateLimiter = new MemoryRateLimiter(),
) {
  const keyring = new Keyring();
  const sync = await startKeyringSync(store, keyring, 60_000, pino({ level: 'silent' }));
  sync.stop();
  const deps: AppDeps = {
    ...wireStore(store, clock),
    keyring,
    limiter,
    clock,
    logger: pino({ level: process.env.TEST_LOG ?? 'silent' }),
  };
  return { deps, sync };
}

export async function openHarness(options: HarnessOptions = {}): Promise<Harness> {
  const store =
    options.store ?? (await (options.privateDatabase ? openTestStore() : openWorkerStore()));
  const clock = new TestClock();
  const { deps } = await buildDeps(store, clock, options.limiter);
  deps.twilio = options.twilio;
  if (options.logger) deps.logger = options.logger;
  const app = await buildApp(deps, options.http);
  const admin = await buildAdminApp(deps, ADMIN_TOKEN, ADMIN_TOKEN, options.http);
  checkConformance(app, 'public');
  checkConformance(admin, 'admin');
  await app.ready();
  await admin.ready();
  let url = '';
  if (options.listen) {
    const server = options.listen === 'app' ? app : admin;
    await server.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  }
  return {
    app,
    admin,
    deps,
    store,
    clock,
    url,
    async close() {
      await app.close();
      await admin.close();
      await deps.limiter.close();
      if (!options.store) await store.close();
    },
  };
}

/** A harness for the enclosing describe block (or the whole file): opened before its tests, closed after them. */
export function useHarness(options: HarnessOptions = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await openHarness(options));
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

/** Another harness for the length of `fn` (a second process, a differently configured server). */
export async function withHarness<T>(
  options: HarnessOptions,
  fn: (h: Harness) => Promise<T>,
): Promise<T> {
  const h = await openHarness(options);
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
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
