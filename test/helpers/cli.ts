import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { run } from '../../src/cli/run.js';
import { ADMIN_TOKEN, type Harness, type HarnessOptions, useHarness } from './harness.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export type Env = Record<string, string | undefined>;

/** Which of the CLI's outputs pretend to be a terminal. */
export interface Terminals {
  stdout?: boolean;
  stderr?: boolean;
}

/** Runs the CLI in this process with the given environment only (never this process's). */
export async function cli(
  args: string[],
  env: Env,
  tty: Terminals = {},
  stdin?: string,
): Promise<CliResult> {
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
    ...(stdin !== undefined ? { stdin: [Buffer.from(stdin)] } : {}),
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

/** The environment that points the CLI at the harness's listening admin API. */
export function cliEnv(h: Harness): Env {
  return { ADMIN_URL: h.url, ADMIN_TOKEN, DATA_DIR: mkdtempSync(join(tmpdir(), 'cli-')) };
}

/** A harness whose admin API listens on a socket (useHarness), and the CLI pointed at it. */
export function useCliSuite(options: Omit<HarnessOptions, 'listen'> = {}): CliSuite {
  const suite = { h: useHarness({ ...options, listen: 'admin' }) } as CliSuite;
  beforeAll(() => {
    suite.env = cliEnv(suite.h);
    suite.dir = suite.env.DATA_DIR!;
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
