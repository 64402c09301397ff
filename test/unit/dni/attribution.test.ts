import { describe, expect, it } from 'vitest';
import { attributeCall, type HeldSession, holdOf } from '../../../src/domain/dni/attribution.js';

const at = (iso: string) => new Date(iso);
const s = (id: string, created: string, expires: string): HeldSession => ({
  id,
  createdAt: at(created),
  expiresAt: at(expires),
});

describe('attributeCall', () => {
  const a = s('a', '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z');

  it('picks the session holding the number at the call', () => {
    expect(attributeCall(at('2026-03-02T10:10:00Z'), [a], 'r')).toEqual({
      kind: 'session',
      sessionId: 'a',
      ambiguous: false,
    });
  });

  it('flags a call on a number held by two live sessions and picks the latest', () => {
    const b = s('b', '2026-03-02T10:05:00Z', '2026-03-02T10:35:00Z');
    expect(attributeCall(at('2026-03-02T10:10:00Z'), [b, a], null)).toEqual({
      kind: 'session',
      sessionId: 'b',
      ambiguous: true,
    });
  });

  it('falls back to the last holder up to 30 minutes after expiry', () => {
    expect(attributeCall(at('2026-03-02T11:00:00Z'), [a], null)).toEqual({
      kind: 'recent_holder',
      sessionId: 'a',
      ambiguous: false,
    });
    expect(attributeCall(at('2026-03-02T11:00:00.001Z'), [a], null).kind).toBe('campaign');
  });

  it('gives the call to the later holder once the number was handed out again', () => {
    const later = s('c', '2026-03-02T10:40:00Z', '2026-03-02T10:41:00Z');
    expect(attributeCall(at('2026-03-02T10:45:00Z'), [later, a], null)).toEqual({
      kind: 'recent_holder',
      sessionId: 'c',
      ambiguous: false,
    });
  });

  it('uses the repeat caller session when nothing holds the number', () => {
    expect(attributeCall(at('2026-03-02T12:00:00Z'), [a], 'old')).toEqual({
      kind: 'repeat_caller',
      sessionId: 'old',
      ambiguous: false,
    });
  });

  it('ignores sessions created after the call', () => {
    const future = s('f', '2026-03-02T13:00:00Z', '2026-03-02T13:30:00Z');
    expect(attributeCall(at('2026-03-02T12:59:59Z'), [future], null)).toEqual({
      kind: 'campaign',
      sessionId: null,
      ambiguous: false,
    });
  });
});

describe('holdOf', () => {
  const a = s('a', '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z');
  const b = s('b', '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');

  it('is the session whose hold attributed the call: live, or the recent holder', () => {
    const live = attributeCall(at('2026-03-02T10:10:00Z'), [a, b], null);
    expect(holdOf(live, [a, b])).toBe(a);
    const grace = attributeCall(at('2026-03-02T10:40:00Z'), [a, b], null);
    expect(holdOf(grace, [a, b])).toBe(a);
  });

  it('is null for a repeat caller and a campaign-only call', () => {
    const repeat = attributeCall(at('2026-03-02T12:00:00Z'), [a, b], 'b');
    expect(repeat.kind).toBe('repeat_caller');
    expect(holdOf(repeat, [a, b])).toBeNull();
    expect(holdOf(attributeCall(at('2026-03-02T12:00:00Z'), [a], null), [a])).toBeNull();
  });
});
