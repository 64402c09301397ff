import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type ConsoleSettings, DEFAULT_CONSOLE_SETTINGS } from '../../src/config.js';
import { buildConsoleApp } from '../../src/console/app.js';
import { createUser } from '../../src/domain/console/accounts.js';
import type { LinkRole } from '../../src/domain/console/ports.js';
import type { Harness } from './harness.js';

export const PASSWORD = 'correct horse battery staple';

export interface ConsoleHarness {
  app: FastifyInstance;
  /** Base URL when listening ('' otherwise). */
  url: string;
  settings: ConsoleSettings;
}

/** The console over the harness's store and clock; plain HTTP cookies unless told otherwise. */
export function useConsole(
  h: Harness,
  o: { listen?: boolean; settings?: Partial<ConsoleSettings> } = {},
): ConsoleHarness {
  const c = {} as ConsoleHarness;
  beforeAll(async () => {
    c.settings = { ...DEFAULT_CONSOLE_SETTINGS, secureCookies: false, ...o.settings };
    c.app = await buildConsoleApp({ ...h.deps, console: c.settings });
    await c.app.ready();
    c.url = '';
    if (o.listen) {
      await c.app.listen({ port: 0, host: '127.0.0.1' });
      c.url = `http://127.0.0.1:${(c.app.server.address() as AddressInfo).port}`;
      c.settings.publicUrl = c.url;
    }
  });
  afterAll(async () => {
    await c.app?.close();
  });
  return c;
}

let userSeq = 0;
export const freshEmail = (what = 'user') =>
  `${what}.${process.pid}.${Date.now().toString(36)}.${userSeq++}@example.test`;

export async function makeUser(
  h: Harness,
  role: LinkRole,
  orgId: string | null = null,
  email = freshEmail(role),
) {
  const user = await createUser(
    h.deps.repos,
    { email, password: PASSWORD, role, orgId },
    'test',
    new Date(h.clock.now()),
  );
  return { ...user, email };
}

/** Cookies from Set-Cookie, merged into a jar. */
export function cookiesOf(res: LightMyRequestResponse, jar: Record<string, string> = {}) {
  const raw = res.headers['set-cookie'];
  for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const [pair] = line.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const value = decodeURIComponent(pair!.slice(i + 1));
    if (/Max-Age=0/i.test(line)) delete jar[name];
    else jar[name] = value;
  }
  return jar;
}

export const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('; ');

/** The `_csrf` value of the first form of a page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

/** A signed-in client over `inject`: its cookie jar and the session's CSRF token. */
export interface Client {
  jar: Record<string, string>;
  csrf: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(
    url: string,
    form: Record<string, string>,
    withCsrf?: boolean,
  ): Promise<LightMyRequestResponse>;
}

export function client(app: FastifyInstance, jar: Record<string, string> = {}): Client {
  const c: Client = {
    jar,
    csrf: '',
    async get(url) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { cookie: cookieHeader(c.jar) },
      });
      cookiesOf(res, c.jar);
      return res;
    },
    async post(url, form, withCsrf = true) {
      const body = new URLSearchParams({ ...(withCsrf ? { _csrf: c.csrf } : {}), ...form });
      const res = await app.inject({
        method: 'POST',
        url,
        headers: {
          cookie: cookieHeader(c.jar),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: body.toString(),
      });
      cookiesOf(res, c.jar);
      return res;
    },
  };
  return c;
}

/** Signs in through the login form; the client then holds the session and its CSRF token. */
export async function signIn(app: FastifyInstance, email: string, password = PASSWORD) {
  const c = client(app);
  const form = await c.get('/login');
  c.csrf = csrfOf(form.body);
  const res = await c.post('/login', { email, password });
  if (res.statusCode !== 303) throw new Error(`login failed: ${res.statusCode}`);
  const home = await c.get('/account');
  c.csrf = csrfOf(home.body);
  return c;
}
