import { describe, expect, it } from 'vitest';
import { reportSourceOf } from '../../../src/domain/reports/session-keys.js';
import { foldSource } from '../../../src/domain/reports/sources.js';

describe('a source named like an object property is a source like any other', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('%s', (s) => {
    expect(reportSourceOf({ utm_source: s })).toBe(s);
    expect(foldSource(` ${s.toUpperCase()} `)).toBe(s.toLowerCase());
  });

  it('aliases still fold', () => {
    expect(reportSourceOf({ utm_source: 'Facebook' })).toBe('meta');
    expect(foldSource('BING')).toBe('microsoft');
  });
});
