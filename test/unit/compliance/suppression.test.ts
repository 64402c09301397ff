import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CampaignComplianceConfig,
  type ConsentBasis,
  evaluateTouch,
  type SuppressionFacts,
  type SuppressionHit,
  type TouchInput,
} from '../../../src/domain/compliance/index.js';

const NOW = '2026-06-10T15:00:00Z'; // Wednesday 11:00 EDT
const FRESH = '2026-06-01';
const hit = (list: SuppressionHit['list'], state: string | null = null): SuppressionHit => ({
  list,
  listed_on: '2026-05-30',
  source: `test:${list}`,
  state,
});
const facts = (o: Partial<SuppressionFacts> = {}): SuppressionFacts => ({
  hits: [],
  national_list_date: FRESH,
  litigator_blocks: true,
  rnd: [],
  ...o,
});
const decide = (
  tier: ConsentBasis,
  suppression: SuppressionFacts | undefined,
  o: { channel?: TouchInput['channel']; config?: CampaignComplianceConfig; to?: string } = {},
) =>
  evaluateTouch(
    {
      to_e164: o.to ?? '+12015550100',
      channel: o.channel ?? 'call',
      consent_basis: tier,
      records: [{ id: 'c1', tier, captured_at: '2026-01-05T10:00:00Z', ebr_basis: 'transaction' }],
      revocations: [],
      history: [],
      ...(o.config ? { config: o.config } : {}),
      ...(suppression ? { suppression } : {}),
    },
    Date.parse(NOW),
  );
const codes = (d: ReturnType<typeof decide>) => d.reasons.map((r) => r.code);
const INFO: CampaignComplianceConfig = { purpose: 'informational' };

describe('national and state do-not-call lists (Part B §4.3)', () => {
  it('block a pec marketing touch with dnc_listed, list and list date in checks', () => {
    const d = decide('pec', facts({ hits: [hit('national')] }));
    expect(codes(d)).toEqual(['consent_insufficient', 'dnc_listed']);
    expect(d.checks.suppression.entries).toEqual([{ ...hit('national'), blocks: true }]);
  });

  it('let pewc through, still reporting the entry', () => {
    const d = decide('pewc', facts({ hits: [hit('national'), hit('state', 'NJ')] }));
    expect(d.allowed).toBe(true);
    expect(d.checks.suppression.entries.map((e) => e.blocks)).toEqual([false, false]);
  });

  it('let an ebr agent-dialed call through, but not an ebr text or an unattested call', () => {
    const listed = facts({ hits: [hit('state', 'NJ')] });
    const agent = { agent_dialed: true, required_tier: {} };
    expect(codes(decide('ebr', listed, { config: agent }))).toEqual(['consent_insufficient']);
    expect(codes(decide('ebr', listed, { config: agent, channel: 'sms' }))).toContain('dnc_listed');
    expect(codes(decide('ebr', listed))).toContain('dnc_listed');
  });

  it('do not bind informational touches', () => {
    expect(decide('pec', facts({ hits: [hit('national')] }), { config: INFO }).allowed).toBe(true);
  });
});

describe('ebr within its window (Part B §4.3)', () => {
  const ebr = (captured_at: string) =>
    evaluateTouch(
      {
        to_e164: '+12015550100',
        channel: 'call',
        consent_basis: 'ebr',
        records: [{ id: 'c1', tier: 'ebr', captured_at, ebr_basis: 'inquiry' }],
        revocations: [],
        history: [],
        config: { agent_dialed: true, required_tier: {} },
        suppression: facts({ hits: [hit('national')] }),
      },
      Date.parse(NOW),
    );

  it('an inquiry ebr inside its 3 months passes a national entry; one past it is dnc_listed', () => {
    // Required tier for an agent-dialed marketing call stays pewc, so consent fails either way;
    // what the window decides is whether the list entry also blocks.
    const inside = ebr('2026-04-01T00:00:00Z');
    expect(inside.checks.suppression.entries.map((e) => e.blocks)).toEqual([false]);
    expect(codes(inside)).not.toContain('dnc_listed');
    const past = ebr('2026-02-01T00:00:00Z');
    expect(past.checks.consent.tier_on_file).toBe('none');
    expect(codes(past)).toContain('dnc_listed');
  });
});

