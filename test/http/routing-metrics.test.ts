/**
 * What routing tells the operator on /metrics (docs/routing.md, "Where routing shows"): offers
 * made and calls sent to the fallback by reason, each counted once by the request that decided
 * it, never again when Twilio retries a webhook. On both stores.
 */
import { describe, expect, it } from 'vitest';
import { adminCall, createTenant, useHarness } from '../helpers/harness.js';
import { createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { dialEnded, NY_CALLER, ring, stepOf, voiceParams } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });

/** The counters now: offers, and fallbacks by reason. */
async function counted() {
  const offers = (await h.deps.metrics.routingOffers.get()).values.reduce((n, v) => n + v.value, 0);
  const fallbacks: Record<string, number> = {};
  for (const v of (await h.deps.metrics.routingFallbacks.get()).values) {
    fallbacks[String(v.labels.reason)] = v.value;
  }
  return { offers, fallbacks };
}

/** What changed since `before`. */
async function since(before: Awaited<ReturnType<typeof counted>>) {
  const now = await counted();
  const fallbacks: Record<string, number> = {};
  for (const [reason, n] of Object.entries(now.fallbacks)) {
    const d = n - (before.fallbacks[reason] ?? 0);
    if (d !== 0) fallbacks[reason] = d;
  }
  return { offers: now.offers - before.offers, fallbacks };
}

/** The same voice webhook again, as Twilio retries it. */
async function ringAgain(to: string, callSid: string) {
  const res = await twilioPost(h, '/carrier/twilio/voice', voiceParams(to, NY_CALLER, callSid));
  expect(res.statusCode).toBe(200);
  return stepOf(res.body);
}

describe('routing on /metrics', () => {
  it('counts each offer and each fallback once, by reason, and no retried webhook', async () => {
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      forward_to: '+13125550199',
    });
    const a = await createBuyer(h, t.orgId, { forward_to: '+13125550301' });
    const b = await createBuyer(h, t.orgId, { forward_to: '+13125550302' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: a.buyer_id, priority: 1 },
        { buyer_id: b.buyer_id, priority: 2 },
      ],
      fallback: 'forward_to',
    });
    const to = t.numbers[0]!;

    const before = await counted();
    const call = await ring(h, to);
    expect(call.step).toMatchObject({ kind: 'dial', number: '+13125550301' });
    // Twilio retries the webhook: the live offer rings again, no new offer.
    expect(await ringAgain(to, call.callSid)).toEqual(call.step);
    expect(await since(before)).toEqual({ offers: 1, fallbacks: {} });

    const next = await dialEnded(h, call, call.step, 'busy');
    expect(next).toMatchObject({ kind: 'dial', number: '+13125550302' });
    expect(await since(before)).toEqual({ offers: 2, fallbacks: {} });

    // Nobody left to try: the fallback, because every eligible buyer was tried.
    const last = await dialEnded(h, call, next, 'no-answer');
    expect(last).toMatchObject({ kind: 'dial', number: '+13125550199' });
    expect(await since(before)).toEqual({ offers: 2, fallbacks: { no_more_targets: 1 } });

    // Every buyer paused: the next call goes to the fallback at once; its retry is not counted.
    for (const id of [a.buyer_id, b.buyer_id]) {
      await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${id}`, { status: 'paused' });
    }
    const second = await ring(h, to, '+12125550143');
    expect(second.step).toMatchObject({ kind: 'dial', number: '+13125550199', path: null });
    expect(await ringAgain(to, second.callSid)).toEqual(second.step);
    expect(await since(before)).toEqual({
      offers: 2,
      fallbacks: { no_more_targets: 1, no_target: 1 },
    });

    // What the operator scrapes.
    const text = await h.deps.metrics.registry.metrics();
    expect(text).toMatch(/^routing_offers_total \d+$/m);
    expect(text).toMatch(/^routing_fallbacks_total\{reason="no_target"\} \d+$/m);
  });
});
