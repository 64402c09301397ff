import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { run } from '../../src/cli/run.js';
import { ADMIN_TOKEN, type Harness, openHarness } from './harness.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export type Env = Record<string, string | undefined>;

/** Puts the harness's admin app on a real socket, as the CLI needs one; h.close() closes it. */
export async function listenAdmin(h: Harness): Promise<string> {
  await h.admin.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.admin.server.address() as AddressInfo).port}`;
}

/** Which of the CLI's outputs pretend to be a terminal. */
export interface Terminals {
  stdout?: boolean;
  stderr?: boolean;
}

/** Runs the CLI in this process with the given environment only (never this process's). */
export async function cli(args: string[], env: Env, tty: Terminals = {}): Promise<CliResult> {
  // Bytes, decoded once at the end: a chunk may end inside a UTF-8 character.
  const out: Buffer[] = [];
  let err = '';
  const code = await run(args, {
    stdout: { write: (s) => out.push(Buffer.from(s)), isTTY: tty.stdout ?? false },
    stderr: {
      write: (s) => (err += Buffer.from(s).toString('utf8')),
      isTTY: tty.stderr ?? false,
      columns: 80,
    },
    env,
  });
  return { code, out: Buffer.concat(out).toString('utf8'), err };
}

/** Parses human `key: value` output, checking that the values share one column. */
export function fieldsOf(out: string): Record<string, string> {
  const lines = out.trimEnd().split('\n');
  const rows = lines.map((l) => /^([a-z_0-9]+):( +)(.*)$/.exec(l));
  expect(
    rows.every((r) => r !== null),
    out,
  ).toBe(true);
  const columns = new Set(rows.map((r) => r![1]!.length + r![2]!.length));
  expect(columns.size, out).toBe(1);
  return Object.fromEntries(rows.map((r) => [r![1]!, r![3]!]));
}

export interface CliSuite {
  h: Harness;
  env: Env;
  dir: string;
  admin(args: string[]): Promise<CliResult>;
  /** Runs a command that must succeed with -q and returns the one value it printed. */
  quiet(args: string[]): Promise<string>;
  newOrg(): Promise<string>;
}

/** A harness whose admin API listens on a socket, opened before and closed after the file's tests. */
export function useCliSuite(): CliSuite {
  const suite = {} as CliSuite;
  beforeAll(async () => {
    suite.h = await openHarness();
    suite.dir = mkdtempSync(join(tmpdir(), 'cli-'));
    suite.env = { ADMIN_URL: await listenAdmin(suite.h), ADMIN_TOKEN, DATA_DIR: suite.dir };
  });
  afterAll(async () => {
    await suite.h.close();
  });
  suite.admin = (args) => cli(args, suite.env);
  suite.quiet = async (args) => {
    const r = await suite.admin([...args, '-q']);
    expect(r, r.err).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^\S+\n$/);
    return r.out.trim();
  };
  suite.newOrg = () => suite.quiet(['org', 'create', '--name', 'Acme', '--tracking-enabled']);
  return suite;
}
