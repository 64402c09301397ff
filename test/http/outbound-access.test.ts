import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminCall, type Harness, json, useHarness } from '../helpers/harness.js';
import { outboundTenant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';

const h: Harness = useHarness();
let t: Awaited<ReturnType<typeof outboundTenant>>;
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
  t = await outboundTenant(h);
});
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const valid = () => ({ to_e164: t.contact, channel: 'call', consent_basis: 'pewc' });
const touchCount = async (orgId: string) =>
  Number(
    (
      await h.store.query<{ n: string }>(
        'select count(*) as n from outbound_touches where org_id = $1',
        [orgId],
      )
    )[0]?.n,
  );

describe('401, 403 and 404', () => {
  it('answers 401 before looking at the body', async () => {
    const res = await touch(h, `svc_live_${'0'.repeat(40)}`, t.code, '{not json');
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"detail":"invalid_api_key"}');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 403 tracking_disabled for an organization with API access off, before the scope', async () => {
    const off = await outboundTenant(h, { trackingEnabled: false, scopes: ['enroll'] });
    const res = await touch(h, off.key, off.code, { bad: true });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"detail":"tracking_disabled"}');
  });

  it('answers 403 insufficient_scope for a key without execute, before validation', async () => {
    const enroll = await outboundTenant(h, { scopes: ['enroll'] });
    const res = await touch(h, enroll.key, enroll.code, { bad: true });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"detail":"insufficient_scope"}');
    expect(await touchCount(enroll.orgId)).toBe(0);
  });

  it("answers another organization's campaign exactly like a missing one, writing nothing", async () => {
    const theirs = await outboundTenant(h);
    const other = await touch(h, t.key, theirs.code, valid());
    const missing = await touch(h, t.key, 'zzz', valid());
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe('{"detail":"campaign_not_found"}');
    expect(missing.body).toBe(other.body);
    expect(Object.keys(other.headers).sort()).toEqual(Object.keys(missing.headers).sort());
    expect(await touchCount(theirs.orgId)).toBe(0);
  });

  it('validates before looking the campaign up (422 beats 404)', async () => {
    const res = await touch(h, t.key, 'zzz', { ...valid(), channel: 'fax' });
    expect(res.statusCode).toBe(422);
  });

  it('sees consent only of its own organization', async () => {
    const other = await outboundTenant(h);
    const res = await touch(h, other.key, other.code, valid()); // t.contact has consent in t's org only
    expect(json(res).reasons[0].code).toBe('consent_missing');
  });
});

