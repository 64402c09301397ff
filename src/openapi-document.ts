/**
 * The public API's OpenAPI document as GET /openapi.json serves it. The app
 * is built and asked through `inject`, but no listener opens and no request
 * reaches the store: an in-memory one is enough.
 */
import pino from 'pino';
import { buildApp } from './app.js';
import { systemClock } from './deps.js';
import { Keyring } from './domain/auth/keyring.js';
import { MemoryRateLimiter } from './domain/rate-limit/limiter.js';
import { openStore } from './store/db.js';
import { wireStore } from './wiring.js';

/** The document, pretty-printed with a final newline. */
export async function openapiDocument(): Promise<string> {
  const store = await openStore({});
  const app = await buildApp({
    ...wireStore(store, systemClock),
    keyring: new Keyring(),
    limiter: new MemoryRateLimiter(),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  try {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
    return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
  } finally {
    await app.close();
    await store.close();
  }
}
