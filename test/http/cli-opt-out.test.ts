import { describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { adminCall } from '../helpers/harness.js';

const suite = useCliSuite();
const { admin, newOrg } = suite;

describe('org update --opt-out-phrase', () => {
  it('sets the list (repeatable, replacing it) and --no-opt-out-phrases clears it', async () => {
    const org = await newOrg();
    const set = await admin([
      'org',
      'update',
      org,
      '--opt-out-phrase',
      'No más',
      '--opt-out-phrase',
      'leave me alone',
      '--json',
    ]);
    expect(set, set.err).toMatchObject({ code: 0 });
    expect(JSON.parse(set.out).opt_out_phrases).toEqual(['No más', 'leave me alone']);
    const cleared = await admin(['org', 'update', org, '--no-opt-out-phrases', '--json']);
    expect(JSON.parse(cleared.out).opt_out_phrases).toEqual([]);
    expect((await adminCall(suite.h, 'GET', `/admin/orgs/${org}`)).opt_out_phrases).toEqual([]);
  });

  it('reports a phrase without letters as the API does, changing nothing', async () => {
    const org = await newOrg();
    const r = await admin(['org', 'update', org, '--opt-out-phrase', '!!!']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('opt_out_phrases');
    expect((await adminCall(suite.h, 'GET', `/admin/orgs/${org}`)).opt_out_phrases).toEqual([]);
  });
});

describe('org update --opt-out-clarification', () => {
  it('turns the one-time clarification text on, and --no-opt-out-clarification off', async () => {
    const org = await newOrg();
    const on = await admin(['org', 'update', org, '--opt-out-clarification', '--json']);
    expect(on, on.err).toMatchObject({ code: 0 });
    expect(JSON.parse(on.out).opt_out_clarification).toBe(true);
    expect((await adminCall(suite.h, 'GET', `/admin/orgs/${org}`)).opt_out_clarification).toBe(
      true,
    );
    const off = await admin(['org', 'update', org, '--no-opt-out-clarification', '--json']);
    expect(JSON.parse(off.out).opt_out_clarification).toBe(false);
    const help = await admin(['org', 'update', '--help']);
    expect(help.out).toContain('--opt-out-clarification');
  });
});
