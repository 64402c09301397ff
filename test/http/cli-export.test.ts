import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, useCliSuite } from '../helpers/cli.js';
import { ADMIN_TOKEN, createTenant, dni, json, type Tenant } from '../helpers/harness.js';
import { report } from '../helpers/reports.js';

const suite = useCliSuite();
const { admin, quiet } = suite;

const SINCE = '2026-03-01T00:00:00Z';
const EXPORT_AT = '2026-03-10T12:00:00Z';
const OLD = { gclid: 'EAIaIQobChMI-cli_old', fbc: 'fb.1.1772463540000.IwAR-old' };
const FRESH = { gclid: 'EAIaIQobChMI-cli_fresh', fbc: 'fb.1.1773046740000.IwAR-fresh' };

let t: Tenant;
let freshEvent: string;
let visitor = 0;

/** A visitor's session a minute before the call, the call through the CLI, then a success report. */
async function convertedCall(at: string, clicks: Record<string, string>) {
  const h = suite.h;
  h.clock.ms = Date.parse(at) - 60_000;
  const session = await dni(h, t.key, {
    campaign_code: t.code,
    visitor_id: `visitor-${++visitor}`,
    ...clicks,
  });
  expect(session.statusCode).toBe(201);
  h.clock.set(at);
  const callId = await quiet([
    'call',
    'create',
    t.orgId,
    '--to',
    json(session).tracking_number,
    '--from',
    `+1212555${1000 + visitor}`,
  ]);
  h.clock.advance(600);
  const res = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: `report-${visitor}`,
    disposition: 'success',
  });
  expect(res.statusCode).toBe(201);
  return json(res).event_id as string;
}

beforeAll(async () => {
  t = await createTenant(suite.h, { numbers: 3 });
  await convertedCall('2026-03-02T15:00:00Z', OLD); // Google yes; Meta: older than 7 days
  await convertedCall('2026-03-09T09:00:00Z', {}); // no click id for either format
  freshEvent = await convertedCall('2026-03-09T10:00:00Z', FRESH);
  suite.h.clock.set(EXPORT_AT);
});

const exportArgs = (format: string, ...more: string[]) => [
  'export',
  'conversions',
  '--org',
  t.orgId,
  '--campaign',
  t.code,
  '--since',
  SINCE,
  '--format',
  format,
  ...more,
];

/** The file as the admin API serves it, to compare the CLI's bytes with. */
async function apiFile(format: string): Promise<string> {
  const res = await suite.h.admin.inject({
    url: `/admin/orgs/${t.orgId}/campaigns/${t.code}/exports/conversions?format=${format}&since=${SINCE}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
}

const GOOGLE_SUMMARY =
  'exported 2 of 3 conversions to %s; skipped: 1 without a click id, 0 older than 7 days\n';
const META_SUMMARY =
  'exported 1 of 3 conversions to %s; skipped: 1 without a click id, 1 older than 7 days\n';
const summary = (template: string, where: string) => template.replace('%s', where);

describe('export conversions --out', () => {
  it('writes the Google Ads CSV with the gclids, and a summary on stderr', async () => {
    const file = join(suite.dir, 'google.csv');
    const r = await admin(exportArgs('google-ads', '--out', file));
    expect(r).toEqual({ code: 0, out: '', err: summary(GOOGLE_SUMMARY, file) });
    const csv = readFileSync(file, 'utf8');
    expect(csv).toBe(await apiFile('google-ads'));
    const lines = csv.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'Parameters:TimeZone=UTC',
      'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
    ]);
    expect(lines.slice(2).map((l) => l.split(',')[0])).toEqual([OLD.gclid, FRESH.gclid]);
    expect(lines[3]).toBe(`${FRESH.gclid},Phone call,2026-03-09 10:00:00+0000,0,USD`);
  });

  it('writes the Meta events with our evt_ id and the fbc; older than 7 days left out', async () => {
    const file = join(suite.dir, 'meta.json');
    const r = await admin(exportArgs('meta', '--out', file));
    expect(r).toEqual({ code: 0, out: '', err: summary(META_SUMMARY, file) });
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(await apiFile('meta'));
    expect(JSON.parse(text).data).toEqual([
      {
        event_name: 'Lead',
        event_time: Date.parse('2026-03-09T10:00:00Z') / 1000,
        event_id: freshEvent,
        action_source: 'phone_call',
        user_data: { fbc: FRESH.fbc },
        custom_data: { value: 0, currency: 'USD' },
      },
    ]);
    expect(freshEvent).toMatch(/^evt_/);
  });

  it('replaces an existing file whole and leaves no temporary file', async () => {
    const dir = join(suite.dir, 'replace');
    const file = join(dir, 'out.csv');
    mkdirSync(dir);
    writeFileSync(file, 'previous content\n');
    expect((await admin(exportArgs('google-ads', '--out', file, '-q'))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(await apiFile('google-ads'));
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });
});

/** What stdout shows of a file: the file, ending with a line break so the prompt starts anew. */
const onStdout = (file: string) => (file.endsWith('\n') ? file : `${file}\n`);

describe('export conversions to stdout', () => {
  it('prints the file on stdout, ending with a line break, and the summary on stderr', async () => {
    for (const [format, template] of [
      ['google-ads', GOOGLE_SUMMARY],
      ['meta', META_SUMMARY],
    ] as const) {
      const r = await admin(exportArgs(format));
      expect(r).toEqual({
        code: 0,
        out: onStdout(await apiFile(format)),
        err: summary(template, 'stdout'),
      });
      expect(r.out.endsWith('\n')).toBe(true);
    }
  });

  it('--json puts the counts on stderr as JSON; -q prints only the file', async () => {
    const file = onStdout(await apiFile('meta'));
    expect(await admin(exportArgs('meta', '--json'))).toEqual({
      code: 0,
      out: file,
      err: '{"candidates":3,"rows":1,"skipped_no_click_id":1,"skipped_too_old":1}\n',
    });
    expect(await admin(exportArgs('meta', '-q'))).toEqual({ code: 0, out: file, err: '' });
  });
});

describe('progress bar', () => {
  const BAR = /\r\[[#-]{5,40}\] +(\d{1,3})% {2}/g;

  it('is drawn on a terminal stderr and erased before the summary; the file is unchanged', async () => {
    const plain = await admin(exportArgs('google-ads'));
    const r = await cli(exportArgs('google-ads'), suite.env, { stderr: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe(plain.out);
    const percents = [...r.err.matchAll(BAR)].map((m) => Number(m[1]));
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    const size = Buffer.byteLength(plain.out);
    expect(r.err).toContain(`[${'#'.repeat(40)}] 100%  ${size} B of ${size} B\x1b[K`);
    expect(r.err.endsWith(`\r\x1b[K${summary(GOOGLE_SUMMARY, 'stdout')}`)).toBe(true);

    const file = join(suite.dir, 'tty.csv');
    const toFile = await cli(exportArgs('google-ads', '--out', file), suite.env, { stderr: true });
    expect(toFile.err).toMatch(BAR);
    expect(readFileSync(file, 'utf8')).toBe(plain.out);
  });

  it('is not drawn when stderr is no terminal, under -q, or when stdout is the same terminal', async () => {
    const plain = await admin(exportArgs('meta'));
    expect(plain.err).not.toMatch(/[\r%]/);
    const quietRun = await cli(exportArgs('meta', '-q'), suite.env, { stderr: true });
    expect(quietRun).toEqual({ code: 0, out: plain.out, err: '' });
    const both = await cli(exportArgs('meta'), suite.env, { stderr: true, stdout: true });
    expect(both).toEqual(plain);
  });
});
