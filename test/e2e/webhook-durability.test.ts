import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { post, type ServerProcess, startServer } from '../helpers/server-process.js';
import { scratchDatabase, storeKind } from '../helpers/store.js';
import { Receiver } from '../helpers/webhooks.js';

/**
 * Contract §7: an event committed with its cause is delivered at least once, even when the
 * server dies between the commit and the delivery. The receiver holds the first request open,
 * the server is SIGKILLed, and the restarted server sends the same event (same webhook-id).
 */
const ADMIN_TOKEN = 'adm_webhook_durability_token';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function storeEnv(): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-durability-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  if (storeKind === 'pglite') return { DATA_DIR: dir };
  const db = await scratchDatabase('tracking_whkill');
  cleanups.push(() => db.drop());
  return { DATA_DIR: dir, DATABASE_URL: db.url };
}

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SIGKILL between commit and delivery', () => {
  it('delivers the event after restart, with the same webhook-id', async () => {
    let up = false;
    const receiver = await new Receiver(() => (up ? 200 : 'hang')).start();
    cleanups.push(() => receiver.close());
    const env = {
      ...(await storeEnv()),
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_TIMEOUT_MS: '1000',
      WORKER_POLL_MS: '50',
    };
    let server: ServerProcess = await startServer(env);
    cleanups.push(() => server.kill('SIGKILL'));

    const org = await post(`${server.adminUrl}/admin/orgs`, { name: 'Kill' }, admin);
    const orgId = org.body.org_id;
    const number = `+1415${String(5_000_000 + Math.floor(Math.random() * 999_999))}`;
    await post(
      `${server.adminUrl}/admin/orgs/${orgId}/campaigns`,
      { code: 'w1', name: 'W', numbers: [number] },
      admin,
    );
    const hook = await post(
      `${server.adminUrl}/admin/orgs/${orgId}/webhooks`,
      { url: receiver.url, events: ['call.received'] },
      admin,
    );
    expect(hook.status).toBe(201);
    const call = await post(
      `${server.adminUrl}/admin/orgs/${orgId}/calls`,
      { to: number, from: '+12125550100' },
      admin,
    );
    expect(call.status).toBe(201);

    // The worker has the event in flight and no answer will come: kill the server now.
    await until('the first attempt', () => receiver.received.length >= 1);
    await server.kill('SIGKILL');
    expect(server.child.signalCode).toBe('SIGKILL');
    const firstId = receiver.received[0]!.headers['webhook-id'];

    up = true;
    server = await startServer(env);
    await until('the delivery after restart', () => receiver.received.length >= 2, 60_000);
    const last = receiver.received[receiver.received.length - 1]!;
    expect(last.headers['webhook-id']).toBe(firstId);
    const event = new Webhook(hook.body.secret).verify(
      last.body,
      last.headers as Record<string, string>,
    ) as { type: string; data: { call_id: string } };
    expect(event.type).toBe('call.received');
    expect(event.data.call_id).toBe(call.body.call_id);
    await server.kill('SIGTERM');
    expect(server.child.exitCode).toBe(0);
  }, 120_000);
});
