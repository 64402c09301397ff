import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  orgWithCampaign,
  post,
  type ServerProcess,
  until,
  useRestartableServer,
} from '../helpers/server-process.js';
import { Receiver } from '../helpers/webhooks.js';

/**
 * Contract §7: an event committed with its cause is delivered at least once, even when the
 * server dies between the commit and the delivery. The receiver holds the first request open,
 * the server is SIGKILLed, and the restarted server sends the same event (same webhook-id).
 */
const servers = useRestartableServer('webhook-durability');
const { admin, cleanup } = servers;

describe('SIGKILL between commit and delivery', () => {
  it('delivers the event after restart, with the same webhook-id', async () => {
    let up = false;
    const receiver = await new Receiver(() => (up ? 200 : 'hang')).start();
    cleanup(() => receiver.close());
    const env = await servers.env({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_TIMEOUT_MS: '1000',
      WORKER_POLL_MS: '50',
    });
    let server: ServerProcess = await servers.start(env);

    const { orgId, number } = await orgWithCampaign(server, admin, { name: 'Kill' }, 'w1');
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
    server = await servers.start(env);
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
