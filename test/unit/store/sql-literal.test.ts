import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { literal } from '../../../src/store/rows.js';

/**
 * `literal` writes a value into a carrier webhook's opening or closing statement (rows.ts): it
 * must write exactly what node-postgres's own escapeLiteral writes, for any string.
 */
describe('an SQL literal', () => {
  const driver = new pg.Client();

  it('is what the driver writes, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(literal(s)).toBe(driver.escapeLiteral(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('is what the driver writes for quotes and backslashes together', () => {
    const chars = fc.constantFrom("'", '\\', 'a', '"', ';', '\n', 'E');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (cs) => {
        const s = cs.join('');
        expect(literal(s)).toBe(driver.escapeLiteral(s));
      }),
      { numRuns: 2000 },
    );
    expect(literal("o'brien\\")).toBe(" E'o''brien\\\\'");
  });
});
