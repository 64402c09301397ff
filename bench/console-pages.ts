/**
 * The console's pages over the reports bench's seeded organization (issue 21: with 10 M
 * sessions on PostgreSQL, every page's data arrives within 1 s, p95). The console is built
 * over the bench's store as `npm start` builds it (wireStore, buildConsoleApp, the production
 * console settings), an operator made as `tracking-admin user create` makes one signs in
 * through the login form, and every page showing the organization's data is asked over HTTP
 * (inject) for the last 30 local days of the seeded range, with the report bench's `time()`.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { DEFAULT_CONSOLE_SETTINGS } from '../src/config.js';
import { buildConsoleApp } from '../src/console/app.js';
import type { ConsoleDeps } from '../src/console/context.js';
import { addDays, dayOf } from '../src/console/time.js';
import type { Clock } from '../src/deps.js';
import { Keyring } from '../src/domain/auth/keyring.js';
import { createUser } from '../src/domain/console/accounts.js';
import { MemoryRateLimiter } from '../src/domain/rate-limit/limiter.js';
import type { Store } from '../src/store/db.js';
import { wireStore } from '../src/wiring.js';

export interface PageTiming {
  label: string;
  p50: number;
  p95: number;
}

/** Warms once, then times `runs` calls and prints p50 and p95 (bench/reports.ts). */
export type Timer = (label: string, f: () => Promise<unknown>) => Promise<PageTiming>;

/** The campaigns of the seeded traffic (bench/reports-seed.ts; bd is the DNI phases'). */
const CAMPAIGNS = ['b0', 'b1', 'b2', 'b3', 'b4'];
const PASSWORD = 'a long bench passphrase';
const FORM = 'application/x-www-form-urlencoded';

const cookiesOf = (res: LightMyRequestResponse) =>
  [res.headers['set-cookie'] ?? []].flat().map((line) => String(line).split(';')[0]!);
const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

/** The login form as a browser fills it in: its own CSRF cookie, then the session cookie. */
async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const form = await app.inject({ method: 'GET', url: '/login' });
  const res = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: cookiesOf(form).join('; '), 'content-type': FORM },
    payload: new URLSearchParams({
      _csrf: csrfOf(form.body),
      email,
      password: PASSWORD,
    }).toString(),
  });
  const session = cookiesOf(res).find((c) => c.includes('console_session='));
  if (res.statusCode !== 303 || !session) throw new Error(`console login: ${res.statusCode}`);
  return session;
}

/**
 * Times each console page of `orgId` (and the Overview's CSV downloads) for the last 30 local
 * days before `end`, the console's clock standing at `end` (the pool page looks back from now).
 */
export async function benchConsolePages(
  store: Store,
  orgId: string,
  end: number,
  time: Timer,
): Promise<PageTiming[]> {
  const started = Date.now();
  const clock: Clock = { now: () => end + (Date.now() - started) };
  const deps: ConsoleDeps = {
    ...wireStore(store, clock),
    keyring: new Keyring(),
    limiter: new MemoryRateLimiter(),
    clock,
    logger: pino({ level: 'silent' }),
    console: DEFAULT_CONSOLE_SETTINGS,
  };
  const app = await buildConsoleApp(deps);
  try {
    const email = `bench.${started.toString(36)}@example.test`;
    const user = { email, password: PASSWORD, role: 'operator' as const };
    await createUser(deps.repos, user, 'bench', new Date(clock.now()));
    const cookie = await signIn(app, email);
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`console ${url}: ${res.statusCode}`);
      return res.body;
    };

    const zone = (await deps.queries.reports.orgTimeZone(orgId)) ?? 'UTC';
    const to = dayOf(new Date(end - 1), zone);
    const range = `from=${addDays(to, -29)}&to=${to}`;
    const org = `/orgs/${encodeURIComponent(orgId)}`;
    const overview = `${org}/overview?${range}`;
    const calls = `${org}/calls?${range}`;
    // The call a reader would open: the newest of the range, as the list links it.
    const callId = /\/calls\/(call_\w+)/.exec(await get(calls))?.[1];
    if (!callId) throw new Error('console pages: no call in the range');
    const pages: [string, string][] = [
      ['overview', overview],
      ['overview CSV, per day', `${overview}&format=csv&table=days`],
      ['overview CSV, sources', `${overview}&format=csv&table=sources`],
      ['overview CSV, campaigns', `${overview}&format=csv&table=campaigns`],
      ['calls, first page', calls],
      ['call detail', `${org}/calls/${callId}?${range}`],
      ['campaigns and pools', `${org}/campaigns`],
      ...CAMPAIGNS.map((c): [string, string] => [
        `campaign ${c}`,
        `${org}/campaigns/${c}?${range}`,
      ]),
      ['compliance', `${org}/compliance?${range}`],
      ['webhooks and exports', `${org}/webhooks?${range}`],
      ['people', `${org}/people`],
    ];
    const results: PageTiming[] = [];
    for (const [label, url] of pages) results.push(await time(`console: ${label}`, () => get(url)));
    const slowest = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(
      `  console pages: slowest p95 ${slowest.p95.toFixed(1)} ms (${slowest.label}); every page within 1 s (p95): ${slowest.p95 <= 1000 ? 'yes' : 'no'}`,
    );

    const out = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'content-type': FORM },
      payload: new URLSearchParams({ _csrf: csrfOf(await get(`${org}/people`)) }).toString(),
    });
    if (out.statusCode !== 303) throw new Error(`console logout: ${out.statusCode}`);
    return results;
  } finally {
    await app.close();
    await deps.limiter.close();
  }
}
