import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Harness, type Tenant, useHarness } from '../helpers/harness.js';
import {
  at,
  detail422,
  type Issue,
  literal,
  STRING_TYPE,
  tooLong,
  tooShort,
  valueError,
} from '../helpers/pydantic.js';
import { byName, MISSING_CODE, type PublicRoute, send } from '../helpers/routes.js';

// Field rules of each body (contract §3–§5, fastapi-422-parity.md §5 and §11).
// An accepted value reaches the campaign lookup, so it answers 404 for a
// campaign that does not exist; a rejected one answers exactly one error.
const h: Harness = useHarness();
let t: Tenant;
beforeAll(async () => {
  t = await createTenant(h, { rateLimit: 1_000_000 });
});

/** A value written as raw JSON text, for inputs JSON.stringify cannot produce (2.0). */
class Raw {
  constructor(readonly text: string) {}
}
const raw = (text: string) => new Raw(text);
/** `n` emoji: n code points, 2n UTF-16 units. */
const emoji = (n: number) => '😀'.repeat(n);

type Row = [field: string, value: unknown, issue?: Issue];

const OK = '{"detail":"campaign_not_found"}';

function payloadWith(route: PublicRoute, field: string, value: unknown): string {
  const base: Record<string, unknown> = { ...route.body(MISSING_CODE) };
  delete base[field];
  const text = value instanceof Raw ? value.text : JSON.stringify(value);
  const rest = JSON.stringify(base).slice(1, -1);
  return `{${rest}${rest ? ',' : ''}"${field}":${text}}`;
}

function runRows(route: PublicRoute, rows: Row[]) {
  it.each(rows.map((r) => [r[0], r[1] instanceof Raw ? r[1].text : JSON.stringify(r[1]), r]))(
    '%s = %s',
    async (_f, _v, [field, value, issue]) => {
      const res = await send(h.app, route, MISSING_CODE, {
        authorization: `Bearer ${t.key}`,
        payload: payloadWith(route, field, value),
      });
      const input = value instanceof Raw ? JSON.parse(value.text) : value;
      const expected = issue ? detail422(at(['body', field], issue, input)) : OK;
      expect(res.body).toBe(expected);
    },
  );
}

const INT_FROM_FLOAT: Issue = [
  'int_from_float',
  'Input should be a valid integer, got a number with a fractional part',
];
const INT_PARSING: Issue = [
  'int_parsing',
  'Input should be a valid integer, unable to parse string as an integer',
];
const INT_TYPE: Issue = ['int_type', 'Input should be a valid integer'];
const BOOL_PARSING: Issue = [
  'bool_parsing',
  'Input should be a valid boolean, unable to interpret input',
];
const BOOL_TYPE: Issue = ['bool_type', 'Input should be a valid boolean'];
const E164 = valueError('must be a possible phone number in E.164 form, such as +14155550123');
const ZONE = valueError('must be an IANA time zone name, such as America/Chicago');
const KEY_PATTERN = '^[A-Za-z0-9_.:-]+$';
const PATTERN: Issue = [
  'string_pattern_mismatch',
  `String should match pattern '${KEY_PATTERN}'`,
  { pattern: KEY_PATTERN },
];

const notStrings = (field: string): Row[] =>
  [5, 1.5, true, [], {}].map((v) => [field, v, STRING_TYPE] as Row);

