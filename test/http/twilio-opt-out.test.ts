import { beforeEach, describe, expect, it } from 'vitest';
import { ScriptedCarrier, worker } from '../helpers/dispatch.js';
import { adminCall, json, useHarness, withHarness } from '../helpers/harness.js';
import {
  adminInject,
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import { auditRows } from '../helpers/reports.js';
import { itConcurrently } from '../helpers/store.js';
import {
  newSid,
  PUBLIC_BASE,
  smsParams,
  TWILIO_TOKEN,
  twilioPost,
} from '../helpers/twilio-webhook.js';

const h = useHarness({
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
  privateDatabase:
    "the dispatch worker leases every organization's queued touches; every consent event is counted",
});
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const PATH = '/carrier/twilio/message';
const EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const CONFIRMATION = 'You are unsubscribed and will get no more messages. Reply START for help.';

let callerSeq = 0;
/** A caller id no other test uses, so every tenant owns its own number. */
const freshCallerId = () => `+1646555${String(1000 + callerSeq++).padStart(4, '0')}`;

async function tenant(extra: Record<string, unknown> = {}) {
  const callerId = freshCallerId();
  const t = await outboundTenant(h, {
    config: {
      caller_id: callerId,
      recording_url: 'https://cdn.example/drop.mp3',
      templates: { default: { text: 'Hello from us.' } },
      ...extra,
    },
  });
  return { ...t, callerId };
}

const reply = (from: string, to: string, body: string, sid?: string) =>
  twilioPost(h, PATH, smsParams(from, to, body, sid));

const decide = (t: { key: string; code: string }, to: string, channel: string, dryRun = false) =>
  touch(h, t.key, t.code, {
    to_e164: to,
    channel,
    consent_basis: 'pewc',
    ...(dryRun ? { dry_run: true } : {}),
  }).then(json);

const events = (orgId: string, e164: string) =>
  h.store.query<Record<string, any>>(
    'select kind, source, evidence, actor, reason from consent_events where org_id = $1 and e164 = $2 order by seq',
    [orgId, e164],
  );
const confirmations = (orgId: string, e164: string) =>
  h.store.query<Record<string, any>>(
    `select t.id, t.channel, t.scenario_ref, j.payload from outbound_touches t
       join dispatch_jobs j on j.touch_id = t.id
      where t.org_id = $1 and t.to_e164 = $2 and t.scenario_ref = 'opt_out_confirmation'`,
    [orgId, e164],
  );

describe('STOP by text', () => {
  it('a signed STOP to the caller id makes the next call, sms and voicemail consent_revoked', async () => {
    const t = await tenant();
    expect((await decide(t, t.contact, 'call', true)).status).toBe('would_queue');
    const res = await reply(t.contact, t.callerId, 'STOP');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe(EMPTY);
    for (const channel of ['call', 'sms', 'voicemail']) {
      const d = await decide(t, t.contact, channel);
      expect(d.status).toBe('blocked');
      expect(d.reasons.map((r: { code: string }) => r.code)).toContain('consent_revoked');
    }
    const [e] = (await events(t.orgId, t.contact)).slice(-1);
    expect(e).toMatchObject({
      kind: 'opt_out',
      source: 'sms:twilio',
      actor: 'carrier:twilio',
      evidence: { scope: 'all', body: 'STOP', from: t.contact, to: t.callerId },
    });
    const audit = await auditRows(h, t.orgId, 'consent.revoked');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: 'carrier:twilio',
      subject_id: t.contact,
      detail: { kind: 'opt_out', source: 'sms:twilio', scope: 'all' },
    });
    const standing = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/consents/${encodeURIComponent(t.contact)}`,
    );
    expect(standing.status).toBe('revoked');
  });

  it('a reply to a tracking number of the pool revokes too', async () => {
    const t = await tenant();
    await reply(t.contact, t.numbers[0]!, 'stop');
    expect((await decide(t, t.contact, 'sms')).reasons[0].code).toBe('consent_revoked');
  });

  it.each([
    ' stop! ',
    'Stop.',
    'STOPALL',
    'Unsubscribe',
    'cancel',
    'END',
    'quit',
    'Revoke',
    'opt out',
    'Opt-Out',
    'OPTOUT',
  ])('%j revokes', async (body) => {
    const t = await tenant();
    await reply(t.contact, t.callerId, body);
    expect((await events(t.orgId, t.contact)).at(-1)?.kind).toBe('opt_out');
  });

  it.each(['I stopped by', '', 'yes', 'Thanks, see you at 5'])(
    '%j is not a revocation and stores nothing',
    async (body) => {
      const t = await tenant();
      const res = await reply(t.contact, t.callerId, body);
      expect(res.body).toBe(EMPTY);
      expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
      expect((await decide(t, t.contact, 'sms', true)).status).toBe('would_queue');
    },
  );

  it('a forged or missing signature is 403 and changes nothing', async () => {
    const t = await tenant();
    const params = smsParams(t.contact, t.callerId, 'STOP');
    const forged = await twilioPost(h, PATH, params, { token: '0'.repeat(32) });
    expect(forged.statusCode).toBe(403);
    expect(json(forged)).toEqual({ detail: 'invalid_signature' });
    const unsigned = await twilioPost(h, PATH, params, { signature: null });
    expect(unsigned.statusCode).toBe(403);
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
    expect(await auditRows(h, t.orgId, 'consent.revoked')).toHaveLength(0);
    expect((await decide(t, t.contact, 'call', true)).status).toBe('would_queue');
  });

  it('answers 503 carrier_not_configured without TWILIO_AUTH_TOKEN or PUBLIC_BASE_URL', async () => {
    await withHarness({ store: h.store }, async (bare) => {
      const t = await tenant();
      for (const path of [PATH, '/carrier/twilio/optout?touch=tch_x']) {
        const res = await twilioPost(bare, path, smsParams(t.contact, t.callerId, 'STOP'));
        expect(res.statusCode).toBe(503);
        expect(json(res)).toEqual({ detail: 'carrier_not_configured' });
      }
      expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
    });
  });

  it('answers 400 without MessageSid, From or To, and storing nothing', async () => {
    const t = await tenant();
    const { MessageSid: _m, ...rest } = smsParams(t.contact, t.callerId, 'STOP');
    const res = await twilioPost(h, PATH, rest);
    expect(res.statusCode).toBe(400);
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant']);
  });

  it('a text to a number no organization owns is answered and stores nothing', async () => {
    const before = await h.store.query('select count(*)::int as n from consent_events', []);
    const res = await reply(freshContact(), '+16465559999', 'STOP');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(EMPTY);
    expect(await h.store.query('select count(*)::int as n from consent_events', [])).toEqual(
      before,
    );
  });

  it("binds only the organization that owns the number, not another's consent", async () => {
    const a = await tenant();
    const b = await tenant();
    await grant(h, b.orgId, a.contact);
    await reply(a.contact, a.callerId, 'STOP');
    expect((await decide(a, a.contact, 'sms')).status).toBe('blocked');
    expect((await decide(b, a.contact, 'sms', true)).status).toBe('would_queue');
  });
});

describe('replays and the confirmation text', () => {
  it('five replays of one MessageSid record one revocation and one confirmation', async () => {
    const t = await tenant({ opt_out_confirmation: CONFIRMATION });
    const sid = newSid('SM');
    for (let i = 0; i < 5; i++) {
      const res = await reply(t.contact, t.callerId, 'STOP', sid);
      expect(res.statusCode).toBe(200);
      h.clock.advance(30);
    }
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant', 'opt_out']);
    expect(await auditRows(h, t.orgId, 'consent.revoked')).toHaveLength(1);
    const sent = await confirmations(t.orgId, t.contact);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload).toMatchObject({
      channel: 'sms',
      to: t.contact,
      from: t.callerId,
      text: CONFIRMATION,
    });
  });

  it('the worker sends the confirmation once; a second STOP adds history, not a text', async () => {
    const t = await tenant({ opt_out_confirmation: CONFIRMATION });
    await reply(t.contact, t.callerId, 'STOP');
    await reply(t.contact, t.callerId, 'Stop!');
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual([
      'grant',
      'opt_out',
      'opt_out',
    ]);
    const carrier = new ScriptedCarrier(() => ({ outcome: 'accepted', carrierId: 'SMok' }));
    const w = worker(h, carrier);
    for (let i = 0; i < 5; i++) await w.tick();
    const mine = carrier.calls.filter((c) => c.payload.to === t.contact);
    expect(mine.map((c) => c.payload.text)).toEqual([CONFIRMATION]);
  });

  it('sends no confirmation when the campaign configures none', async () => {
    const t = await tenant();
    await reply(t.contact, t.callerId, 'STOP');
    expect(await confirmations(t.orgId, t.contact)).toHaveLength(0);
  });

  itConcurrently('five concurrent replays record one revocation and one confirmation', async () => {
    const t = await tenant({ opt_out_confirmation: CONFIRMATION });
    const sid = newSid('SM');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => reply(t.contact, t.callerId, 'STOP', sid)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual(['grant', 'opt_out']);
    expect(await auditRows(h, t.orgId, 'consent.revoked')).toHaveLength(1);
    expect(await confirmations(t.orgId, t.contact)).toHaveLength(1);
  });
});

describe('START and UNSTOP', () => {
  it('are recorded but do not restore consent; a new grant does', async () => {
    const t = await tenant();
    await reply(t.contact, t.callerId, 'STOP');
    h.clock.advance(60);
    await reply(t.contact, t.callerId, 'START');
    await reply(t.contact, t.callerId, 'unstop');
    expect((await events(t.orgId, t.contact)).map((e) => e.kind)).toEqual([
      'grant',
      'opt_out',
      'resubscribe',
      'resubscribe',
    ]);
    expect(await auditRows(h, t.orgId, 'consent.resubscribe_requested')).toHaveLength(2);
    expect((await decide(t, t.contact, 'sms')).reasons[0].code).toBe('consent_revoked');
    h.clock.advance(60);
    await grant(h, t.orgId, t.contact, { tier: 'pewc' });
    expect((await decide(t, t.contact, 'sms')).status).toBe('queued');
  });
});

describe("an organization's own phrases", () => {
  it('PATCH /admin/orgs sets them; a matching reply then revokes', async () => {
    const t = await tenant();
    await reply(t.contact, t.callerId, 'Chao pescao');
    expect((await decide(t, t.contact, 'sms', true)).status).toBe('would_queue');
    const org = await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, {
      opt_out_phrases: ['Chao pescao', 'toodle pip'],
    });
    expect(org.opt_out_phrases).toEqual(['Chao pescao', 'toodle pip']);
    await reply(t.contact, t.callerId, 'CHAO PESCAO!');
    expect((await decide(t, t.contact, 'sms')).reasons[0].code).toBe('consent_revoked');
    const other = await tenant();
    await reply(other.contact, other.callerId, 'toodle pip');
    expect((await decide(other, other.contact, 'sms', true)).status).toBe('would_queue');
  });

  it('POST /admin/orgs takes them at creation', async () => {
    const org = await adminCall(h, 'POST', '/admin/orgs', {
      name: 'Phrases',
      opt_out_phrases: ['basta'],
    });
    expect(org.opt_out_phrases).toEqual(['basta']);
  });

  it('rejects a phrase without a letter or digit, and a non-list, with 422', async () => {
    const t = await tenant();
    for (const [body, loc] of [
      [{ opt_out_phrases: ['ok', '!!'] }, ['body', 'opt_out_phrases', 1]],
      [{ opt_out_phrases: 'stop please' }, ['body', 'opt_out_phrases']],
    ] as const) {
      const res = await adminInject(h, 'PATCH', `/admin/orgs/${t.orgId}`, body);
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0].loc).toEqual(loc);
    }
    const org = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}`);
    expect(org.opt_out_phrases).toEqual([]);
  });
});
