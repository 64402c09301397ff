import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliEnv, type Env } from '../helpers/cli.js';
import {
  ADMIN_TOKEN,
  freshCode,
  freshNumbers,
  type Harness,
  useHarness,
} from '../helpers/harness.js';
import { tsxArgs } from '../helpers/processes.js';

const h: Harness = useHarness({ listen: 'admin' });
let url: string;
let env: Env;
beforeAll(() => {
  url = h.url;
  env = cliEnv(h);
});

const admin = (args: string[]) => cli(args, env);

async function newOrg(): Promise<string> {
  const r = await admin(['org', 'create', '--name', 'Errors', '-q']);
  expect(r.code, r.err).toBe(0);
  return r.out.trim();
}

const auditCount = async (org: string) =>
  (await h.store.query('select 1 from audit_log where org_id = $1', [org])).length;

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

describe('API errors: stderr, exit 1, nothing written', () => {
  it('422 prints one loc: msg line per error', async () => {
    const org = await newOrg();
    const code = freshCode();
    const r = await admin([
      'campaign',
      'create',
      org,
      '--code',
      code,
      '--name',
      '',
      '--numbers',
      '12,+1415555',
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    const lines = r.err.trimEnd().split('\n');
    expect(lines[0]).toBe('error: invalid request (422)');
    expect(lines.slice(1).map((l) => l.split(':')[0])).toEqual(
      expect.arrayContaining(['  body.name', '  body.numbers.0', '  body.numbers.1']),
    );
    expect(lines.slice(1).every((l) => /^ {2}body\.[a-z_.0-9]+: \S/.test(l))).toBe(true);
    expect((await admin(['campaign', 'show', org, code])).code).toBe(1);
  });

  it('--json puts the error body on stderr as the API sent it', async () => {
    const r = await admin(['org', 'show', 'org_missing', '--json']);
    expect(r).toEqual({ code: 1, out: '', err: '{"detail":"org_not_found"}\n' });
  });

  it('409 shows the reason the API gave', async () => {
    const org = await newOrg();
    const [n] = freshNumbers(1);
    const code = freshCode();
    await admin(['campaign', 'create', org, '--code', code, '--name', 'A', '--numbers', n!]);
    const before = await auditCount(org);
    const r = await admin([
      'campaign',
      'create',
      org,
      '--code',
      freshCode(),
      '--name',
      'B',
      '--numbers',
      n!,
    ]);
    expect(r).toEqual({
      code: 1,
      out: '',
      err: `error: conflict (409)\n  reason: number_in_use: ${n}\n`,
    });
    expect(await auditCount(org)).toBe(before);
  });

  it('404 for an unknown tracking number on call create', async () => {
    const org = await newOrg();
    const r = await admin([
      'call',
      'create',
      org,
      '--to',
      freshNumbers(1)[0]!,
      '--from',
      '+14155550100',
    ]);
    expect(r).toEqual({ code: 1, out: '', err: 'error: number_not_found (404)\n' });
  });

  it('a query parameter error names the query field', async () => {
    const r = await admin(['audit', await newOrg(), '--limit', '0']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^ {2}query\.limit: .+$/m);
  });
});

describe('token and URL resolution', () => {
  it('reads DATA_DIR/admin-token when ADMIN_TOKEN is unset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-token-'));
    writeFileSync(join(dir, 'admin-token'), `${ADMIN_TOKEN}\n`, { mode: 0o600 });
    const r = await cli(['org', 'create', '--name', 'FromFile', '-q'], {
      ADMIN_URL: url,
      DATA_DIR: dir,
    });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^org_\S+\n$/);
  });

  it('without a token anywhere: exit 2, and no token file is created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-none-'));
    const r = await cli(['org', 'show', 'org_x'], { ADMIN_URL: url, DATA_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`no admin token: set ADMIN_TOKEN or pass --token`);
    expect(r.err).toContain(join(dir, 'admin-token'));
    expect(existsSync(join(dir, 'admin-token'))).toBe(false);
  });

  it('a wrong token is a 401 with a hint; --token overrides ADMIN_TOKEN', async () => {
    const wrong = { ...env, ADMIN_TOKEN: 'adm_wrong' };
    const r = await cli(['org', 'create', '--name', 'X'], wrong);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: invalid_admin_token \(401\)\nhint: .*ADMIN_TOKEN/);
    expect(
      (await cli(['org', 'create', '--name', 'X', '--token', ADMIN_TOKEN, '-q'], wrong)).code,
    ).toBe(0);
  });

  it('--url overrides ADMIN_URL; without either, ADMIN_PORT gives the default URL', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const r = await cli(['org', 'create', '--name', 'U', '--url', url, '-q'], {
      ...env,
      ADMIN_URL: closed,
    });
    expect(r.code).toBe(0);
    const port = new URL(url).port;
    const byPort = await cli(['org', 'create', '--name', 'P', '-q'], {
      ADMIN_TOKEN,
      ADMIN_PORT: port,
    });
    expect(byPort.code).toBe(0);
  });

  it('connection refused: exit 2 with a start-the-server hint', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const r = await cli(['org', 'show', 'org_x'], { ...env, ADMIN_URL: closed });
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      `cannot reach the admin API at ${closed}/admin/orgs/org_x (ECONNREFUSED)`,
    );
    expect(r.err).toContain('is the server running? start it with npm start');
  });

  it('a malformed ADMIN_URL is a configuration error (exit 2)', async () => {
    const r = await cli(['org', 'show', 'x'], { ...env, ADMIN_URL: 'ftp://host' });
    expect(r).toEqual({
      code: 2,
      out: '',
      err: 'configuration error: ADMIN_URL must start with http:// or https://\n',
    });
  });
});

