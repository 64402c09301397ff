import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, type ServerProcess, startServer } from '../helpers/server-process.js';
import { migratedDatabase, storeKind } from '../helpers/store.js';

// Issue 11: the RateLimit headers of POST /dni/session stay consistent when the
// budget is counted by two real server processes on one PostgreSQL database and
// one Redis. (test/http/rate-limit-headers.test.ts has two apps in one process.)
// The limiter keys are rl:dni:<org id>:<window start> (src/domain/rate-limit),
// and every org here is new, so nothing in Redis is shared with other runs and
// nothing is flushed.

const ADMIN_TOKEN = 'adm_rate_limit_two_processes';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const QUOTA = 5;

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const missing = !databaseUrl || !redisUrl;
const onPglite = storeKind === 'pglite';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Tenant {
  code: string;
  auth: Record<string, string>;
}

async function createTenant(adminUrl: string, code: string, limit: number): Promise<Tenant> {
  const must = async (path: string, body: unknown) => {
    const res = await post(`${adminUrl}${path}`, body, admin);
    if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const org = await must('/admin/orgs', {
    name: `RL ${code}`,
    tracking_enabled: true,
    dni_rate_limit_per_minute: limit,
  });
  const key = await must(`/admin/orgs/${org.org_id}/keys`, { scopes: ['enroll'] });
  const base = 2_000_000 + Math.floor(Math.random() * 5_000_000);
  const numbers = Array.from({ length: 20 }, (_, i) => `+1415${base + i}`);
  await must(`/admin/orgs/${org.org_id}/campaigns`, { code, name: code, numbers });
  return { code, auth: { authorization: `Bearer ${key.api_key}` } };
}

interface Answer {
  via: 'A' | 'B';
  status: number;
  policy: string | null;
  r: number;
  t: number;
  retryAfter: string | null;
}

async function session(server: ServerProcess, via: 'A' | 'B', t: Tenant, visitor: string) {
  const res = await fetch(`${server.apiUrl}/dni/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...t.auth },
    body: JSON.stringify({ campaign_code: t.code, visitor_id: visitor }),
  });
  await res.arrayBuffer();
  const header = res.headers.get('ratelimit') ?? '';
  const m = /^"default";r=(\d+);t=(\d+)$/.exec(header);
  if (!m) throw new Error(`${via}: ${res.status} with RateLimit ${JSON.stringify(header)}`);
  return {
    via,
    status: res.status,
    policy: res.headers.get('ratelimit-policy'),
    r: Number(m[1]),
    t: Number(m[2]),
    retryAfter: res.headers.get('retry-after'),
  } satisfies Answer;
}

describe.skipIf(missing || onPglite)(
  missing
    ? 'RateLimit headers across two server processes [skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL]'
    : onPglite
      ? 'RateLimit headers across two server processes [skipped: PostgreSQL project only; two processes cannot share PGlite]'
      : 'RateLimit headers across two server processes sharing PostgreSQL and Redis',
  () => {
    it('counts one budget from both, 429 with Retry-After = t, same RateLimit-Policy', async () => {
      const db = await migratedDatabase('tracking_rl2');
      cleanups.push(() => db.drop());
      const env = (name: string) => {
        const dir = mkdtempSync(join(tmpdir(), `rl2-${name}-`));
        cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
        return {
          DATABASE_URL: db.url,
          DATA_DIR: dir,
          ADMIN_TOKEN,
          REDIS_URL: redisUrl!,
          // Counting falls back to the process when Redis is slower than this
          // (50 ms by default): generous, so a loaded machine cannot split the count.
          REDIS_TIMEOUT_MS: '2000',
        };
      };
      const a = await startServer(env('a'));
      cleanups.push(() => a.kill('SIGKILL'));
      // Tenants exist before B starts, so B's keyring holds them from its start.
      const probe = await createTenant(a.adminUrl, 'prb', 1_000_000);
      const tenants = [
        await createTenant(a.adminUrl, 'rl1', QUOTA),
        await createTenant(a.adminUrl, 'rl2', QUOTA),
      ];
      const b = await startServer(env('b'));
      cleanups.push(() => b.kill('SIGKILL'));

      // Windows are aligned to the wall clock for every org: a probe on another org
      // tells how long the current one has left. With under 10 s, start in the next.
      const left = (await session(b, 'B', probe, 'probe-1')).t;
      if (left < 10) await new Promise((r) => setTimeout(r, left * 1000 + 200));

      // A, B, A, B, … : QUOTA answers within the budget, then one 429 from each process.
      const run = async (t: Tenant) => {
        const seen: Answer[] = [];
        for (let i = 0; i < QUOTA + 2; i++) {
          const [server, via] = i % 2 === 0 ? ([a, 'A'] as const) : ([b, 'B'] as const);
          seen.push(await session(server, via, t, `v${i}`));
        }
        return seen;
      };
      // t only goes down within a window; a rise means the sequence crossed into the
      // next window (and its counts restarted): run once more, on a fresh budget.
      const crossed = (seen: Answer[]) => seen.some((s, i) => i > 0 && s.t > seen[i - 1]!.t);
      let seen = await run(tenants[0]!);
      if (crossed(seen)) seen = await run(tenants[1]!);
      expect(crossed(seen), JSON.stringify(seen)).toBe(false);

      const detail = `answers: ${JSON.stringify(seen)}\nA:\n${a.output()}\nB:\n${b.output()}`;
      expect(
        seen.map((s) => [s.via, s.status, s.r]),
        detail,
      ).toEqual([
        ['A', 201, 4],
        ['B', 201, 3],
        ['A', 201, 2],
        ['B', 201, 1],
        ['A', 201, 0],
        ['B', 429, 0],
        ['A', 429, 0],
      ]);
      // One policy, whichever process answers.
      expect(new Set(seen.map((s) => s.policy)), detail).toEqual(
        new Set([`"default";q=${QUOTA};w=60`]),
      );
      for (const s of seen) {
        expect(s.retryAfter, detail).toBe(s.status === 429 ? String(s.t) : null);
        expect(s.t, detail).toBeGreaterThanOrEqual(1);
        expect(s.t, detail).toBeLessThanOrEqual(60);
      }

      await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
      expect([a.child.exitCode, b.child.exitCode]).toEqual([0, 0]);
    }, 240_000);
  },
);
