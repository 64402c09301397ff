import { describe, expect, it } from 'vitest';
import { type ConsentFacts, engineConsent } from '../../../src/domain/consents/consents.js';

const at = (iso: string) => new Date(iso);
const ev = (kind: ConsentFacts['kind'], iso: string): ConsentFacts => ({
  id: `${kind}-${iso}`,
  kind,
  tier: kind === 'grant' ? 'pewc' : null,
  ebrBasis: null,
  capturedAt: at(iso),
  expiresAt: null,
});

describe('a pending opt-out (doubtful reply, question asked)', () => {
  const grant = ev('grant', '2026-01-01T00:00:00Z');
  const pending = ev('opt_out_pending', '2026-03-02T15:00:00Z');

  it('is an opt-out while unanswered', () => {
    expect(engineConsent([grant, pending]).revocations).toEqual([
      { kind: 'opt_out', at: pending.capturedAt },
    ]);
  });

  it('is lifted by a later clarified answer, and the grants stand again', () => {
    const answered = engineConsent([grant, pending, ev('clarified', '2026-03-02T15:05:00Z')]);
    expect(answered.revocations).toEqual([]);
    expect(answered.records).toHaveLength(1);
  });

  it('an answer given before a newer pending opt-out does not lift it', () => {
    const later = ev('opt_out_pending', '2026-04-01T00:00:00Z');
    const r = engineConsent([grant, pending, ev('clarified', '2026-03-03T00:00:00Z'), later]);
    expect(r.revocations).toEqual([{ kind: 'opt_out', at: later.capturedAt }]);
  });

  it('a clarified answer never lifts a plain opt-out', () => {
    const stop = ev('opt_out', '2026-03-02T15:00:00Z');
    const r = engineConsent([grant, stop, ev('clarified', '2026-03-03T00:00:00Z')]);
    expect(r.revocations).toEqual([{ kind: 'opt_out', at: stop.capturedAt }]);
  });
});
