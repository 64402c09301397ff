/**
 * The OpenAPI documents as GET /openapi.json (public) and GET /admin/openapi.json
 * (admin) serve them. The apps are built and asked through `inject`, but no
 * listener opens and no request reaches the store: an in-memory one is enough.
 */
import pino from 'pino';
import { buildAdminApp, buildApp } from './app.js';
import { systemClock } from './deps.js';
import { Keyring } from './domain/auth/keyring.js';
import { MemoryRateLimiter } from './domain/rate-limit/limiter.js';
import { openStore } from './store/db.js';
import { wireStore } from './wiring.js';

// Any token: the document route needs one, and nothing else is asked.
const DUMP_TOKEN = 'openapi-dump';

/** The document, pretty-printed with a final newline. */
export async function openapiDocument(which: 'public' | 'admin' = 'public'): Promise<string> {
  const store = await openStore({});
  const deps = {
    ...wireStore(store, systemClock),
    keyring: new Keyring(),
    limiter: new MemoryRateLimiter(),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  };
  const app = which === 'public' ? await buildApp(deps) : await buildAdminApp(deps, DUMP_TOKEN);
  const url = which === 'public' ? '/openapi.json' : '/admin/openapi.json';
  try {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${DUMP_TOKEN}` },
    });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
  } finally {
    await app.close();
    await store.close();
  }
}
