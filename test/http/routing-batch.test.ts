/**
 * Voice webhooks that arrive together go in one transaction (src/domain/carrier-inbound/
 * ringing.ts, docs/routing.md "What a call costs"): each call of a batch is answered and stored
 * as it would be alone. The batch is handed to the domain directly, so its content is exactly
 * what the test says, on both stores; the webhook's own batching is shown through HTTP below.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptInboundCalls,
  type InboundAnswer,
  type RingingRequest,
} from '../../src/domain/carrier-inbound/inbound.js';
import { createTenant, dni, freshNumbers, json, useHarness } from '../helpers/harness.js';
import { auditRows } from '../helpers/reports.js';
import { createBuyer, seeded, setRouting } from '../helpers/routing.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { stepOf, voiceParams } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });

const request = (to: string, from: string, callSid = newSid('CA')): RingingRequest => ({
  ctx: {
    carrier: 'twilio',
    requestId: `req_${callSid}`,
    now: new Date(h.clock.now()),
    random: seeded(7),
  },
  call: { callSid, to, from, status: 'ringing' },
});

const rows = (sql: string, params: unknown[]) =>
  h.store.query<Record<string, unknown>>(sql, params);

const dialTo = (a: InboundAnswer | undefined) =>
  a?.kind === 'routed' && a.answer.kind === 'dial' ? a.answer.forwardTo : a?.kind;

describe('a batch of voice webhooks', () => {
  it('answers each call as alone: caps counted in order, a retry, an unknown number, no plan', async () => {
    const routed = await createTenant(h, { numbers: 1 });
    const plain = await createTenant(h, { numbers: 1 });
    const capped = await createBuyer(h, routed.orgId, {
      forward_to: '+13125550301',
      caps: { total: 2 },
    });
    const next = await createBuyer(h, routed.orgId, { forward_to: '+13125550302' });
    await setRouting(h, routed.orgId, routed.code, {
      targets: [
        { buyer_id: capped.buyer_id, priority: 1 },
        { buyer_id: next.buyer_id, priority: 2 },
      ],
    });
    const first = request(routed.numbers[0]!, '+12125550401');
    const batch = [
      first,
      request(routed.numbers[0]!, '+12125550402'),
      // The same CallSid again: Twilio retried the webhook while the first was in the batch.
      { ...first, ctx: { ...first.ctx, requestId: 'req_retry' } },
      request(routed.numbers[0]!, '+12125550403'),
      request(freshNumbers(1)[0]!, '+12125550404'),
      request(plain.numbers[0]!, '+12125550405'),
    ];
    const answers = await acceptInboundCalls(h.deps.repos, batch);

    // The capped buyer's two places go to the first two calls; the third rings the next.
    expect(answers.map(dialTo)).toEqual([
      '+13125550301',
      '+13125550301',
      '+13125550301',
      '+13125550302',
      'unknown_number',
      'no_forward',
    ]);
    // The retry is the first call's answer: the same call and the same offer, rung again (the
    // first made the offer, the retry only rings it: routing_offers_total counts it once).
    const again = (a: (typeof answers)[number]) =>
      a.kind === 'routed' && a.answer.kind === 'dial'
        ? { ...a, answer: { ...a.answer, fresh: undefined } }
        : a;
    expect(again(answers[2]!)).toEqual(again(answers[0]!));
    expect(answers[0]).toMatchObject({ answer: { fresh: true } });
    expect(answers[2]).toMatchObject({ answer: { fresh: false } });
    const calls = await rows(
      `select c.carrier_call_sid, c.from_number, o.buyer_id, o.seq
         from calls c left join call_offers o on o.call_id = c.id
        where c.org_id = $1 order by c.from_number`,
      [routed.orgId],
    );
    expect(calls).toEqual([
      {
        carrier_call_sid: first.call.callSid,
        from_number: '+12125550401',
        buyer_id: capped.buyer_id,
        seq: 1,
      },
      {
        carrier_call_sid: batch[1]!.call.callSid,
        from_number: '+12125550402',
        buyer_id: capped.buyer_id,
        seq: 1,
      },
      {
        carrier_call_sid: batch[3]!.call.callSid,
        from_number: '+12125550403',
        buyer_id: next.buyer_id,
        seq: 1,
      },
    ]);
    const [usage] = await rows(
      'select total_count, live_count from buyer_usage where buyer_id = $1',
      [capped.buyer_id],
    );
    expect(usage).toEqual({ total_count: 2, live_count: 2 });
    // Each call's audit lines carry its own request.
    const audit = await auditRows(h, routed.orgId);
    expect(
      audit
        .filter((a) => a.action === 'call.recorded' || a.action === 'call.offered')
        .map((a) => `${a.action} ${a.request_id}`)
        .sort(),
    ).toEqual(
      [0, 1, 3]
        .flatMap((i) => [
          `call.offered ${batch[i]!.ctx.requestId}`,
          `call.recorded ${batch[i]!.ctx.requestId}`,
        ])
        .sort(),
    );
    expect(
      (await rows('select count(*)::int as n from calls where org_id = $1', [plain.orgId]))[0],
    ).toEqual({
      n: 1,
    });
  });

  it('sends a call none of its buyers takes to the fallback, with its reason and audit line', async () => {
    const t = await createTenant(h, { numbers: 1 });
    const full = await createBuyer(h, t.orgId, { forward_to: '+13125550311', caps: { total: 1 } });
    await setRouting(h, t.orgId, t.code, {
      targets: [{ buyer_id: full.buyer_id, priority: 1 }],
      fallback: 'hangup',
    });
    const batch = [request(t.numbers[0]!, '+12125550411'), request(t.numbers[0]!, '+12125550412')];
    const answers = await acceptInboundCalls(h.deps.repos, batch);
    expect(answers.map((a) => (a.kind === 'routed' ? a.answer.kind : a.kind))).toEqual([
      'dial',
      'fallback',
    ]);
    const [second] = await rows(
      'select id, fallback, fallback_reason from calls where carrier_call_sid = $1',
      [batch[1]!.call.callSid],
    );
    expect(second).toMatchObject({ fallback: 'hangup', fallback_reason: 'no_target' });
    const lines = (await auditRows(h, t.orgId)).filter((a) => a.subject_id === second!.id);
    expect(lines.map((a) => [a.action, a.detail])).toEqual([
      ['call.recorded', expect.objectContaining({ campaign_code: t.code })],
      ['call.fallback', { fallback: 'hangup', reason: 'no_target' }],
    ]);
  });

  it("takes a caller's earlier call in the same batch as their last attributed call", async () => {
    const t = await createTenant(h, { numbers: 2, ttl: 300 });
    const s = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v' }));
    const other = t.numbers.find((n) => n !== s.tracking_number)!;
    const caller = '+12125550421';
    // The session's number, then the other number (no session ever held it), one batch.
    const answers = await acceptInboundCalls(h.deps.repos, [
      request(s.tracking_number, caller),
      request(other, caller),
    ]);
    const attributed = await rows(
      'select dni_session_id, attribution from calls where id = any($1::text[]) order by tracking_number = $2 desc',
      [answers.map((a) => (a.kind === 'unknown_number' ? '' : a.callId)), s.tracking_number],
    );
    expect(attributed).toEqual([
      { dni_session_id: s.dni_session_id, attribution: 'session' },
      { dni_session_id: s.dni_session_id, attribution: 'repeat_caller' },
    ]);
  });
});

describe('the voice webhook batches what arrives together', () => {
  it('answers 40 signed webhooks sent at once, in fewer batches than calls, each call once', async () => {
    const t = await createTenant(h, { numbers: 1 });
    const buyer = await createBuyer(h, t.orgId, { forward_to: '+13125550331' });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: buyer.buyer_id, priority: 1 }] });
    const before = await batchCount();
    // One call first: the number's organization is learned, and the rest group by it.
    await twilioPost(h, '/carrier/twilio/voice', voiceParams(t.numbers[0]!, '+12125550430'));
    const params = Array.from({ length: 40 }, (_, i) =>
      voiceParams(t.numbers[0]!, `+121255505${String(i).padStart(2, '0')}`),
    );
    const answers = await Promise.all(params.map((p) => twilioPost(h, '/carrier/twilio/voice', p)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(stepOf(res.body)).toMatchObject({ kind: 'dial', number: '+13125550331' });
    }
    const [stored] = await rows(
      'select count(*)::int as calls, count(distinct carrier_call_sid)::int as sids from calls where org_id = $1',
      [t.orgId],
    );
    expect(stored).toEqual({ calls: 41, sids: 41 });
    const after = await batchCount();
    expect(after.calls - before.calls).toBe(41);
    expect(after.batches - before.batches).toBeLessThan(41);
  });
});

async function batchCount() {
  const metric = await h.deps.metrics.routingBatchSize.get();
  const value = (name: string) => metric.values.find((v) => v.metricName === name)?.value ?? 0;
  return { batches: value('routing_batch_size_count'), calls: value('routing_batch_size_sum') };
}
