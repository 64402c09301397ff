import { beforeEach, describe, expect, it } from 'vitest';
import { adminCall, json, useHarness } from '../helpers/harness.js';
import {
  adminInject,
  outboundTenant,
  setConfig,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import { auditRows } from '../helpers/reports.js';
import {
  newSid,
  PUBLIC_BASE,
  smsParams,
  TWILIO_TOKEN,
  twilioPost,
} from '../helpers/twilio-webhook.js';

// Replies read for their meaning, the matched word on record, and the one-time clarification
// question for doubtful replies (a pending opt-out until the person says they want messages).
const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const CLARIFICATION =
  'We read your reply as a request to stop, so we will not text or call you again. Reply YES if you want to keep getting our messages.';

let callerSeq = 0;
const freshCallerId = () => `+1646556${String(1000 + callerSeq++).padStart(4, '0')}`;

async function tenant() {
  const callerId = freshCallerId();
  const t = await outboundTenant(h, {
    config: { caller_id: callerId, templates: { default: { text: 'Hello from us.' } } },
  });
  return { ...t, callerId };
}
type T = Awaited<ReturnType<typeof tenant>>;

const reply = (t: T, body: string, sid?: string) =>
  twilioPost(h, '/carrier/twilio/message', smsParams(t.contact, t.callerId, body, sid));

const status = async (t: T) =>
  json(
    await touch(h, t.key, t.code, {
      to_e164: t.contact,
      channel: 'sms',
      consent_basis: 'pewc',
      dry_run: true,
    }),
  ).status as string;

const optOuts = (t: T) =>
  h.store.query<{ evidence: Record<string, unknown> }>(
    `select evidence from consent_events where org_id = $1 and e164 = $2 and kind = 'opt_out' order by seq`,
    [t.orgId, t.contact],
  );
const clarifications = (t: T) =>
  h.store.query<{ payload: Record<string, unknown>; checks: Record<string, any> }>(
    `select j.payload, t.checks from outbound_touches t join dispatch_jobs j on j.touch_id = t.id
      where t.org_id = $1 and t.to_e164 = $2 and t.scenario_ref = 'opt_out_clarification'`,
    [t.orgId, t.contact],
  );

describe('a revocation word anywhere in a reply', () => {
  it.each([
    ['cancel please', 'CANCEL'],
    ['please stop texting me', 'STOP'],
    ['No más', 'NO MÁS'],
    ['NO MAS', 'NO MÁS'],
    ['Basta ya', 'BASTA'],
    ['alto', 'ALTO'],
    ['Parar por favor', 'PARAR'],
    ['cancelar', 'CANCELAR'],
    ['STOP ALL', 'STOP ALL'],
  ])('%j revokes, recording the text and the word %j', async (body, word) => {
    const t = await tenant();
    expect(await status(t)).toBe('would_queue');
    expect((await reply(t, body)).statusCode).toBe(200);
    expect(await status(t)).toBe('would_block');
    const [e] = await optOuts(t);
    expect(e?.evidence).toMatchObject({ body, matched_word: word, clear: true });
  });

  it('a doubtful reply revokes at once while the organization does not ask first', async () => {
    const t = await tenant();
    await reply(t, 'can I stop by Saturday?');
    expect(await status(t)).toBe('would_block');
    const [e] = await optOuts(t);
    expect(e?.evidence).toMatchObject({
      body: 'can I stop by Saturday?',
      reading: 'unclear',
      rule: 'en.doubt.stop_by',
      clear: false,
    });
    expect(await clarifications(t)).toEqual([]);
  });
});

const kinds = async (t: T) =>
  (
    await h.store.query<{ kind: string }>(
      `select kind from consent_events where org_id = $1 and e164 = $2 order by seq`,
      [t.orgId, t.contact],
    )
  ).map((r) => r.kind);

const informational = async (t: T, channel: 'sms' | 'call') =>
  json(
    await touch(h, t.key, t.code, {
      to_e164: t.contact,
      channel,
      consent_basis: 'pec',
      dry_run: true,
    }),
  );

describe('the one-time clarification text', () => {
  const askFirst = async (t: T) => {
    const org = await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, {
      opt_out_clarification: true,
    });
    expect(org.opt_out_clarification).toBe(true);
  };

  it('answers a doubtful reply with one non-marketing question and blocks until a clear yes; replays add nothing', async () => {
    const t = await tenant();
    await askFirst(t);
    const sid = newSid('SM');
    for (let i = 0; i < 3; i++)
      expect((await reply(t, 'can I stop by Saturday?', sid)).statusCode).toBe(200);
    expect(await kinds(t)).toEqual(['grant', 'opt_out_pending']);
    expect(await status(t)).toBe('would_block');
    const asked = await clarifications(t);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.payload).toMatchObject({
      channel: 'sms',
      to: t.contact,
      from: t.callerId,
      text: CLARIFICATION,
    });
    expect(asked[0]?.checks.reply).toMatchObject({
      message_sid: sid,
      body: 'can I stop by Saturday?',
      reading: 'unclear',
      rule: 'en.doubt.stop_by',
      clear: false,
    });
    expect(await auditRows(h, t.orgId, 'touch.queued')).toHaveLength(1);
    await reply(t, 'Yes');
    expect(await kinds(t)).toEqual(['grant', 'opt_out_pending', 'clarified']);
    expect(await status(t)).toBe('would_queue');
  });

  it('silence is a revocation: marketing and informational touches are still blocked 30 days later', async () => {
    const t = await tenant();
    await askFirst(t);
    await reply(t, 'cancel my appointment');
    h.clock.advance(30 * 86_400);
    expect(await status(t)).toBe('would_block');
    await setConfig(h, t, {
      caller_id: t.callerId,
      purpose: 'informational',
      templates: { default: { text: 'Your appointment.' } },
    });
    for (const channel of ['sms', 'call'] as const) {
      const d = await informational(t, channel);
      expect(d.status).toBe('would_block');
      expect(d.reasons[0].code).toBe('consent_revoked');
    }
  });

  it('an answer that is not a yes leaves the contact blocked; a later yes after STOP lifts nothing', async () => {
    const t = await tenant();
    await askFirst(t);
    await reply(t, 'not interested');
    await reply(t, 'what?');
    expect(await status(t)).toBe('would_block');
    await reply(t, 'STOP');
    await reply(t, 'yes');
    expect(await kinds(t)).toEqual(['grant', 'opt_out_pending', 'opt_out']);
    expect(await status(t)).toBe('would_block');
  });

  it('a second doubtful reply revokes at once: the question is asked once', async () => {
    const t = await tenant();
    await askFirst(t);
    await reply(t, 'can I stop by Saturday?');
    await reply(t, 'YES');
    expect(await status(t)).toBe('would_queue');
    await reply(t, 'not interested');
    expect(await status(t)).toBe('would_block');
    expect(await kinds(t)).toEqual(['grant', 'opt_out_pending', 'clarified', 'opt_out']);
    expect((await optOuts(t))[0]?.evidence).toMatchObject({ reading: 'unclear', clear: false });
    expect(await clarifications(t)).toHaveLength(1);
  });

  it('a clear reply revokes at once even when the organization asks first', async () => {
    const t = await tenant();
    await askFirst(t);
    await reply(t, 'please stop texting me');
    expect(await status(t)).toBe('would_block');
    expect(await clarifications(t)).toEqual([]);
  });

  it('is off by default, shown on the organization, and a non-boolean is 422 changing nothing', async () => {
    const t = await tenant();
    expect((await adminCall(h, 'GET', `/admin/orgs/${t.orgId}`)).opt_out_clarification).toBe(false);
    const res = await adminInject(h, 'PATCH', `/admin/orgs/${t.orgId}`, {
      opt_out_clarification: 'sometimes',
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0]).toMatchObject({
      type: 'bool_parsing',
      loc: ['body', 'opt_out_clarification'],
    });
    expect((await adminCall(h, 'GET', `/admin/orgs/${t.orgId}`)).opt_out_clarification).toBe(false);
    const created = await adminCall(h, 'POST', '/admin/orgs', {
      name: 'Asks first',
      opt_out_clarification: true,
    });
    expect(created.opt_out_clarification).toBe(true);
  });
});