describe('422: every field, FastAPI shape', () => {
  const str = (loc: string, input: unknown) => ({
    type: 'string_type',
    loc: ['body', loc],
    msg: 'Input should be a valid string',
    input,
  });
  const tooLong = (loc: string, max: number) => ({
    type: 'string_too_long',
    loc: ['body', loc],
    msg: `String should have at most ${max} characters`,
    input: 'x'.repeat(max + 1),
    ctx: { max_length: max },
  });
  const valueError = (loc: string, msg: string, input: unknown) => ({
    type: 'value_error',
    loc: ['body', loc],
    msg: `Value error, ${msg}`,
    input,
    ctx: { error: {} },
  });
  const literal = (loc: string, expected: string, input: unknown) => ({
    type: 'literal_error',
    loc: ['body', loc],
    msg: `Input should be ${expected}`,
    input,
    ctx: { expected },
  });
  const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
  const cases: [string, unknown, object][] = [
    ['to_e164', 5, str('to_e164', 5)],
    [
      'to_e164',
      '2125550123',
      valueError(
        'to_e164',
        'must be a possible phone number in E.164 form, such as +14155550123',
        '2125550123',
      ),
    ],
    ['channel', 'fax', literal('channel', "'call', 'sms' or 'voicemail'", 'fax')],
    ['consent_basis', 'none', literal('consent_basis', "'pewc', 'pec' or 'ebr'", 'none')],
    [
      'funnel_node',
      '',
      {
        type: 'string_too_short',
        loc: ['body', 'funnel_node'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ],
    ['funnel_node', 'x'.repeat(65), tooLong('funnel_node', 64)],
    ['scenario_ref', 'x'.repeat(129), tooLong('scenario_ref', 128)],
    ['template_id', 'x'.repeat(129), tooLong('template_id', 128)],
    [
      'dynamic_variables',
      [],
      {
        type: 'dict_type',
        loc: ['body', 'dynamic_variables'],
        msg: 'Input should be a valid dictionary',
        input: [],
      },
    ],
    [
      'dynamic_variables',
      manyKeys,
      valueError('dynamic_variables', 'must have at most 50 keys', manyKeys),
    ],
    [
      'dynamic_variables',
      { a: 'x'.repeat(8200) },
      valueError('dynamic_variables', 'must be at most 8 KiB as JSON', { a: 'x'.repeat(8200) }),
    ],
    // A non-scalar value gets one error per union member: see validation-fields.test.ts.
    [
      'lead_timezone',
      'Mars/Olympus',
      valueError(
        'lead_timezone',
        'must be an IANA time zone name, such as America/Chicago',
        'Mars/Olympus',
      ),
    ],
    [
      'cadence_step',
      1001,
      {
        type: 'less_than_equal',
        loc: ['body', 'cadence_step'],
        msg: 'Input should be less than or equal to 1000',
        input: 1001,
        ctx: { le: 1000 },
      },
    ],
    [
      'cadence_step',
      1.5,
      {
        type: 'int_from_float',
        loc: ['body', 'cadence_step'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 1.5,
      },
    ],
    ['idempotency_key', 'x'.repeat(129), tooLong('idempotency_key', 128)],
    [
      'idempotency_key',
      'a b',
      {
        type: 'string_pattern_mismatch',
        loc: ['body', 'idempotency_key'],
        msg: "String should match pattern '^[A-Za-z0-9_.:-]+$'",
        input: 'a b',
        ctx: { pattern: '^[A-Za-z0-9_.:-]+$' },
      },
    ],
    [
      'dry_run',
      'maybe',
      {
        type: 'bool_parsing',
        loc: ['body', 'dry_run'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ],
    [
      'unknown',
      1,
      {
        type: 'extra_forbidden',
        loc: ['body', 'unknown'],
        msg: 'Extra inputs are not permitted',
        input: 1,
      },
    ],
  ];

  it.each(cases)('%s = %j', async (field, input, expected) => {
    const res = await touch(h, t.key, t.code, { ...valid(), [field]: input });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toEqual({ detail: [expected] });
  });

  it('lists every missing required field, and changes nothing', async () => {
    const res = await touch(h, t.key, t.code, {});
    expect(json(res)).toEqual({
      detail: ['to_e164', 'channel', 'consent_basis'].map((f) => ({
        type: 'missing',
        loc: ['body', f],
        msg: 'Field required',
        input: {},
      })),
    });
    expect(await touchCount(t.orgId)).toBe(0);
  });

  it('reports a too-long campaign_code at path, with body errors after it', async () => {
    const res = await touch(h, t.key, 'abcd', { ...valid(), channel: 'fax' });
    expect(json(res).detail.map((e: { loc: unknown }) => e.loc)).toEqual([
      ['path', 'campaign_code'],
      ['body', 'channel'],
    ]);
  });

  it('answers invalid JSON as FastAPI does, and 413 over 64 KiB', async () => {
    const bad = await touch(h, t.key, t.code, '{"to_e164": ');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 12] });
    const big = await touch(h, t.key, t.code, { ...valid(), scenario_ref: 'x'.repeat(70_000) });
    expect(big.statusCode).toBe(413);
    expect(big.body).toBe('{"detail":"payload_too_large"}');
  });

  it('accepts lax values as Pydantic does ("3" for an integer, "true" for a boolean)', async () => {
    const res = await touch(h, t.key, t.code, { ...valid(), cadence_step: '3', dry_run: 'true' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ status: 'would_queue', cadence_step: 3 });
  });
});

describe('campaign config on write', () => {
  it('rejects a config the engine could not apply, each problem at its field', async () => {
    const res = await h.admin.inject({
      method: 'PATCH',
      url: `/admin/orgs/${t.orgId}/campaigns/${t.code}`,
      headers: {
        authorization: 'Bearer adm_test_token_0123456789abcdef',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        config: { frequency_caps: { per_day: 1 }, variants: { a: { caller_id: 'x' } } },
      }),
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail).toEqual([
      {
        type: 'extra_forbidden',
        loc: ['body', 'config', 'frequency_caps', 'per_day'],
        msg: 'Extra inputs are not permitted',
        input: 1,
      },
      {
        type: 'value_error',
        loc: ['body', 'config', 'variants', 'a', 'caller_id'],
        msg: 'Value error, must be a possible phone number in E.164 form, such as +14155550123',
        input: 'x',
        ctx: { error: {} },
      },
    ]);
    const campaign = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/campaigns/${t.code}`);
    expect(campaign.config).toEqual({});
  });
});
