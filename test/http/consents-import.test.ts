import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall, type Harness, json, useHarness } from '../helpers/harness.js';
import { freshContact, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';

const h: Harness = useHarness();
let orgId: string;
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
  orgId = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Import' })).org_id;
});

const upload = (csv: string, type = 'text/csv', org = orgId) =>
  h.admin.inject({
    method: 'POST',
    url: `/admin/orgs/${org}/consents/import`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': type },
    payload: csv,
  });
const events = async (e164: string) =>
  h.store.query<{ kind: string; tier: string | null }>(
    'select kind, tier from consent_events where org_id = $1 and e164 = $2 order by seq',
    [orgId, e164],
  );

describe('CSV import: line ends and the record cap (issue 18)', () => {
  it('reads CR-only files and rejects a record over 64 KiB on its line, keeping the rest', async () => {
    const [a, b] = [freshContact(), freshContact()];
    const huge = `"{""note"":""${'x'.repeat(70_000)}""}"`;
    const csv = ['e164,tier,evidence', `${a},pewc,`, `${b},pewc,${huge}`, `${b},pec,`].join('\r');
    const res = await upload(csv);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      rows: 3,
      imported: 2,
      duplicates: 0,
      rejected_count: 1,
      rejected: [{ line: 3, errors: ['record longer than 65536 characters'] }],
    });
    expect(await events(b)).toEqual([{ kind: 'grant', tier: 'pec' }]);
  });
});

describe('CSV import', () => {
  it('imports valid rows, reports rejected ones by line, and audits once', async () => {
    const [a, b, c] = [freshContact(), freshContact(), freshContact()];
    const csv = [
      'e164,tier,basis,source,captured_at,evidence,kind,reason',
      `${a},pewc,,web,2026-02-01T00:00:00Z,"{""certificate_id"":""c1""}",,`,
      `${b},ebr,transaction,crm,2026-01-15T00:00:00Z,,grant,`,
      `${c},,,,2026-02-20T00:00:00Z,,opt_out,"STOP, by text"`,
      `12345,pewc,,,,,,`,
      `${a},gold,,,,,,`,
      `${b},ebr,,,2026-09-01T00:00:00Z,,,`,
      `${c},pewc,,,,not json,,`,
      `${a},pewc,,,,`,
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      rows: 8,
      imported: 3,
      duplicates: 0,
      rejected_count: 5,
      rejected: [
        { line: 5, errors: ['e164: must be a possible phone number in E.164 form'] },
        { line: 6, errors: ['tier: must be pewc, pec or ebr'] },
        {
          line: 7,
          errors: [
            'basis: an ebr grant needs basis transaction or inquiry',
            'captured_at: must not be in the future',
          ],
        },
        { line: 8, errors: ['evidence: must be a JSON object'] },
        { line: 9, errors: ['expected 8 fields, got 6'] },
      ],
    });
    expect(await events(a)).toEqual([{ kind: 'grant', tier: 'pewc' }]);
    expect(await events(c)).toEqual([{ kind: 'opt_out', tier: null }]);
    const view = await adminCall(
      h,
      'GET',
      `/admin/orgs/${orgId}/consents/${encodeURIComponent(a)}`,
    );
    expect(view.history[0].evidence).toEqual({ certificate_id: 'c1' });
    const audit = await adminCall(h, 'GET', `/admin/orgs/${orgId}/audit?action=consent.imported`);
    expect(audit.items[0].detail).toEqual({ rows: 8, imported: 3, duplicates: 0, rejected: 5 });
  });

  it('adds nothing twice when the same file is imported again', async () => {
    const n = freshContact();
    const csv = `e164,tier,captured_at\n${n},pec,2026-02-01T00:00:00Z\n`;
    expect(json(await upload(csv))).toMatchObject({ imported: 1, duplicates: 0 });
    expect(json(await upload(csv))).toMatchObject({ imported: 0, duplicates: 1 });
    expect(await events(n)).toHaveLength(1);
  });

  it('rejects a bad header with 422 and imports nothing', async () => {
    const n = freshContact();
    const res = await upload(`phone,tier,tier\n${n},pewc,pewc\n`);
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((e: { msg: string }) => e.msg)).toEqual([
      'Value error, unknown column "phone"',
      'Value error, column "tier" appears twice',
      'Value error, the header must name an e164 column',
    ]);
    expect(json(await upload(''))).toMatchObject({
      detail: [{ msg: 'Value error, the file is empty: expected a header row' }],
    });
    expect(await events(n)).toHaveLength(0);
  });

  it('answers 415 for a body that is not text/csv, 404 for an unknown organization', async () => {
    const json415 = await upload('{"e164":"x"}', 'application/json');
    expect(json415.statusCode).toBe(415);
    expect(json415.body).toBe('{"detail":"unsupported_media_type"}');
    const missing = await upload('e164,tier\n', 'text/csv', 'org_missing');
    expect(missing.statusCode).toBe(404);
  });

  it('takes files far over the 64 KiB API limit', async () => {
    const lines = ['e164,tier,captured_at'];
    for (let i = 0; i < 3000; i++) lines.push(`${freshContact()},pewc,2026-02-01T00:00:00Z`);
    const res = await upload(lines.join('\n'));
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ rows: 3000, imported: 3000, rejected_count: 0 });
  });
});
