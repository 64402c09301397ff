import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/console/accounts.js';
import {
  client,
  csrfOf,
  freshEmail,
  makeUser,
  PASSWORD,
  signIn,
  useConsole,
} from '../helpers/console.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  freshNumbers,
  useHarness,
} from '../helpers/harness.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { parseXml } from '../helpers/xml.js';

/**
 * The tasks a firm runs its week from, through the console's forms and pages
 * (docs/console.md): a campaign made in the console rings the office, calls
 * are listed by when they started and filtered to the missed ones, and the
 * organization's time zone set in the console labels every time and CSV.
 */
const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const c = useConsole(h);

/** "(415) 555-0123": a number as a person types it, without its country code. */
const typed = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

const voice = (to: string, from = '+12125550142', sid = newSid('CA')) => ({
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  ApiVersion: '2010-04-01',
  CallSid: sid,
  CallStatus: 'ringing',
  Called: to,
  Caller: from,
  Direction: 'inbound',
  From: from,
  To: to,
});

async function manager() {
  h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
  const t = await createTenant(h, { numbers: 2 });
  const user = await makeUser(h, 'manager', t.orgId);
  return { t, m: await signIn(c.app, user.email) };
}

const campaignRow = (orgId: string, code: string) =>
  h.store.query<{ id: string; forward_to: string | null }>(
    'select id, forward_to from campaigns where org_id = $1 and code = $2',
    [orgId, code],
  );

describe('a campaign made in the console', () => {
  it('forwards a signed Twilio call to the number typed as people type it', async () => {
    const { t, m } = await manager();
    const [a, b, office] = freshNumbers(3);
    const res = await m.post(`/orgs/${t.orgId}/campaigns`, {
      code: 'OF',
      name: 'Office line',
      numbers: `${typed(a!)}\n+1 ${a!.slice(2, 5)} ${a!.slice(5)}, ${b}`,
      forward_to: typed(office!),
    });
    expect(res.statusCode, res.body).toBe(303);
    const [row] = await campaignRow(t.orgId, 'OF');
    expect(row!.forward_to).toBe(office);
    const numbers = await h.store.query<{ e164: string }>(
      'select e164 from tracking_numbers where campaign_id = $1 order by e164',
      [row!.id],
    );
    expect(numbers.map((n) => n.e164)).toEqual([a, b].sort());

    const page = await m.get(res.headers.location as string);
    expect(page.body).toContain(office);

    const call = await twilioPost(h, '/carrier/twilio/voice', voice(a!));
    expect(call.statusCode).toBe(200);
    const doc = parseXml(call.body);
    expect(doc.children.map((x) => x.name)).toEqual(['Dial']);
    expect(doc.children[0]!.text).toBe(office);
  });

  it('keeps what was typed and says which number is wrong, next to its field; nothing is made', async () => {
    const { t, m } = await manager();
    const [a] = freshNumbers(1);
    const res = await m.post(`/orgs/${t.orgId}/campaigns`, {
      code: 'BAD',
      name: 'Typo',
      numbers: `${typed(a!)}\n555-01`,
      forward_to: 'call the office',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(typed(a!));
    expect(res.body).toContain('555-01');
    expect(res.body).toContain('value="call the office"');
    expect(res.body).toMatch(/id="f-numbers-error">Not a phone number: 555-01/);
    expect(res.body).toMatch(/id="f-forward-error">Not a phone number: call the office/);
    expect(res.body).toMatch(/id="f-forward"[^>]*aria-invalid="true"/);
    expect(await campaignRow(t.orgId, 'BAD')).toEqual([]);
  });

  it('refuses a forward-to that is one of its own tracking numbers (a loop)', async () => {
    const { t, m } = await manager();
    const res = await m.post(`/orgs/${t.orgId}/campaigns/${t.code}/settings`, {
      name: 'Campaign',
      forward_to: t.numbers[0]!,
      overflow_number: '',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('own tracking numbers');
    expect((await campaignRow(t.orgId, t.code))[0]!.forward_to).toBeNull();
    const ok = await m.post(`/orgs/${t.orgId}/campaigns/${t.code}/settings`, {
      name: 'Campaign',
      forward_to: typed(freshNumbers(1)[0]!),
      overflow_number: '',
    });
    expect(ok.statusCode).toBe(303);
    expect((await campaignRow(t.orgId, t.code))[0]!.forward_to).toMatch(/^\+1415/);
  });

  it('a viewer cannot change where calls ring (403) and nothing changes', async () => {
    h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
    const t = await createTenant(h);
    const v = await signIn(c.app, (await makeUser(h, 'viewer', t.orgId)).email);
    const res = await v.post(`/orgs/${t.orgId}/campaigns/${t.code}/settings`, {
      name: 'x',
      forward_to: freshNumbers(1)[0]!,
    });
    expect(res.statusCode).toBe(403);
    expect((await campaignRow(t.orgId, t.code))[0]!.forward_to).toBeNull();
  });
});

describe('calls', () => {
  it('are listed by when they started, a backdated one in its place; missed ones filter', async () => {
    const { t, m } = await manager();
    const now = h.clock.now();
    const record = async (minutesAgo: number) =>
      (
        await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
          to: t.numbers[0],
          from: freshNumbers(1)[0],
          started_at: new Date(now - minutesAgo * 60_000).toISOString(),
        })
      ).call_id as string;
    const recent = await record(10);
    const older = await record(120);
    // Recorded last, started first: a backdated call.
    const backdated = await record(600);
    // A carrier call that nobody answered.
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      forward_to: freshNumbers(1)[0],
    });
    const sid = newSid('CA');
    h.clock.advance(60);
    await twilioPost(h, '/carrier/twilio/voice', voice(t.numbers[1]!, '+12125550199', sid));
    const status = await twilioPost(h, '/carrier/twilio/status', {
      AccountSid: 'AC0123456789abcdef0123456789abcdef',
      CallSid: sid,
      CallStatus: 'no-answer',
    });
    expect(status.statusCode).toBeLessThan(300);
    const [missed] = await h.store.query<{ id: string }>(
      'select id from calls where carrier_call_sid = $1',
      [sid],
    );

    const csv = await m.get(`/orgs/${t.orgId}/calls?format=csv&table=calls`);
    expect(csv.statusCode).toBe(200);
    const ids = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',').at(-1));
    expect(ids).toEqual([missed!.id, recent, older, backdated]);

    const api = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${t.orgId}/calls?limit=2`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const first = api.json() as { items: { call_id: string }[]; next_cursor: string };
    expect(first.items.map((i) => i.call_id)).toEqual([missed!.id, recent]);
    const next = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${t.orgId}/calls?limit=2&cursor=${first.next_cursor}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect((next.json() as { items: { call_id: string }[] }).items.map((i) => i.call_id)).toEqual([
      older,
      backdated,
    ]);

    const onlyMissed = await m.get(`/orgs/${t.orgId}/calls?status=missed&format=csv&table=calls`);
    expect(onlyMissed.body.trim().split('\r\n').slice(1)).toHaveLength(1);
    expect(onlyMissed.body).toContain(missed!.id);
    const apiMissed = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${t.orgId}/calls?outcome=missed`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(
      (apiMissed.json() as { items: { call_id: string }[] }).items.map((i) => i.call_id),
    ).toEqual([missed!.id]);
    const overview = await m.get(`/orgs/${t.orgId}/overview`);
    expect(overview.body).toMatch(/data-metric="calls_missed"><a [^>]*>1</);
  });
});

