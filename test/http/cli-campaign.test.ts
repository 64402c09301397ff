import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldsOf, useCliSuite } from '../helpers/cli.js';
import { dni, freshCode, freshNumbers, json } from '../helpers/harness.js';

const suite = useCliSuite();
const { admin, quiet, newOrg } = suite;

describe('campaign', () => {
  it('help states the 3-character code limit and why a longer code is 422, not 404', async () => {
    for (const argv of [
      ['campaign', '--help'],
      ['campaign', 'create', '--help'],
    ]) {
      const r = await admin(argv);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('Campaign codes are 1 to 3 characters');
      expect(r.out).toContain('4-character code');
      expect(r.out).toContain('is 422 (string_too_long');
    }
  });

  it('create takes every field, --config from @file; show prints the same', async () => {
    const org = await newOrg();
    const [a, b, over, fwd] = freshNumbers(4);
    const code = freshCode();
    const file = join(suite.dir, 'config.json');
    writeFileSync(file, '{"hours": [8, 18], "vertical": "hvac"}');
    const r = await admin([
      'campaign',
      'create',
      org,
      '--code',
      code,
      '--name',
      'Spring',
      '--numbers',
      `${b},${a}`,
      '--overflow-number',
      over!,
      '--forward-to',
      fwd!,
      '--session-ttl',
      '900',
      '--report-window-days',
      '7',
      '--config',
      `@${file}`,
    ]);
    expect(r).toMatchObject({ code: 0, err: '' });
    const expected = {
      code,
      name: 'Spring',
      numbers: [a, b].sort().join(', '),
      overflow_number: over,
      forward_to: fwd,
      session_ttl_seconds: '900',
      report_window_days: '7',
      config: '{"hours":[8,18],"vertical":"hvac"}',
    };
    expect(fieldsOf(r.out)).toMatchObject(expected);
    expect(fieldsOf((await admin(['campaign', 'show', org, code])).out)).toEqual(fieldsOf(r.out));
  });

  it('create -q prints the code; update changes the given fields and clears with --no-…', async () => {
    const org = await newOrg();
    const [a, b, c, over] = freshNumbers(4);
    const code = freshCode();
    expect(
      await quiet([
        'campaign',
        'create',
        org,
        '--code',
        code,
        '--name',
        'C',
        '--numbers',
        a!,
        '--overflow-number',
        over!,
      ]),
    ).toBe(code);
    const r = await admin([
      'campaign',
      'update',
      org,
      code,
      '--name',
      'Renamed',
      '--numbers',
      `${b},${c}`,
      '--no-overflow-number',
      '--config',
      '{"x":1}',
      '--json',
    ]);
    expect(JSON.parse(r.out)).toMatchObject({
      name: 'Renamed',
      numbers: [b, c].sort(),
      overflow_number: null,
      config: { x: 1 },
      session_ttl_seconds: 1800,
    });
  });

  it('add-numbers keeps the pool and adds to it', async () => {
    const org = await newOrg();
    const [a, b, c] = freshNumbers(3);
    const code = freshCode();
    await quiet(['campaign', 'create', org, '--code', code, '--name', 'C', '--numbers', a!]);
    expect(await quiet(['campaign', 'add-numbers', org, code, '--numbers', `${b},${c}`])).toBe(
      code,
    );
    const shown = JSON.parse((await admin(['campaign', 'show', org, code, '--json'])).out);
    expect(shown.numbers).toEqual([a, b, c].sort());
  });

  it("another org's campaign is not found", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const code = freshCode();
    await quiet([
      'campaign',
      'create',
      org,
      '--code',
      code,
      '--name',
      'C',
      '--numbers',
      freshNumbers(1)[0]!,
    ]);
    const r = await admin(['campaign', 'show', other, code]);
    expect(r).toEqual({ code: 1, out: '', err: 'error: campaign_not_found (404)\n' });
  });
});