describe('internal list and litigators', () => {
  it('the internal list blocks every touch, informational and pewc too', () => {
    expect(codes(decide('pewc', facts({ hits: [hit('internal')] })))).toEqual(['dnc_listed']);
    expect(codes(decide('pec', facts({ hits: [hit('internal')] }), { config: INFO }))).toEqual([
      'dnc_listed',
    ]);
  });

  it('a litigator hit blocks marketing, even pewc, unless the organization turns it off', () => {
    expect(codes(decide('pewc', facts({ hits: [hit('litigator')] })))).toEqual([
      'litigator_listed',
    ]);
    const off = facts({ hits: [hit('litigator')], litigator_blocks: false });
    expect(decide('pewc', off).allowed).toBe(true);
    expect(decide('pec', facts({ hits: [hit('litigator')] }), { config: INFO }).allowed).toBe(true);
  });
});

describe('freshness of the national list', () => {
  it('blocks a marketing touch below pewc when the copy is missing or over 31 days old', () => {
    expect(codes(decide('pec', facts({ national_list_date: null })))).toContain('dnc_list_stale');
    // 2026-05-10 is 31 days before 2026-06-10 (still fresh); 2026-05-09 is 32.
    expect(codes(decide('pec', facts({ national_list_date: '2026-05-10' })))).not.toContain(
      'dnc_list_stale',
    );
    expect(codes(decide('pec', facts({ national_list_date: '2026-05-09' })))).toContain(
      'dnc_list_stale',
    );
  });

  it('never blocks pewc, informational touches, or a campaign that turned the scrub off', () => {
    expect(decide('pewc', facts({ national_list_date: null })).allowed).toBe(true);
    expect(decide('pec', facts({ national_list_date: null }), { config: INFO }).allowed).toBe(true);
    const off = decide('pec', facts({ national_list_date: null }), {
      config: { dnc_scrub: false },
    });
    expect(codes(off)).toEqual(['consent_insufficient']);
    expect(off.checks.suppression.scrub_required).toBe(false);
  });

  it('agrees with a direct reading of the rule for any list date', () => {
    const start = Date.UTC(2026, 3, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 80 }),
        fc.constantFrom<ConsentBasis>('pewc', 'pec'),
        (days, tier) => {
          const date = new Date(start + days * 86_400_000).toISOString().slice(0, 10);
          const ageDays = (Date.parse('2026-06-10') - Date.parse(date)) / 86_400_000;
          const stale = codes(decide(tier, facts({ national_list_date: date }))).includes(
            'dnc_list_stale',
          );
          expect(stale).toBe(tier !== 'pewc' && ageDays > 31);
        },
      ),
    );
  });
});

