import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import { PUBLIC_BASE, smsParams, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { CORPUS } from '../unit/carrier-inbound/reply-corpus.js';

// Replies arrive as in production, through the signed Twilio webhook; the outbound gate's answer
// afterwards is what counts.
const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

let callerSeq = 0;
const freshCallerId = () => `+1646557${String(1000 + callerSeq++).padStart(4, '0')}`;

async function tenant() {
  const callerId = freshCallerId();
  const t = await outboundTenant(h, {
    config: { caller_id: callerId, templates: { default: { text: 'Hello from us.' } } },
  });
  return { ...t, callerId };
}
type T = Awaited<ReturnType<typeof tenant>>;

const reply = async (t: T, contact: string, body: string) => {
  const res = await twilioPost(h, '/carrier/twilio/message', smsParams(contact, t.callerId, body));
  expect(res.statusCode).toBe(200);
};

const gate = async (t: T, contact: string, channel: 'sms' | 'call' = 'sms') =>
  json(
    await touch(h, t.key, t.code, {
      to_e164: contact,
      channel,
      consent_basis: 'pewc',
      dry_run: true,
    }),
  );

describe('the corpus through the signed webhook', () => {
  it('every revocation and doubtful reply blocks the contact; must-not replies leave it reachable', async () => {
    const t = await tenant();
    // Every fourth wording of each label, in order: a spread of every family and language.
    const sample = (['revoke', 'unclear', 'keep'] as const).flatMap((label) =>
      CORPUS.filter((c) => c.label === label).filter((_, i) => i % 4 === 0),
    );
    const wrong: string[] = [];
    for (const c of sample) {
      const contact = freshContact();
      await grant(h, t.orgId, contact);
      await reply(t, contact, c.text);
      const status = (await gate(t, contact)).status;
      const expected = c.label === 'keep' ? 'would_queue' : 'would_block';
      if (status !== expected) wrong.push(`${c.label}: ${c.text} -> ${status}`);
    }
    expect(sample.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('a wrong-number reply records the number as possibly reassigned', async () => {
    const t = await tenant();
    const contact = freshContact();
    await grant(h, t.orgId, contact);
    await reply(t, contact, 'Wrong #');
    const [e] = await h.store.query<{ evidence: Record<string, unknown> }>(
      `select evidence from consent_events where org_id = $1 and e164 = $2 and kind = 'opt_out'`,
      [t.orgId, contact],
    );
    expect(e?.evidence).toMatchObject({
      family: 'wrong_number',
      possibly_reassigned: true,
      body: 'Wrong #',
    });
  });
});

describe('Virginia', () => {
  it('a STOP then a new grant the next day stays blocked; ten years later the grant stands', async () => {
    const t = await tenant();
    const virginia = freshContact(703);
    const newYork = freshContact(212);
    for (const c of [virginia, newYork]) {
      await grant(h, t.orgId, c);
      await reply(t, c, 'STOP');
    }
    h.clock.advance(86_400);
    for (const c of [virginia, newYork]) await grant(h, t.orgId, c, { tier: 'pewc' });
    expect((await gate(t, virginia)).reasons[0].code).toBe('consent_revoked');
    expect((await gate(t, newYork)).status).toBe('would_queue');
    // 2036-03-04 is a Tuesday, 10:00 in Virginia.
    h.clock.set('2036-03-04T15:00:00Z');
    expect((await gate(t, virginia)).status).toBe('would_queue');
  });
});

describe('Canada', () => {
  it('a Toronto number at 19:30 on a Saturday is blocked until 10:00 Sunday local', async () => {
    const t = await tenant();
    const toronto = freshContact(416);
    await grant(h, t.orgId, toronto);
    // Saturday 2026-03-07, 19:30 in Toronto (EST, UTC-5).
    h.clock.set('2026-03-08T00:30:00Z');
    const d = await gate(t, toronto, 'call');
    expect(d.status).toBe('would_block');
    expect(d.reasons.map((r: { code: string }) => r.code)).toEqual(['quiet_hours']);
    // Sunday 2026-03-08 is the day DST starts: 10:00 EDT is 14:00 UTC.
    expect(d.next_allowed_at).toBe('2026-03-08T14:00:00.000Z');
  });

  it('the French carrier keyword ARRÊT revokes', async () => {
    const t = await tenant();
    const montreal = freshContact(514);
    await grant(h, t.orgId, montreal);
    expect((await gate(t, montreal)).status).toBe('would_queue');
    await reply(t, montreal, 'ARRÊT');
    expect((await gate(t, montreal)).reasons[0].code).toBe('consent_revoked');
  });

  it("Canada's National DNCL is a suppression source of its own, with its own 31 days", async () => {
    const t = await tenant();
    const calgary = freshContact(403);
    await grant(h, t.orgId, calgary, { tier: 'pec' });
    // Weekday 2026-03-02 10:00 in Calgary (UTC-7); informational would pass, so marketing at pec
    // is checked for the list only: fresh US registry, no Canadian copy on file.
    const codes = async () =>
      (
        await json(
          await touch(h, t.key, t.code, {
            to_e164: calgary,
            channel: 'call',
            consent_basis: 'pec',
            dry_run: true,
          }),
        )
      ).reasons.map((r: { code: string }) => r.code);
    h.clock.set('2026-03-02T17:00:00Z');
    expect(await codes()).toContain('dnc_list_stale');
    const importCa = (file: string) =>
      h.admin.inject({
        method: 'POST',
        url: `/admin/orgs/${t.orgId}/suppression/national_ca/import?list_date=2026-03-01&source=crtc-dncl`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
        payload: file,
      });
    expect((await importCa('4035550000\n')).statusCode).toBe(200);
    expect(await codes()).not.toContain('dnc_list_stale');
    expect(await codes()).not.toContain('dnc_listed');
    expect((await importCa(`${calgary.slice(2)}\n`)).statusCode).toBe(200);
    expect(await codes()).toContain('dnc_listed');
  });
});
