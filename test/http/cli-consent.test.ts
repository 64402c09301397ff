import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, useCliSuite } from '../helpers/cli.js';
import { adminCall, createTenant, json, type Tenant } from '../helpers/harness.js';
import { freshContact, touch } from '../helpers/outbound.js';

const suite = useCliSuite();
const { admin, quiet } = suite;

/** Wednesday 4 March 2026, 12:00 in San Francisco: quiet hours pass for a 415 number. */
const WEEKDAY_NOON_PT = '2026-03-04T20:00:00Z';

let t: Tenant;
beforeAll(async () => {
  suite.h.clock.set(WEEKDAY_NOON_PT);
  t = await createTenant(suite.h);
});

const dryRun = async (to: string) => {
  const res = await touch(suite.h, t.key, t.code, {
    to_e164: to,
    channel: 'sms',
    consent_basis: 'pewc',
    dry_run: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  const b = json(res);
  return { status: b.status, reasons: b.reasons.map((r: { code: string }) => r.code) };
};

/** Human output up to the history table, as `key: value` pairs. */
const standing = (out: string) =>
  Object.fromEntries(
    out
      .split('\nhistory')[0]!
      .split('\n')
      .map((l) => /^([a-z_0-9]+): +(.*)$/.exec(l)!.slice(1, 3)),
  );

describe('consent set / show / revoke', () => {
  it('round-trips through the API, and an outbound dry run sees each change', async () => {
    const contact = '+14155550123';
    expect(await dryRun(contact)).toEqual({ status: 'would_block', reasons: ['consent_missing'] });

    // The README quickstart line, exactly.
    const set = await admin([
      'consent',
      'set',
      t.orgId,
      contact,
      '--tier',
      'pewc',
      '--source',
      'web-form',
    ]);
    expect(set.code, set.err).toBe(0);
    expect(set.err).toBe('');
    expect(standing(set.out)).toMatchObject({
      org_id: t.orgId,
      e164: contact,
      status: 'active',
      tier_on_file: 'pewc',
    });
    expect(set.out).toMatch(
      /\nhistory:\nCAPTURED_AT +KIND +TIER .*\n2026-03-04T20:00:00\.000Z +grant +pewc +- +web-form /,
    );
    expect(await dryRun(contact)).toEqual({ status: 'would_queue', reasons: [] });

    const shown = await admin(['consent', 'show', t.orgId, contact, '--json']);
    expect(shown.code).toBe(0);
    const api = await adminCall(suite.h, 'GET', `/admin/orgs/${t.orgId}/consents/${contact}`);
    expect(JSON.parse(shown.out)).toEqual(api);
    expect(api.history).toHaveLength(1);
    expect(await quiet(['consent', 'show', t.orgId, contact])).toBe('active');

    suite.h.clock.advance(60);
    const revoked = await admin([
      'consent',
      'revoke',
      t.orgId,
      contact,
      '--kind',
      'opt_out',
      '--reason',
      'STOP by text',
    ]);
    expect(revoked.code, revoked.err).toBe(0);
    expect(standing(revoked.out)).toMatchObject({ status: 'revoked' });
    expect(revoked.out).toMatch(
      /\n2026-03-04T20:01:00\.000Z +opt_out +- +- +- +- +STOP by text +admin\n/,
    );
    expect(await dryRun(contact)).toEqual({ status: 'would_block', reasons: ['consent_revoked'] });
    expect(await quiet(['consent', 'show', t.orgId, contact])).toBe('revoked');
  });

  it('sends every grant field under the API name: ebr basis, dates and evidence (@file)', async () => {
    const contact = freshContact(415);
    const evidence = join(suite.dir, 'evidence.json');
    writeFileSync(evidence, '{"certificate_id":"cert-1","ip":"203.0.113.9"}');
    const r = await admin([
      'consent',
      'set',
      t.orgId,
      contact,
      '--tier',
      'ebr',
      '--basis',
      'transaction',
      '--captured-at',
      '2026-01-10T00:00:00Z',
      '--expires-at',
      '2026-06-01T00:00:00Z',
      '--evidence',
      `@${evidence}`,
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).history[0]).toMatchObject({
      kind: 'grant',
      tier: 'ebr',
      basis: 'transaction',
      captured_at: '2026-01-10T00:00:00.000Z',
      expires_at: '2026-06-01T00:00:00.000Z',
      evidence: { certificate_id: 'cert-1', ip: '203.0.113.9' },
    });
  });

  it('maps errors to exit codes and changes nothing on bad input', async () => {
    const contact = freshContact(415);
    const noBasis = await admin(['consent', 'set', t.orgId, contact, '--tier', 'ebr']);
    expect(noBasis).toMatchObject({ code: 1, out: '' });
    expect(noBasis.err).toContain(
      'body.basis: Value error, an ebr grant needs basis transaction or inquiry',
    );
    const badNumber = await admin(['consent', 'set', t.orgId, '12345', '--tier', 'pewc']);
    expect(badNumber.code).toBe(1);
    expect(badNumber.err).toMatch(/^error: invalid request \(422\)\n {2}path\.e164: /);
    const otherOrg = await admin(['consent', 'show', 'org_missing', contact]);
    expect(otherOrg.code).toBe(1);
    expect(otherOrg.err).toMatch(/^error: org_not_found \(404\)/);
    const badTier = await admin(['consent', 'set', t.orgId, contact, '--tier', 'gold']);
    expect(badTier.code).toBe(64);
    const badKind = await admin(['consent', 'revoke', t.orgId, contact, '--kind', 'later']);
    expect(badKind.code).toBe(64);
    expect(await quiet(['consent', 'show', t.orgId, contact])).toBe('none');
    const down = await cli(['consent', 'show', t.orgId, contact], {
      ...suite.env,
      ADMIN_URL: 'http://127.0.0.1:9',
    });
    expect(down.code).toBe(2);
    expect(down.err).toContain('error: cannot reach the admin API');
  });
});

describe('consent import', () => {
  const writeCsv = (name: string, rows: string[]) => {
    const file = join(suite.dir, name);
    writeFileSync(file, `${rows.join('\n')}\n`);
    return file;
  };

  it('uploads the file and prints the summary: imported count, rejected rows by line', async () => {
    const good = freshContact(415);
    const file = writeCsv('good-bad.csv', [
      'e164,tier,source,captured_at',
      `${good},pewc,import,2026-02-01T00:00:00Z`,
      '12345,gold,import,2026-02-01T00:00:00Z',
    ]);
    expect(await dryRun(good)).toEqual({ status: 'would_block', reasons: ['consent_missing'] });
    const r = await admin(['consent', 'import', t.orgId, file]);
    expect(r).toEqual({
      code: 65,
      err: '',
      out:
        'imported 1 of 2 rows; 0 already on file, 1 rejected\n' +
        '  line 3: e164: must be a possible phone number in E.164 form; tier: must be pewc, pec or ebr\n',
    });
    expect(await dryRun(good)).toEqual({ status: 'would_queue', reasons: [] });

    // Again: the row is on file, so nothing is imported; --json is the API's answer.
    const again = await admin(['consent', 'import', t.orgId, file, '--json']);
    expect(again.code).toBe(65);
    expect(JSON.parse(again.out)).toEqual({
      rows: 2,
      imported: 0,
      duplicates: 1,
      rejected_count: 1,
      rejected: [
        {
          line: 3,
          errors: [
            'e164: must be a possible phone number in E.164 form',
            'tier: must be pewc, pec or ebr',
          ],
        },
      ],
    });
    const other = writeCsv('one.csv', ['e164,tier', `${freshContact(415)},pec`]);
    expect(await quiet(['consent', 'import', t.orgId, other])).toBe('1');
    // Every row accepted (or already on file): exit 0 again.
    expect((await admin(['consent', 'import', t.orgId, other])).code).toBe(0);
  });

  it('exits 65 with -q too when a row is rejected, having imported the valid ones', async () => {
    const good = freshContact(415);
    const file = writeCsv('quiet-bad.csv', [
      'e164,tier',
      `${good},pewc`,
      `${good.slice(0, 5)},pec`,
    ]);
    const r = await cli(['consent', 'import', t.orgId, file, '-q'], suite.env);
    expect([r.code, r.out]).toEqual([65, '1\n']);
    expect(await dryRun(good)).toEqual({ status: 'would_queue', reasons: [] });
  });

  it('reports a file that cannot be read (64), a bad header (422, exit 1) and an unknown org', async () => {
    const missing = await admin(['consent', 'import', t.orgId, join(suite.dir, 'nope.csv')]);
    expect(missing.code).toBe(64);
    expect(missing.err).toMatch(/^error: cannot read .*nope\.csv \(ENOENT\)\n$/);
    const header = writeCsv('header.csv', ['phone,tier', '+14155550000,pewc']);
    const bad = await admin(['consent', 'import', t.orgId, header]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('error: invalid request (422)');
    expect(bad.err).toContain('unknown column "phone"');
    const noOrg = await admin(['consent', 'import', 'org_missing', header]);
    expect(noOrg.code).toBe(1);
    expect(noOrg.err).toMatch(/^error: org_not_found \(404\)/);
  });

  it('draws the upload, then the rows imported, on a terminal stderr only; erased before the summary', async () => {
    const rows = ['e164,tier,source,captured_at'];
    for (let i = 0; i < 3000; i++) rows.push(`${freshContact(415)},pewc,bulk,2026-02-01T00:00:00Z`);
    const file = writeCsv('bulk.csv', rows);
    const size = Buffer.byteLength(`${rows.join('\n')}\n`);
    const tty = await cli(['consent', 'import', t.orgId, file], suite.env, { stderr: true });
    expect(tty.code, tty.err).toBe(0);
    expect(tty.out).toBe('imported 3000 of 3000 rows; 0 already on file, 0 rejected\n');
    const percents = [...tty.err.matchAll(/\r\[[#-]{5,40}\] +(\d{1,3})% {2}/g)].map((m) =>
      Number(m[1]),
    );
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    expect(tty.err).toContain(
      `100%  ${(size / 1000).toFixed(1)} kB of ${(size / 1000).toFixed(1)} kB`,
    );
    // Once the file is sent, the line says the server is at work (and counts the seconds)
    // instead of a finished bar standing still until the answer.
    const waiting = tty.err.indexOf(
      `${(size / 1000).toFixed(1)} kB sent; the server is importing (0 s)`,
    );
    expect(waiting, tty.err).toBeGreaterThan(tty.err.lastIndexOf(' kB of '));
    // Then the server's progress through the rows (issue 18: nothing was shown while it
    // worked): rows done of the total, from 0, through rows in between, to all, with a rate.
    const rowLines = [
      ...tty.err.matchAll(
        /\r\[[#-]{5,30}\] +(\d{1,3})% {2}([\d,]+) of 3,000 rows(, [\d,]+ rows\/s)?/g,
      ),
    ].map((m) => ({ at: m.index, done: Number(m[2]!.replaceAll(',', '')), rate: m[3] }));
    expect(rowLines[0]).toMatchObject({ done: 0, rate: undefined });
    expect(rowLines[0]!.at).toBeGreaterThan(waiting);
    expect(rowLines.some((l) => l.done > 0 && l.done < 3000 && l.rate)).toBe(true);
    expect(rowLines.at(-1)).toMatchObject({ done: 3000, rate: expect.stringMatching(/rows\/s/) });
    expect(tty.err.endsWith('\r\x1b[K')).toBe(true);

    const plain = await admin(['consent', 'import', t.orgId, file]);
    expect(plain).toEqual({
      code: 0,
      err: '',
      out: 'imported 0 of 3000 rows; 3000 already on file, 0 rejected\n',
    });
    const quietTty = await cli(['consent', 'import', t.orgId, file, '-q'], suite.env, {
      stderr: true,
    });
    expect(quietTty).toEqual({ code: 0, out: '0\n', err: '' });
  });
});
