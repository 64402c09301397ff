import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, useCliSuite } from '../helpers/cli.js';
import { freshContact } from '../helpers/outbound.js';

const suite = useCliSuite();
const { admin, quiet } = suite;

const write = (name: string, lines: string[]) => {
  const file = join(suite.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};

describe('suppression import / add / show / remove', () => {
  it('imports a registry file and prints the counts and rejected lines', async () => {
    const org = await suite.newOrg();
    const [a, b] = [freshContact(), freshContact()];
    const file = write('national.txt', [a.slice(2), `${b.slice(2, 5)},${b.slice(5)}`, 'x1']);
    const r = await admin([
      'suppression',
      'import',
      org,
      file,
      '--list',
      'national',
      '--list-date',
      '2026-02-01',
    ]);
    // The valid lines are in, but a rejected line fails the run (65), as consent import does.
    expect(r).toEqual({
      code: 65,
      err: '',
      out:
        'national list dated 2026-02-01: 3 rows, 2 added, 0 removed, 1 rejected\n' +
        '  line 3: not a phone number: x1\n',
    });
    const show = await admin(['suppression', 'show', org, b, '--list', 'national']);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain('list_date: 2026-02-01');
    const change = write('change.txt', [`${a.slice(2)},D`]);
    expect(await quiet(['suppression', 'import', org, change, '--list', 'national'])).toBe('0');
    const gone = await admin(['suppression', 'show', org, a, '--list', 'national']);
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('404');
  });

  it('adds and removes one entry with a reason; a missing file is a usage error', async () => {
    const org = await suite.newOrg();
    const n = freshContact();
    expect(await quiet(['suppression', 'add', org, n, '--list', 'internal'])).toBe(n);
    const noReason = await admin(['suppression', 'remove', org, n, '--list', 'internal']);
    expect(noReason.code).not.toBe(0);
    const rm = await admin([
      'suppression',
      'remove',
      org,
      n,
      '--list',
      'internal',
      '--reason',
      'asked twice',
    ]);
    expect(rm.code, rm.err).toBe(0);
    expect(rm.out).toMatch(/^reason: +asked twice$/m);
    const missing = await admin([
      'suppression',
      'import',
      org,
      join(suite.dir, 'nope.txt'),
      '--list',
      'internal',
    ]);
    expect(missing.code).toBe(64);
  });

  it('draws a progress bar on a terminal', async () => {
    const org = await suite.newOrg();
    const file = write('tty.txt', [freshContact().slice(2)]);
    const tty = await cli(['suppression', 'import', org, file, '--list', 'litigator'], suite.env, {
      stderr: true,
    });
    expect(tty.code, tty.err).toBe(0);
    expect(tty.err).toContain('100%');
  });
});
