import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openHarness } from '../helpers/harness.js';

// Swagger UI's "Try it out" sends requests to the document's first server, resolved against
// the URL the document was loaded from (issue 18: it went to http://localhost:3000 whatever the
// host and port). Both listeners, on real sockets, asked with a Host that is neither.
let h: Harness;
const ports: Record<'app' | 'admin', number> = { app: 0, admin: 0 };

beforeAll(async () => {
  h = await openHarness();
  for (const which of ['app', 'admin'] as const) {
    await h[which].listen({ port: 0, host: '127.0.0.1' });
    ports[which] = (h[which].server.address() as AddressInfo).port;
  }
});
afterAll(() => h.close());

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('servers follow the host the document was loaded from', () => {
  it.each([
    ['app', '/openapi.json', '/dni/session'],
    ['admin', '/admin/openapi.json', '/admin/orgs'],
  ] as const)('%s: %s', async (which, docPath, opPath) => {
    const host = `calls.example.test:${ports[which] + 1000}`;
    const res = await get(ports[which], docPath, host);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.body);
    const docUrl = `http://${host}${docPath}`;
    const base = new URL(doc.servers[0].url, docUrl);
    // Where "Try it out" sends the operation: the page's own origin, not localhost:3000.
    expect(new URL(opPath.slice(1), base).href).toBe(`http://${host}${opPath}`);
    expect(doc.servers[0].variables).toBeUndefined();
  });
});