describe('POST /dni/session', () => {
  const route = byName('/dni/session');
  runRows(route, [
    ['campaign_code', '', tooShort(1)],
    ['campaign_code', 'abcd', tooLong(3)],
    ['campaign_code', emoji(3)],
    ['campaign_code', emoji(4), tooLong(3)],
    ['campaign_code', null, STRING_TYPE],
    ...notStrings('campaign_code'),
    ['visitor_id', '', tooShort(1)],
    ['visitor_id', emoji(256)],
    ['visitor_id', 'v'.repeat(257), tooLong(256)],
    ['visitor_id', emoji(257), tooLong(256)],
    ['visitor_id', null, STRING_TYPE],
    ...notStrings('visitor_id'),
    ...['fbc', 'fbp', 'gclid'].flatMap((f): Row[] => [
      [f, null],
      [f, ''],
      [f, emoji(512)],
      [f, emoji(513), tooLong(512)],
      [f, 'x'.repeat(513), tooLong(512)],
      [f, 5, STRING_TYPE],
      [f, false, STRING_TYPE],
    ]),
    ['landing_url', null],
    ['landing_url', `https://x.example/${emoji(2048 - 18)}`],
    ['landing_url', 'u'.repeat(2049), tooLong(2048)],
    ['landing_url', {}, STRING_TYPE],
  ]);
});

describe('POST /dni/campaigns/{campaign_code}/buyer-report', () => {
  const route = byName('buyer-report');
  const disposition = literal('success', 'rejected');
  runRows(route, [
    ['call_id', '', tooShort(1)],
    ['call_id', emoji(64)],
    ['call_id', emoji(65), tooLong(64)],
    ['call_id', null, STRING_TYPE],
    ...notStrings('call_id'),
    ['report_id', '', tooShort(1)],
    ['report_id', emoji(128)],
    ['report_id', 'r'.repeat(129), tooLong(128)],
    ...notStrings('report_id'),
    ['disposition', 'success'],
    ['disposition', 'rejected'],
    ['disposition', 'maybe', disposition],
    ['disposition', 'SUCCESS', disposition],
    ['disposition', '', disposition],
    ['disposition', 1, disposition],
    ['disposition', null, disposition],
    ['notes', ''],
    ['notes', emoji(2000)],
    ['notes', emoji(2001), tooLong(2000)],
    ['notes', null, STRING_TYPE],
    ['notes', 5, STRING_TYPE],
  ]);
});