describe('every list rule agrees with a direct reading of Part B §4.3', () => {
  const LISTS = ['internal', 'national', 'state', 'litigator'] as const;
  const DAY = 86_400_000;
  const now = Date.parse(NOW);

  it('for any tier, channel, purpose, lists, litigator setting, scrub and list age', () => {
    fc.assert(
      fc.property(
        fc.record({
          tier: fc.constantFrom<ConsentBasis>('pewc', 'pec', 'ebr'),
          // Days before NOW the consent was captured; 100 is past an inquiry ebr's 3 months,
          // 600 past a transaction ebr's 18.
          capturedDaysAgo: fc.constantFrom(10, 100, 600),
          ebrBasis: fc.constantFrom<'transaction' | 'inquiry'>('transaction', 'inquiry'),
          channel: fc.constantFrom<TouchInput['channel']>('call', 'sms', 'voicemail'),
          marketing: fc.boolean(),
          agentDialed: fc.boolean(),
          lists: fc.subarray([...LISTS]),
          litigatorBlocks: fc.boolean(),
          scrub: fc.boolean(),
          listAgeDays: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        }),
        (c) => {
          const capturedAt = now - c.capturedDaysAgo * DAY;
          const windowDays = c.ebrBasis === 'transaction' ? 18 * 30 : 3 * 30;
          const current = c.tier !== 'ebr' || c.capturedDaysAgo < windowDays;
          const tierOnFile = current ? c.tier : 'none';
          const d = evaluateTouch(
            {
              to_e164: '+12015550100',
              channel: c.channel,
              consent_basis: 'ebr',
              records: [
                {
                  id: 'c1',
                  tier: c.tier,
                  captured_at: new Date(capturedAt).toISOString(),
                  ebr_basis: c.ebrBasis,
                },
              ],
              revocations: [],
              history: [],
              config: {
                purpose: c.marketing ? 'marketing' : 'informational',
                agent_dialed: c.agentDialed,
                dnc_scrub: c.scrub,
              },
              suppression: facts({
                hits: c.lists.map((l) => hit(l, l === 'state' ? 'NJ' : null)),
                litigator_blocks: c.litigatorBlocks,
                national_list_date:
                  c.listAgeDays === null
                    ? null
                    : new Date(now - c.listAgeDays * DAY).toISOString().slice(0, 10),
              }),
            },
            now,
          );
          // "National DNC or state DNC hit → deny marketing unless pewc, or ebr within its window
          // for live agent calls. Internal DNC → deny everything" (but the confirmation text,
          // which never goes through the gate). The litigator rule: marketing, unless turned off.
          const registry = c.lists.includes('national') || c.lists.includes('state');
          const exempt =
            tierOnFile === 'pewc' ||
            (tierOnFile === 'ebr' && c.channel === 'call' && c.agentDialed);
          const expected: string[] = [];
          if (c.lists.includes('internal') || (registry && c.marketing && !exempt))
            expected.push('dnc_listed');
          if (c.lists.includes('litigator') && c.marketing && c.litigatorBlocks)
            expected.push('litigator_listed');
          // Stale: a marketing touch whose outcome turns on the national list (some consent, below
          // pewc, not exempt, not already listed) while the copy is missing or over 31 days old.
          const stale = c.listAgeDays === null || c.listAgeDays > 31;
          if (c.marketing && c.scrub && stale && tierOnFile !== 'none' && !exempt && !registry)
            expected.push('dnc_list_stale');
          expect(d.checks.suppression.codes).toEqual(expected);
          for (const code of expected) expect(codes(d)).toContain(code);
          for (const e of d.checks.suppression.entries) {
            expect(c.lists).toContain(e.list);
            expect(e.listed_on).toBe('2026-05-30');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('reassigned numbers (Part B §1.6)', () => {
  const rnd = (result: 'reassigned' | 'not_reassigned' | 'no_data', consent_date = '2026-01-05') =>
    facts({ rnd: [{ consent_date, result, checked_at: '2026-06-01T00:00:00Z' }] });

  it('a reassigned answer for the consent date blocks every touch', () => {
    expect(codes(decide('pewc', rnd('reassigned')))).toEqual(['reassigned']);
    expect(codes(decide('pec', rnd('reassigned'), { config: INFO }))).toEqual(['reassigned']);
    // An answer for another consent date does not count.
    expect(decide('pewc', rnd('reassigned', '2025-01-01')).allowed).toBe(true);
  });

  it('Maine: a missing answer blocks a marketing touch; elsewhere it is reported and allowed', () => {
    const maine = decide('pewc', facts(), { to: '+12075550100' });
    expect(codes(maine)).toEqual(['reassigned']);
    expect(maine.checks.reassigned).toMatchObject({ required: true, result: null });
    expect(decide('pewc', rnd('not_reassigned'), { to: '+12075550100' }).allowed).toBe(true);
    const nj = decide('pewc', facts());
    expect(nj.allowed).toBe(true);
    expect(nj.checks.reassigned).toMatchObject({
      required: false,
      result: null,
      consent_date: '2026-01-05',
    });
  });
});

describe('all checks together', () => {
  it('reports list codes after consent, quiet hours and frequency, with no next_allowed_at', () => {
    const d = evaluateTouch(
      {
        to_e164: '+12015550100',
        channel: 'call',
        consent_basis: 'pec',
        records: [{ id: 'c1', tier: 'pec', captured_at: '2026-01-05T10:00:00Z' }],
        revocations: [],
        history: [],
        suppression: facts({ hits: [hit('national'), hit('litigator')] }),
      },
      Date.parse('2026-06-10T03:00:00Z'),
    );
    expect(codes(d)).toEqual([
      'consent_insufficient',
      'quiet_hours',
      'dnc_listed',
      'litigator_listed',
    ]);
    expect(d.next_allowed_at).toBeNull();
  });
});
