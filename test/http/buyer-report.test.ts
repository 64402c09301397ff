import { describe, expect, it } from 'vitest';
import { adminCall, createTenant, json, useHarness } from '../helpers/harness.js';
import { auditRows, callRow, eventRows, recordCall, report } from '../helpers/reports.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness();

const DAY = 86_400;

describe('first report', () => {
  it('answers 201 with a new event id and created:true', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'r-1',
      disposition: 'success',
      notes: 'qualified',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    const body = json(res);
    expect(Object.keys(body)).toEqual(['event_id', 'created']);
    expect(body.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(body.created).toBe(true);
  });

  it('stores the event, the call disposition and an audit record', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const res = await report(
      h,
      t.key,
      t.code,
      { call_id: callId, report_id: 'r-1', disposition: 'success', notes: 'qualified' },
      { 'x-request-id': 'req-report-1' },
    );
    const eventId = json(res).event_id;
    expect(await eventRows(h, t.orgId)).toEqual([
      {
        id: eventId,
        call_id: callId,
        report_id: 'r-1',
        disposition: 'success',
        notes: 'qualified',
      },
    ]);
    expect(await callRow(h, callId)).toMatchObject({
      disposition: 'success',
      disposition_event_id: eventId,
    });
    expect(await auditRows(h, t.orgId, 'buyer_report.created')).toEqual([
      {
        action: 'buyer_report.created',
        actor: `key:${t.keyId}`,
        subject_type: 'call',
        subject_id: callId,
        detail: {
          campaign_code: t.code,
          report_id: 'r-1',
          disposition: 'success',
          notes: 'qualified',
          event_id: eventId,
        },
        request_id: 'req-report-1',
      },
    ]);
  });
});

describe('replay', () => {
  it('answers the same report again with 200, the first event id and created:false', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const body = { call_id: callId, report_id: 'r-9', disposition: 'rejected', notes: 'dupe' };
    const first = json(await report(h, t.key, t.code, body));
    const before = await callRow(h, callId);
    h.clock.advance(60);
    const again = await report(h, t.key, t.code, body);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(`{"event_id":"${first.event_id}","created":false}`);
    expect(await eventRows(h, t.orgId)).toHaveLength(1);
    expect(await callRow(h, callId)).toEqual(before);
    const replayed = await auditRows(h, t.orgId, 'buyer_report.replayed');
    expect(replayed).toHaveLength(1);
    expect(replayed[0]?.detail).toMatchObject({ event_id: first.event_id, report_id: 'r-9' });
  });

  it('replays a report without notes, key order aside', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const first = json(
      await report(h, t.key, t.code, { call_id: callId, report_id: 'n', disposition: 'success' }),
    );
    const again = await report(h, t.key, t.code, {
      disposition: 'success',
      report_id: 'n',
      call_id: callId,
    });
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual({ event_id: first.event_id, created: false });
  });

  it('still replays after the report window closed', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const body = { call_id: callId, report_id: 'late', disposition: 'success' };
    const first = json(await report(h, t.key, t.code, body));
    h.clock.advance(40 * DAY);
    const again = await report(h, t.key, t.code, body);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual({ event_id: first.event_id, created: false });
  });
});

describe('report_id reused with a different payload', () => {
  const refused = (reportId: string) =>
    JSON.stringify({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'report_id'],
          msg: 'Value error, report_id was already used with a different call_id, disposition or notes',
          input: reportId,
          ctx: { error: {} },
        },
      ],
    });

  it.each([
    ['disposition', { disposition: 'rejected' }],
    ['notes', { notes: 'changed' }],
    ['notes removed', { notes: undefined }],
    ['empty notes', { notes: '' }],
  ])(
    'answers 422 at report_id when the %s differs, writing only an audit line',
    async (_, change) => {
      const t = await createTenant(h);
      const callId = await recordCall(h, t);
      const body = { call_id: callId, report_id: 'dup', disposition: 'success', notes: 'n1' };
      await report(h, t.key, t.code, body);
      const before = await callRow(h, callId);
      const res = await report(h, t.key, t.code, { ...body, ...change });
      expect(res.statusCode).toBe(422);
      expect(res.body).toBe(refused('dup'));
      expect(await eventRows(h, t.orgId)).toHaveLength(1);
      expect(await callRow(h, callId)).toEqual(before);
      const lines = await auditRows(h, t.orgId, 'buyer_report.refused');
      expect(lines.map((l) => l.detail.reason)).toEqual(['report_id_reused']);
    },
  );

  it('answers 422 at report_id when the call differs, leaving the other call untouched', async () => {
    const t = await createTenant(h);
    const a = await recordCall(h, t);
    const b = await recordCall(h, t, { to: t.numbers[1] });
    await report(h, t.key, t.code, { call_id: a, report_id: 'x', disposition: 'success' });
    const res = await report(h, t.key, t.code, {
      call_id: b,
      report_id: 'x',
      disposition: 'success',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(refused('x'));
    expect((await callRow(h, b))?.disposition).toBeNull();
  });

  it('scopes report ids per campaign and per organization', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
      code: 'zq9',
      name: 'Second',
      numbers: ['+14155559911'],
    });
    const a = await recordCall(h, t);
    const b = await recordCall(h, t, { to: '+14155559911' });
    const c = await recordCall(h, other);
    const same = { report_id: 'shared-id', disposition: 'success' };
    const r1 = await report(h, t.key, t.code, { call_id: a, ...same });
    const r2 = await report(h, t.key, 'zq9', { call_id: b, ...same });
    const r3 = await report(h, other.key, other.code, { call_id: c, ...same });
    expect([r1.statusCode, r2.statusCode, r3.statusCode]).toEqual([201, 201, 201]);
    expect(new Set([r1, r2, r3].map((r) => json(r).event_id)).size).toBe(3);
  });
});

