import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../../src/http/error-handler.js';
import { logOptions } from '../../../src/logger.js';
import { translateStoreFailure } from '../../../src/store/errors.js';

const phone = '+14155550123';
const visitor = 'visitor-secret-42';

describe('a store failure in the log', () => {
  it('carries its SQLSTATE, the statement name and the request id; never the parameters', async () => {
    const lines: string[] = [];
    const logger = pino(logOptions('info'), { write: (l: string) => void lines.push(l) });
    const app = Fastify({ loggerInstance: logger }) as unknown as FastifyInstance;
    installErrorHandling(app, { routes: [] }, translateStoreFailure);
    app.post('/fail', async () => {
      // A deadlock that outlived its retries, as Drizzle wraps it: message and params list the values.
      const cause = Object.assign(new Error('deadlock detected'), {
        code: '40P01',
        severity: 'ERROR',
        routine: 'DeadLockReport',
        detail: `Process 1 waits for ShareLock; key (${phone})`,
      });
      throw Object.assign(
        new Error(`Failed query: select dni_open_session($1, $2)\nparams: ${visitor},${phone}`),
        {
          name: 'DrizzleQueryError',
          query: 'select dni_open_session($1, $2)',
          params: [visitor, phone],
          cause,
        },
      );
    });
    const res = await app.inject({
      method: 'POST',
      url: '/fail',
      payload: { visitor_id: visitor },
    });
    expect(res.statusCode).toBe(503);
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'store failure');
    expect(line).toMatchObject({
      code: '40P01',
      statement: 'select dni_open_session',
      reqId: res.headers['x-request-id'] ?? expect.any(String),
    });
    const all = lines.join('\n');
    expect(all).not.toContain(phone);
    expect(all).not.toContain(visitor);
    await app.close();
  });
});
