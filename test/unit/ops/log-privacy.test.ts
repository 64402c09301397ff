import { describe, expect, it } from 'vitest';
import { safeError, scrubText, statementName } from '../../../src/log-privacy.js';

const phone = '+14155550123';
const visitor = 'visitor-secret-42';

describe('safeError', () => {
  it('keeps SQLSTATE, statement and routine of a postgres.js error, never its parameters', () => {
    const err = Object.assign(new Error('duplicate key value violates unique constraint "x_key"'), {
      name: 'PostgresError',
      code: '23505',
      severity: 'ERROR',
      routine: '_bt_check_unique',
      detail: `Key (e164)=(${phone}) already exists.`,
      query: 'insert into "tracking_numbers" ("e164") values ($1)',
      parameters: [phone, visitor],
    });
    const out = safeError(err);
    expect(out).toEqual({
      type: 'DatabaseError',
      sqlstate: '23505',
      statement: 'insert tracking_numbers',
      routine: '_bt_check_unique',
      message: 'duplicate key value violates unique constraint "x_key"',
    });
  });

  it("unwraps Drizzle's DrizzleQueryError, whose message lists the parameters", () => {
    const cause = Object.assign(new Error(`invalid input syntax for type uuid: "${visitor}"`), {
      code: '22P02',
      severity: 'ERROR',
      routine: 'string_to_uuid',
    });
    const err = Object.assign(
      new Error(
        `Failed query: select * from dni_sessions where visitor_id = $1\nparams: ${visitor},${phone}`,
      ),
      {
        name: 'DrizzleQueryError',
        query: 'select * from dni_sessions where visitor_id = $1',
        params: [visitor, phone],
        cause,
      },
    );
    const text = JSON.stringify(safeError(err));
    expect(text).not.toContain(visitor);
    expect(text).not.toContain(phone);
    expect(safeError(err)).toMatchObject({ sqlstate: '22P02', statement: 'select dni_sessions' });
  });

  it('drops the detail, where and hint of a node-postgres error', () => {
    const err = Object.assign(new Error('new row violates check constraint "c"'), {
      code: '23514',
      severity: 'ERROR',
      routine: 'ExecConstraints',
      detail: `Failing row contains (${phone}, ${visitor}).`,
      where: `SQL function "f" statement 1 with ${visitor}`,
    });
    const text = JSON.stringify(safeError(err));
    expect(text).not.toContain(visitor);
    expect(text).not.toContain(phone);
  });

  it('scrubs numbers out of any other error message and stack', () => {
    const text = JSON.stringify(safeError(new Error(`The 'To' number ${phone} is not valid`)));
    expect(text).not.toContain(phone);
    expect(text).toContain('[number]');
  });
});

describe('scrubText and statementName', () => {
  it('keeps identifiers and drops values', () => {
    expect(scrubText('value "abc def" for "col_a" and %2B14155550123')).toBe(
      'value "[value]" for "col_a" and [number]',
    );
    expect(statementName('select dni_open_session($1, $2)')).toBe('select dni_open_session');
    expect(statementName('update "calls" set x = 1')).toBe('update calls');
    expect(statementName('delete from "dispatch_jobs" where id = $1')).toBe('delete dispatch_jobs');
  });
});