describe('current disposition', () => {
  it('follows the latest report while every event is kept', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    const post = (reportId: string, disposition: string) =>
      report(h, t.key, t.code, { call_id: callId, report_id: reportId, disposition });
    const e1 = json(await post('first', 'success')).event_id;
    h.clock.advance(3600);
    const e2 = json(await post('return', 'rejected')).event_id;
    expect(await callRow(h, callId)).toMatchObject({
      disposition: 'rejected',
      disposition_event_id: e2,
    });
    h.clock.advance(3600);
    const e3 = json(await post('reinstated', 'success')).event_id;
    expect(await callRow(h, callId)).toMatchObject({
      disposition: 'success',
      disposition_event_id: e3,
    });
    // A replay of an older report does not move the disposition back.
    expect((await post('return', 'rejected')).statusCode).toBe(200);
    expect((await callRow(h, callId))?.disposition).toBe('success');
    expect((await eventRows(h, t.orgId)).map((e) => e.id)).toEqual([e1, e2, e3]);
    expect(await auditRows(h, t.orgId, 'buyer_report.created')).toHaveLength(3);
  });
});

describe('report window', () => {
  const closed = (callId: string, days: number) =>
    JSON.stringify({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'call_id'],
          msg: `Value error, the call started more than the campaign's report window of ${days} days ago`,
          input: callId,
          ctx: { error: {} },
        },
      ],
    });

  it('accepts a report exactly 30 days after the call and refuses one a second later', async () => {
    const t = await createTenant(h);
    const start = new Date(h.clock.now()).toISOString();
    const a = await recordCall(h, t, { startedAt: start });
    const b = await recordCall(h, t, { startedAt: start, to: t.numbers[1] });
    h.clock.advance(30 * DAY);
    const onTime = await report(h, t.key, t.code, {
      call_id: a,
      report_id: 'a',
      disposition: 'success',
    });
    expect(onTime.statusCode).toBe(201);
    h.clock.advance(1);
    const late = await report(h, t.key, t.code, {
      call_id: b,
      report_id: 'b',
      disposition: 'success',
    });
    expect(late.statusCode).toBe(422);
    expect(late.body).toBe(closed(b, 30));
    expect((await eventRows(h, t.orgId)).map((e) => e.report_id)).toEqual(['a']);
    expect((await callRow(h, b))?.disposition).toBeNull();
    const refusedLines = await auditRows(h, t.orgId, 'buyer_report.refused');
    expect(refusedLines.map((l) => [l.subject_id, l.detail.reason])).toEqual([
      [b, 'report_window_closed'],
    ]);
  });

  it("uses the campaign's report_window_days", async () => {
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      report_window_days: 2,
    });
    const callId = await recordCall(h, t);
    h.clock.advance(2 * DAY + 1);
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'w',
      disposition: 'rejected',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(closed(callId, 2));
  });
});

describe('concurrency', () => {
  itConcurrently(
    'turns 20 concurrent identical reports into one event and 19 replays',
    async () => {
      const t = await createTenant(h);
      const callId = await recordCall(h, t);
      const body = { call_id: callId, report_id: 'burst', disposition: 'success', notes: 'n' };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => report(h, t.key, t.code, body)),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array(19).fill(200), 201]);
      expect(new Set(results.map((r) => json(r).event_id)).size).toBe(1);
      expect(results.filter((r) => json(r).created)).toHaveLength(1);
      expect(await eventRows(h, t.orgId)).toHaveLength(1);
      expect(await auditRows(h, t.orgId, 'buyer_report.created')).toHaveLength(1);
      expect(await auditRows(h, t.orgId, 'buyer_report.replayed')).toHaveLength(19);
    },
  );

  itConcurrently(
    'gives one report id to one of 20 concurrent reports on different calls',
    async () => {
      const t = await createTenant(h, { numbers: 20 });
      const callIds = await Promise.all(t.numbers.map((to) => recordCall(h, t, { to })));
      const results = await Promise.all(
        callIds.map((callId) =>
          report(h, t.key, t.code, { call_id: callId, report_id: 'race', disposition: 'success' }),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, ...Array(19).fill(422)]);
      const events = await eventRows(h, t.orgId);
      expect(events).toHaveLength(1);
      const disposed = await h.store.query(
        'select id from calls where org_id = $1 and disposition is not null',
        [t.orgId],
      );
      expect(disposed).toEqual([{ id: events[0]?.call_id }]);
    },
  );
});
