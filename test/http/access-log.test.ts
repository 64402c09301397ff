import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../helpers/harness.js';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
    done();
  },
});
const h = useHarness({ logger: pino({ level: 'info' }, sink) });

describe('access log', () => {
  it('writes one line per request with method, url, status, time and request id', async () => {
    lines.length = 0;
    const res = await h.app.inject({
      method: 'POST',
      url: '/dni/session',
      headers: { authorization: 'Bearer svc_live_nope', 'x-request-id': 'req-log-1' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    const mine = lines.filter((l) => l.reqId === 'req-log-1');
    expect(mine.map((l) => l.msg)).toEqual(['request completed']);
    const [line] = mine as [{ req: object; res: object; responseTime: unknown }];
    expect(line.req).toMatchObject({ method: 'POST', url: '/dni/session' });
    expect(line.res).toEqual({ statusCode: 401 });
    expect(typeof line.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toContain('svc_live_nope');
  });
});
