import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, createTenant, useHarness } from '../helpers/harness.js';
import {
  allowPrivateTargets,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

const h = useHarness({
  privateDatabase: "the webhook worker delivers every organization's pending events",
});
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

describe('a hanging receiver', () => {
  it("does not delay another endpoint's deliveries", async () => {
    allowPrivateTargets(h);
    const t = await createTenant(h);
    const hanging = await new Receiver(() => 'hang').start();
    const healthy = await new Receiver(() => 200).start();
    receivers.push(hanging, healthy);
    // The hanging endpoint is registered first, so its deliveries are the oldest in the outbox.
    await createWebhook(h, t.orgId, hanging.url);
    await createWebhook(h, t.orgId, healthy.url);
    const EVENTS = 6;
    for (let i = 0; i < EVENTS; i++) {
      await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
        to: t.numbers[0],
        from: `+1212555${String(1000 + i)}`,
      });
    }
    const TIMEOUT_MS = 6_000;
    const { worker, sender } = webhookWorker(
      h,
      { concurrency: 4, perEndpoint: 2, pollMs: 20 },
      { timeoutMs: TIMEOUT_MS },
    );
    const t0 = Date.now();
    worker.start();
    try {
      const allHealthy = await until(() => healthy.received.length >= EVENTS, TIMEOUT_MS);
      const elapsed = Date.now() - t0;
      expect(allHealthy).toBe(true);
      // Every healthy delivery went out while the hanging receiver held its two slots.
      expect(elapsed).toBeLessThan(TIMEOUT_MS / 2);
      expect(hanging.received).toHaveLength(2);
      console.info(
        `healthy endpoint: ${EVENTS} deliveries in ${elapsed} ms while the other hung (timeout ${TIMEOUT_MS} ms)`,
      );
    } finally {
      await worker.stop();
      sender.close();
    }
    // The hung attempts ended at the timeout and were recorded as failures to retry.
    const hook = (await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks`)).items.find(
      (w: { url: string }) => w.url === hanging.url,
    );
    const attempts = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/webhooks/${hook.webhook_id}/attempts`,
    );
    expect(attempts.attempts).toHaveLength(2);
    expect(attempts.attempts[0].error).toBe(`no answer within ${TIMEOUT_MS} ms`);
  });
});