describe('POST /tracking/campaigns/{campaign_code}/outbound', () => {
  const route = byName('outbound');
  const channel = literal('call', 'sms', 'voicemail');
  const basis = literal('pewc', 'pec', 'ebr');
  runRows(route, [
    ['to_e164', '+14155550123'],
    ['to_e164', '+442071838750'],
    ['to_e164', '12345', E164],
    ['to_e164', '+1415555012', E164],
    ['to_e164', '+1 415 555 0123', E164],
    ['to_e164', '', E164],
    ['to_e164', 14155550123, STRING_TYPE],
    ['to_e164', null, STRING_TYPE],
    ...['call', 'sms', 'voicemail'].map((v): Row => ['channel', v]),
    ['channel', 'fax', channel],
    ['channel', 'CALL', channel],
    ['channel', null, channel],
    ...['pewc', 'pec', 'ebr'].map((v): Row => ['consent_basis', v]),
    ['consent_basis', 'none', basis],
    ['consent_basis', 1, basis],
    ['funnel_node', '', tooShort(1)],
    ['funnel_node', emoji(64)],
    ['funnel_node', emoji(65), tooLong(64)],
    ...['scenario_ref', 'template_id'].flatMap((f): Row[] => [
      [f, ''],
      [f, emoji(128)],
      [f, emoji(129), tooLong(128)],
      [f, 5, STRING_TYPE],
    ]),
    ['dynamic_variables', {}],
    ['dynamic_variables', { a: 'x', b: 1, c: 1.5, d: true, e: null }],
    ['dynamic_variables', 'x', ['dict_type', 'Input should be a valid dictionary']],
    [
      'dynamic_variables',
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
      valueError('must have at most 50 keys'),
    ],
    ['dynamic_variables', { a: 'x'.repeat(8200) }, valueError('must be at most 8 KiB as JSON')],
    ['lead_timezone', 'America/Chicago'],
    ['lead_timezone', 'UTC'],
    ['lead_timezone', 'Mars/Base', ZONE],
    ['lead_timezone', 'EST', ZONE],
    ['lead_timezone', 5, STRING_TYPE],
    ['cadence_step', 0],
    ['cadence_step', 1000],
    ['cadence_step', '12'],
    ['cadence_step', ' 12 '],
    ['cadence_step', raw('2.0')],
    ['cadence_step', true],
    ['cadence_step', 1.5, INT_FROM_FLOAT],
    [
      'cadence_step',
      1001,
      ['less_than_equal', 'Input should be less than or equal to 1000', { le: 1000 }],
    ],
    [
      'cadence_step',
      '1001',
      ['less_than_equal', 'Input should be less than or equal to 1000', { le: 1000 }],
    ],
    [
      'cadence_step',
      -1,
      ['greater_than_equal', 'Input should be greater than or equal to 0', { ge: 0 }],
    ],
    ['cadence_step', 'abc', INT_PARSING],
    ['cadence_step', '12.5', INT_PARSING],
    ['cadence_step', null, INT_TYPE],
    ['cadence_step', [], INT_TYPE],
    ['idempotency_key', 'abc-1:2.3_X'],
    ['idempotency_key', 'k'.repeat(128)],
    ['idempotency_key', '', tooShort(1)],
    ['idempotency_key', 'k'.repeat(129), tooLong(128)],
    ['idempotency_key', 'a b', PATTERN],
    ['idempotency_key', 'é', PATTERN],
    ['idempotency_key', 5, STRING_TYPE],
    ...[true, false, 'yes', 'off', 'TRUE', 'f', 1, 0].map((v): Row => ['dry_run', v]),
    ['dry_run', 'maybe', BOOL_PARSING],
    ['dry_run', '', BOOL_PARSING],
    ['dry_run', ' true', BOOL_PARSING],
    ['dry_run', 2, BOOL_PARSING],
    ['dry_run', null, BOOL_TYPE],
    ['dry_run', 1.5, BOOL_TYPE],
    ['dry_run', [], BOOL_TYPE],
  ]);

  it('reports each dynamic_variables value that is no scalar once per union member', async () => {
    const res = await send(h.app, route, MISSING_CODE, {
      authorization: `Bearer ${t.key}`,
      payload: { ...route.body(MISSING_CODE), dynamic_variables: { ok: 'x', bad: [1] } },
    });
    const loc = (tag: string) => ['body', 'dynamic_variables', 'bad', tag];
    expect(res.body).toBe(
      detail422(
        at(loc('str'), STRING_TYPE, [1]),
        at(loc('float'), ['float_type', 'Input should be a valid number'], [1]),
        at(loc('bool'), BOOL_TYPE, [1]),
      ),
    );
  });

  it('lists every failing field in schema order, whatever the input order', async () => {
    const body = {
      dry_run: 'maybe',
      idempotency_key: 'a b',
      cadence_step: 1.5,
      lead_timezone: 'Mars/Base',
      funnel_node: '',
      consent_basis: 'none',
      channel: 'fax',
      to_e164: '123',
    };
    const res = await send(h.app, route, 'abcd', {
      authorization: `Bearer ${t.key}`,
      payload: body,
    });
    expect(res.body).toBe(
      detail422(
        at(['path', 'campaign_code'], tooLong(3), 'abcd'),
        at(['body', 'to_e164'], E164, '123'),
        at(['body', 'channel'], channel, 'fax'),
        at(['body', 'consent_basis'], basis, 'none'),
        at(['body', 'funnel_node'], tooShort(1), ''),
        at(['body', 'lead_timezone'], ZONE, 'Mars/Base'),
        at(['body', 'cadence_step'], INT_FROM_FLOAT, 1.5),
        at(['body', 'idempotency_key'], PATTERN, 'a b'),
        at(['body', 'dry_run'], BOOL_PARSING, 'maybe'),
      ),
    );
  });
});