describe('call', () => {
  it('create attributes a call to the session that holds the number', async () => {
    const org = await newOrg();
    const code = freshCode();
    const numbers = freshNumbers(1);
    await quiet([
      'campaign',
      'create',
      org,
      '--code',
      code,
      '--name',
      'C',
      '--numbers',
      numbers[0]!,
    ]);
    const apiKey = await quiet(['key', 'create', org, '--scopes', 'enroll']);
    const session = json(await dni(suite.h, apiKey, { campaign_code: code, visitor_id: 'v' }));
    const r = await admin([
      'call',
      'create',
      org,
      '--to',
      session.tracking_number,
      '--from',
      '+14155550100',
    ]);
    expect(fieldsOf(r.out)).toMatchObject({
      campaign_code: code,
      dni_session_id: session.dni_session_id,
      attribution: 'session',
    });
    const id = await quiet([
      'call',
      'create',
      org,
      '--to',
      numbers[0]!,
      '--from',
      '+14155550101',
      '--started-at',
      '2026-03-02T14:59:00Z',
    ]);
    const [row] = await suite.h.store.query<{ started_at: Date }>(
      'select started_at from calls where id = $1',
      [id],
    );
    expect(new Date(row!.started_at).toISOString()).toBe('2026-03-02T14:59:00.000Z');
  });
});

describe('audit', () => {
  it('lists newest first, filters by action and time, and pages with the cursor', async () => {
    suite.h.clock.set('2026-04-01T10:00:00Z');
    const org = await quiet(['org', 'create', '--name', 'Audited']);
    suite.h.clock.set('2026-04-01T11:00:00Z');
    await quiet(['key', 'create', org, '--scopes', 'enroll']);
    suite.h.clock.set('2026-04-01T12:00:00Z');
    await quiet(['org', 'update', org, '--name', 'Audited 2']);

    const all = await admin(['audit', org]);
    const lines = all.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT +ACTION +SUBJECT +ACTOR +REQUEST +DETAIL$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[1])).toEqual([
      'org.updated',
      'key.issued',
      'org.created',
    ]);
    expect(lines[1]).toContain(`org ${org}`);

    const page = JSON.parse((await admin(['audit', org, '--action', 'key.issued', '--json'])).out);
    expect(page.items.map((e: { action: string }) => e.action)).toEqual(['key.issued']);
    const window = JSON.parse(
      (
        await admin([
          'audit',
          org,
          '--since',
          '2026-04-01T10:30:00Z',
          '--until',
          '2026-04-01T11:30:00Z',
          '--json',
        ])
      ).out,
    );
    expect(window.items.map((e: { at: string }) => e.at)).toEqual(['2026-04-01T11:00:00.000Z']);

    const first = await admin(['audit', org, '--limit', '2']);
    const cursor = /more: add --cursor (\S+)$/.exec(first.out.trimEnd())![1]!;
    expect(await quiet(['audit', org, '--limit', '2'])).toBe(cursor);
    const rest = await admin(['audit', org, '--limit', '2', '--cursor', cursor, '--json']);
    expect(JSON.parse(rest.out)).toMatchObject({
      items: [{ action: 'org.created' }],
      next_cursor: null,
    });
    expect(await admin(['audit', org, '--limit', '2', '--cursor', cursor, '-q'])).toEqual({
      code: 0,
      out: '',
      err: '',
    });
  });

  it('--subject-id keeps one subject; --action takes a prefix ending in *', async () => {
    const org = await newOrg();
    const first = JSON.parse(
      (await admin(['key', 'create', org, '--scopes', 'enroll', '--json'])).out,
    );
    await quiet(['key', 'create', org, '--scopes', 'execute']);
    await quiet(['key', 'scopes', first.key_id, '--scopes', 'execute']);
    const page = async (...args: string[]) =>
      JSON.parse((await admin(['audit', org, ...args, '--json'])).out).items.map(
        (e: { action: string; subject_id: string }) => `${e.action} ${e.subject_id}`,
      );
    expect(await page('--subject-id', first.key_id)).toEqual([
      `key.scopes_changed ${first.key_id}`,
      `key.issued ${first.key_id}`,
    ]);
    const keys = await page('--action', 'key.*');
    expect(keys.map((e: string) => e.split(' ')[0])).toEqual([
      'key.scopes_changed',
      'key.issued',
      'key.issued',
    ]);
    expect(await page('--action', 'key.*', '--subject-id', org)).toEqual([]);
    expect(await page('--action', 'org.*', '--subject-id', org)).toEqual([`org.created ${org}`]);
  });
});
