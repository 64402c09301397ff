import { describe, expect, it } from 'vitest';
import { fieldsOf, useCliSuite } from '../helpers/cli.js';
import { createTenant, dni, json } from '../helpers/harness.js';
import { freshContact, grant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { recordCall } from '../helpers/reports.js';

const suite = useCliSuite({
  privateDatabase: 'org list pages through every organization, newest first, across the database',
});
const { admin } = suite;

/** The rows of a human table: header first, cells split on runs of two or more spaces. */
const rowsOf = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('more:'))
    .map((l) => l.split(/ {2,}/));

describe('list and show commands', () => {
  it('org list pages with --limit/--cursor; -q prints ids, --json the page', async () => {
    const a = await suite.newOrg();
    suite.h.clock.advance(1);
    const b = await suite.newOrg();
    const first = await admin(['org', 'list', '--limit', '1']);
    expect(first).toMatchObject({ code: 0, err: '' });
    const rows = rowsOf(first.out);
    expect(rows[0]).toEqual(['ORG_ID', 'NAME', 'TRACKING', 'RATE_LIMIT', 'CREATED_AT']);
    expect(rows[1]![0]).toBe(b);
    const cursor = /more: add --cursor (\S+)/.exec(first.out)?.[1];
    expect(cursor).toBeDefined();
    const second = await admin(['org', 'list', '--limit', '1', '--cursor', cursor!, '-q']);
    expect(second.out).toBe(`${a}\n`);
    const page = JSON.parse((await admin(['org', 'list', '--limit', '1', '--json'])).out);
    expect(page.items[0].org_id).toBe(b);
    expect(typeof page.next_cursor).toBe('string');
  });

  it('key list and key show never print the key itself', async () => {
    const t = await createTenant(suite.h);
    const list = await admin(['key', 'list', t.orgId]);
    expect(list.code).toBe(0);
    expect(list.out).toContain(t.keyId);
    expect(list.out).not.toContain(t.key);
    const shown = fieldsOf((await admin(['key', 'show', t.keyId])).out);
    expect(shown).toMatchObject({ key_id: t.keyId, org_id: t.orgId });
    expect(JSON.stringify(shown)).not.toContain(t.key);
    expect((await admin(['key', 'list', t.orgId, '--status', 'revoked'])).out).toBe('(none)\n');
  });

  it('campaign list, number list and number show give the holder', async () => {
    const t = await createTenant(suite.h, { numbers: 2 });
    const s = json(await dni(suite.h, t.key, { campaign_code: t.code, visitor_id: 'cli-v' }));
    expect((await admin(['campaign', 'list', t.orgId, '-q'])).out).toBe(`${t.code}\n`);
    const numbers = rowsOf(
      (await admin(['number', 'list', t.orgId, t.code, '--state', 'held'])).out,
    );
    expect(numbers).toEqual([
      ['NUMBER', 'ROLE', 'SESSION', 'VISITOR', 'HELD_UNTIL', 'LAST_ASSIGNED_AT'],
      [s.tracking_number, 'pool', s.dni_session_id, 'cli-v', s.expires_at, expect.any(String)],
    ]);
    const one = fieldsOf((await admin(['number', 'show', t.orgId, t.code, s.tracking_number])).out);
    expect(one).toMatchObject({ holder_session: s.dni_session_id, holder_visitor: 'cli-v' });
    const missing = await admin(['number', 'show', t.orgId, t.code, '+14155550000']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('number_not_found');
  });

  it('call list/show, touch list/show and consent list', async () => {
    suite.h.clock.set(WEEKDAY_MORNING_ET);
    const t = await createTenant(suite.h);
    const callId = await recordCall(suite.h, t);
    // Recorded after it, started before it: listed after it (latest start first).
    const earlier = await recordCall(suite.h, t, {
      startedAt: new Date(suite.h.clock.now() - 3_600_000).toISOString(),
    });
    const calls = await admin(['call', 'list', t.orgId, '--campaign', t.code, '-q']);
    expect(calls.out).toBe(`${callId}\n${earlier}\n`);
    // Admin-recorded calls have no carrier outcome yet; they are unattributed.
    const pending = await admin(['call', 'list', t.orgId, '--outcome', 'pending', '-q']);
    expect(pending.out).toBe(`${callId}\n${earlier}\n`);
    expect((await admin(['call', 'list', t.orgId, '--outcome', 'missed', '-q'])).out).toBe('');
    expect((await admin(['call', 'list', t.orgId, '--source', 'Unattributed', '-q'])).out).toBe(
      `${callId}\n${earlier}\n`,
    );
    expect((await admin(['call', 'list', t.orgId, '--source', 'google', '-q'])).out).toBe('');
    const call = fieldsOf((await admin(['call', 'show', t.orgId, callId])).out);
    expect(call).toMatchObject({ call_id: callId, attribution_kind: 'campaign' });

    await suite.h.admin.inject({
      method: 'PATCH',
      url: `/admin/orgs/${t.orgId}/campaigns/${t.code}`,
      headers: { authorization: `Bearer ${suite.env.ADMIN_TOKEN}` },
      payload: { config: { caller_id: '+12125550100' } },
    });
    const contact = freshContact();
    await grant(suite.h, t.orgId, contact);
    const res = json(
      await touch(suite.h, t.key, t.code, {
        to_e164: contact,
        channel: 'call',
        consent_basis: 'pewc',
      }),
    );
    const touches = rowsOf((await admin(['touch', 'list', t.orgId])).out);
    expect(touches[1]!.slice(0, 1)).toEqual([res.touch_id]);
    expect(touches[1]).toContain('queued');
    expect(touches[1]).toContain('pending');
    const shown = fieldsOf((await admin(['touch', 'show', t.orgId, res.touch_id])).out);
    expect(shown).toMatchObject({
      touch_id: res.touch_id,
      status: 'queued',
      dispatch_status: 'pending',
    });
    expect((await admin(['touch', 'show', t.orgId, res.touch_id, '-q'])).out).toBe('queued\n');

    const consents = rowsOf((await admin(['consent', 'list', t.orgId, '--kind', 'grant'])).out);
    expect(consents[1]!.slice(1, 3)).toEqual([contact, 'grant']);
  });

  it('suppression list pages one list in number order, only the organization’s own', async () => {
    const org = await suite.newOrg();
    const other = await suite.newOrg();
    const numbers = [freshContact(), freshContact()].sort(
      (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
    );
    for (const n of numbers) {
      const add = await admin(['suppression', 'add', org, n, '--list', 'internal', '-q']);
      expect(add.out).toBe(`${n}\n`);
    }
    await admin(['suppression', 'add', other, freshContact(), '--list', 'internal']);
    const first = await admin(['suppression', 'list', org, '--list', 'internal', '--limit', '1']);
    expect(first).toMatchObject({ code: 0, err: '' });
    const rows = rowsOf(first.out);
    expect(rows[0]).toEqual(['NUMBER', 'STATE', 'SOURCE', 'LIST_DATE', 'ADDED_AT']);
    expect(rows[1]![0]).toBe(numbers[0]);
    const cursor = /more: add --cursor (\S+)/.exec(first.out)?.[1];
    const second = await admin([
      'suppression',
      'list',
      org,
      '--list',
      'internal',
      '--limit',
      '1',
      '--cursor',
      cursor!,
      '-q',
    ]);
    expect(second.out).toBe(`${numbers[1]}\n`);
    const page = JSON.parse(
      (await admin(['suppression', 'list', org, '--list', 'internal', '--json'])).out,
    );
    expect([page.items.length, page.next_cursor]).toEqual([2, null]);
    expect((await admin(['suppression', 'list', other, '--list', 'internal', '-q'])).out).toMatch(
      /^\+\d+\n$/,
    );
  });

  it('a bad --limit is the API’s 422, shown as loc: msg', async () => {
    const r = await admin(['org', 'list', '--limit', '0']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/query\.limit: /);
  });
});