describe('the operator’s switcher', () => {
  it('names the organization the page shows, and none on a page of no organization', async () => {
    h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
    const [a, b] = [await createTenant(h), await createTenant(h)];
    const op = await signIn(c.app, (await makeUser(h, 'operator')).email);
    const selected = (body: string) =>
      [...body.matchAll(/<option value="([^"]*)" selected>/g)].map((m) => m[1]);
    expect(selected((await op.get(`/operator/orgs/${b.orgId}`)).body)).toEqual([b.orgId]);
    expect(selected((await op.get(`/orgs/${a.orgId}/overview`)).body)).toContain(a.orgId);
    expect(selected((await op.get('/operator/users')).body)).toEqual(['']);
  });
});

describe('an accepted invitation', () => {
  it('says which organization it opens, and lands on its Overview signed in', async () => {
    const { t, m } = await manager();
    const [org] = await h.store.query<{ name: string }>('select name from orgs where id = $1', [
      t.orgId,
    ]);
    const email = freshEmail('joining');
    const made = await m.post(`/orgs/${t.orgId}/people/invitations`, { email, role: 'viewer' });
    const url = /\/invite\/[A-Za-z0-9_-]{43}/.exec(made.body)![0];
    const anon = client(c.app);
    const page = await anon.get(url);
    expect(page.body).toContain(`<strong>${org!.name}</strong> as <strong>viewer</strong>`);
    anon.csrf = csrfOf(page.body);
    const accepted = await anon.post(url, { password: PASSWORD });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe(`/orgs/${t.orgId}/overview`);
  });
});

describe('the organization’s time zone', () => {
  it('is set by a manager in the console and labels the pages’ times and the CSV’s', async () => {
    const { t, m } = await manager();
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: freshNumbers(1)[0],
    });
    const bad = await m.post(`/orgs/${t.orgId}/settings`, {
      time_zone: 'Mars/Olympus',
      phone_country: 'US',
    });
    expect(bad.statusCode).toBe(422);
    const res = await m.post(`/orgs/${t.orgId}/settings`, {
      time_zone: 'America/Los_Angeles',
      phone_country: 'US',
    });
    expect(res.statusCode).toBe(303);
    const [org] = await h.store.query<{ time_zone: string }>(
      'select time_zone from orgs where id = $1',
      [t.orgId],
    );
    expect(org!.time_zone).toBe('America/Los_Angeles');
    const page = await m.get(`/orgs/${t.orgId}/calls`);
    expect(page.body).toContain('Started (America/Los_Angeles)');
    expect(page.body).toMatch(/<time datetime="[^"]+">[\d-]+, [\d:]+ P[SD]T<\/time>/);
    const csv = await m.get(`/orgs/${t.orgId}/calls?format=csv&table=calls`);
    expect(csv.body.split('\r\n')[0]).toContain('Started (America/Los_Angeles)');
    expect(csv.body.split('\r\n')[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[78]:00,/);
  });
});