describe('usage errors exit 64 and send nothing', () => {
  it.each([
    ['unknown command', ['frobnicate']],
    ['missing required option', ['org', 'create']],
    ['missing argument', ['org', 'show']],
    ['excess argument', ['org', 'show', 'a', 'b']],
    ['group without a command', ['key']],
    ['non-integer', ['org', 'create', '--name', 'N', '--rate-limit', 'ten']],
    [
      'both tracking flags',
      ['org', 'update', 'org_x', '--tracking-enabled', '--tracking-disabled'],
    ],
    ['nothing to change', ['org', 'update', 'org_x']],
    ['campaign nothing to change', ['campaign', 'update', 'org_x', 'abc']],
    ['bad --config JSON', ['campaign', 'update', 'org_x', 'abc', '--config', '{nope']],
    ['missing --config file', ['campaign', 'update', 'org_x', 'abc', '--config', '@/no/such.json']],
    ['--json with -q', ['org', 'show', 'org_x', '--json', '-q']],
    ['bad --url', ['org', 'show', 'org_x', '--url', 'nota url']],
  ])('%s', async (_name, args) => {
    const r = await cli(args, { ...env, ADMIN_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/error|Usage/);
    expect(r.err).not.toContain('cannot reach');
  });

  it('--help exits 0 and lists every command group', async () => {
    const r = await admin(['--help']);
    expect(r.code).toBe(0);
    for (const group of ['org', 'key', 'campaign', 'call', 'audit']) {
      expect(r.out).toMatch(new RegExp(`^ {2}${group} `, 'm'));
    }
  });
});

describe('process entry', () => {
  it('runs as a child process and passes the exit code on', async () => {
    const org = await newOrg();
    const run = (args: string[]) =>
      // The sources under tsx's loader in node itself: no npx in front to start first.
      promisify(execFile)(process.execPath, [...tsxArgs('src/cli/main.ts'), ...args], {
        env: { ...process.env, ...env },
      }).then(
        (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
        (e) => ({ code: e.code as number, out: e.stdout as string, err: e.stderr as string }),
      );
    const ok = await run(['org', 'show', org, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ org_id: org, name: 'Errors' });
    const missing = await run(['org', 'show', 'org_missing']);
    expect(missing).toMatchObject({ code: 1, out: '' });
    expect(missing.err).toContain('error: org_not_found (404)');
  });
});
