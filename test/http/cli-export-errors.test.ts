import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { createTenant, type Tenant } from '../helpers/harness.js';

const suite = useCliSuite();
const { admin, quiet } = suite;

let t: Tenant;
beforeAll(async () => {
  t = await createTenant(suite.h);
});

interface Target {
  org?: string;
  campaign?: string;
  since?: string;
  format?: string;
}

const exportArgs = (o: Target, ...more: string[]) => [
  'export',
  'conversions',
  '--org',
  o.org ?? t.orgId,
  '--campaign',
  o.campaign ?? t.code,
  '--since',
  o.since ?? '2026-03-01T00:00:00Z',
  '--format',
  o.format ?? 'google-ads',
  ...more,
];

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const tmpFiles = () => readdirSync(suite.dir).filter((f) => f.endsWith('.tmp'));

describe('API errors: exit 1, nothing on stdout, --out left alone', () => {
  it("404 for an unknown campaign, another org's campaign, an unknown org", async () => {
    const other = await createTenant(suite.h);
    const file = join(suite.dir, 'kept.csv');
    writeFileSync(file, 'kept\n');
    const cases: [Target, string][] = [
      [{ campaign: 'zzz' }, 'campaign_not_found'],
      [{ campaign: other.code }, 'campaign_not_found'],
      [{ org: other.orgId }, 'campaign_not_found'],
      [{ org: 'org_missing' }, 'org_not_found'],
    ];
    for (const [target, detail] of cases) {
      expect(await admin(exportArgs(target, '--out', file))).toEqual({
        code: 1,
        out: '',
        err: `error: ${detail} (404)\n`,
      });
    }
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
    expect(tmpFiles()).toEqual([]);
    expect(await admin(exportArgs({ campaign: 'zzz', format: 'meta' }, '--json'))).toEqual({
      code: 1,
      out: '',
      err: '{"detail":"campaign_not_found"}\n',
    });
  });

  it("409 when the campaign's conversion settings are unusable", async () => {
    const other = await createTenant(suite.h);
    const config = '{"conversion":{"currency":"usd"}}';
    await quiet(['campaign', 'update', other.orgId, other.code, '--config', config]);
    expect(await admin(exportArgs({ org: other.orgId, campaign: other.code }))).toEqual({
      code: 1,
      out: '',
      err:
        'error: conflict (409)\n' +
        '  reason: conversion_config_invalid: conversion.currency must be an ISO 4217 code such as USD\n',
    });
  });

  it('422 for a --since the API does not take', async () => {
    const r = await admin(exportArgs({ since: 'last tuesday' }));
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toMatch(/^error: invalid request \(422\)\n {2}query\.since: .+\n$/);
  });
});

describe('usage and local errors', () => {
  it('64 before any request: bad or missing --format, missing --since', async () => {
    const file = join(suite.dir, 'usage.csv');
    const bad = await admin(exportArgs({ format: 'csv' }, '--out', file));
    expect(bad).toMatchObject({ code: 64, out: '' });
    expect(bad.err).toContain("argument 'csv' is invalid. Allowed choices are google-ads, meta.");
    const noFormat = await admin(exportArgs({}).slice(0, -2));
    expect(noFormat).toMatchObject({ code: 64, out: '' });
    expect(noFormat.err).toContain("required option '--format <format>' not specified");
    const noSince = await admin(['export', 'conversions', '--org', t.orgId, '--campaign', t.code]);
    expect(noSince).toMatchObject({ code: 64, out: '' });
    expect(noSince.err).toContain("required option '--since <iso>' not specified");
    expect(existsSync(file)).toBe(false);
  });

  it('74 when the --out file cannot be written', async () => {
    const file = join(suite.dir, 'no-such-dir', 'x.csv');
    expect(await admin(exportArgs({}, '--out', file))).toEqual({
      code: 74,
      out: '',
      err: `error: cannot write ${file} (ENOENT)\n`,
    });
  });
});

describe('transfer errors: exit 2', () => {
  /** Promises 1000 bytes, sends 10, then drops the connection. */
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '1000' });
      res.write('0123456789', () => setTimeout(() => res.destroy(), 20));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    if (server.listening) server.close();
  });

  it('a body cut short leaves --out as it was and says so', async () => {
    const file = join(suite.dir, 'cut.csv');
    writeFileSync(file, 'kept\n');
    const r = await admin(exportArgs({}, '--out', file, '--url', url));
    expect(r).toEqual({
      code: 2,
      out: '',
      err: expect.stringMatching(
        new RegExp(
          `^error: the answer from ${literal(url)}/admin/orgs/\\S+/exports/conversions\\?\\S+ ` +
            `broke off after 10 B \\(UND_ERR_SOCKET\\); ${literal(file)} was not written\\n$`,
        ),
      ),
    });
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
    expect(tmpFiles()).toEqual([]);
  });

  it('on stdout the bytes already written stay, and the output is called incomplete', async () => {
    const r = await admin(exportArgs({}, '--url', url));
    expect(r.code).toBe(2);
    expect(r.out).toBe('0123456789');
    expect(r.err).toMatch(/broke off after 10 B \(UND_ERR_SOCKET\); the output is incomplete\n$/);
  });

  it('nothing listening: the usual cannot-reach message, and no file', async () => {
    const file = join(suite.dir, 'unreached.csv');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const r = await admin(exportArgs({}, '--out', file, '--url', url));
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toMatch(/^error: cannot reach the admin API at \S+ \(ECONNREFUSED\)\nhint: /);
    expect(existsSync(file)).toBe(false);
    expect(tmpFiles()).toEqual([]);
  });
});
