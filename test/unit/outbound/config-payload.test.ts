import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/consents/canonical-json.js';
import { buildPayload, render, xmlEscape } from '../../../src/domain/dispatch/payload.js';
import { storedConfigProblems, touchConfig } from '../../../src/domain/outbound/campaign-config.js';
import { CampaignConfig } from '../../../src/domain/outbound/config-schema.js';
import { compileValidator, fromPlain } from '../../../src/http/pydantic/index.js';
import { checks } from '../../../src/http/validate.js';

/** The admin API's check of a campaign config: per field, in Pydantic's shape. */
const validator = compileValidator(CampaignConfig, { checks, storable: true });
function problems(config: unknown): [loc: string, type: string, msg: string][] {
  const r = validator(fromPlain(config), ['config']);
  return r.ok ? [] : r.errors.map((e) => [e.loc.join('.'), e.type, e.msg]);
}

const documented = {
  purpose: 'marketing',
  caller_id: '+12125550100',
  recording_url: 'https://cdn.example/vm.mp3',
  templates: { default: { text: 'Hi {{name}}' }, call: { twiml: '<Response/>' } },
  opt_out_confirmation: 'You will get no more texts from us.',
  custom_key: { anything: true },
  variants: { a: { allowed_channels: ['sms'], templates: { default: { text: 'A' } } } },
};

describe('the campaign config schema', () => {
  it('accepts the documented keys, base and variants', () => {
    expect(problems(documented)).toEqual([]);
  });

  it('names problems at their field, in the base and in each variant', () => {
    const e164 = 'Value error, must be a possible phone number in E.164 form, such as +14155550123';
    const notAModel = 'Input should be a valid dictionary or object to extract fields from';
    expect(
      problems({
        caller_id: '555',
        recording_url: 'ftp://x',
        templates: { a: { text: '', voice: 'x' }, b: 'x' },
        opt_out_prompt: '  ',
        variants: { v: { purpose: 'sales' }, w: 5 },
      }),
    ).toEqual([
      ['config.caller_id', 'value_error', e164],
      ['config.templates.a.text', 'string_too_short', 'String should have at least 1 character'],
      ['config.templates.a.voice', 'extra_forbidden', 'Extra inputs are not permitted'],
      ['config.templates.b', 'model_attributes_type', notAModel],
      ['config.recording_url', 'value_error', 'Value error, must be an http or https URL'],
      ['config.opt_out_prompt', 'value_error', 'Value error, must not be blank'],
      [
        'config.variants.v.purpose',
        'literal_error',
        "Input should be 'marketing' or 'informational'",
      ],
      ['config.variants.w', 'model_attributes_type', notAModel],
    ]);
    expect(problems({ variants: { v: { variants: {} } } })).toEqual([
      ['config.variants.v', 'value_error', 'Value error, a variant cannot have variants'],
    ]);
    expect(problems({ variants: { '': {} } })).toEqual([
      [
        'config.variants',
        'value_error',
        'Value error, funnel node names must have 1 to 64 characters',
      ],
    ]);
    expect(problems([])).toEqual([['config', 'model_attributes_type', notAModel]]);
  });

  it('reads values as Pydantic does, and keeps what it read', () => {
    const r = validator(fromPlain({ frequency_caps: { per_24h: '2' }, dnc_scrub: 'false' }));
    expect(r).toEqual({ ok: true, value: { frequency_caps: { per_24h: 2 }, dnc_scrub: false } });
  });
});

describe('storedConfigProblems (a touch rechecks the stored config)', () => {
  it('accepts what the admin API accepts, unknown keys included', () => {
    expect(storedConfigProblems(documented)).toEqual([]);
    expect(storedConfigProblems({})).toEqual([]);
    expect(storedConfigProblems({ conversion: { currency: 'usd' } })).toEqual([]);
  });

  it('names what the admin API would refuse: shape and named checks', () => {
    expect(
      storedConfigProblems({
        calling_window: { start: '18:00', end: '09:00' },
        variants: { a: { caller_id: 'x' } },
      }),
    ).toEqual([
      '/calling_window: start must be before end',
      '/variants/a/caller_id: must be a possible phone number in E.164 form, such as +14155550123',
    ]);
    expect(storedConfigProblems({ frequency_caps: { per_24h: '2' } })).not.toEqual([]);
    expect(storedConfigProblems([])).not.toEqual([]);
  });
});

describe('touchConfig', () => {
  const raw = {
    caller_id: '+12125550100',
    templates: { default: { text: 'base' }, other: { text: 'other' } },
    variants: { v: { caller_id: '+12125550199', templates: { default: { text: 'variant' } } } },
  };

  it('merges a variant, templates per template id', () => {
    expect(touchConfig(raw, 'v')).toEqual({
      purpose: 'marketing',
      caller_id: '+12125550199',
      templates: { default: { text: 'variant' }, other: { text: 'other' } },
    });
  });

  it('returns undefined for an unknown node, inherited names included', () => {
    expect(touchConfig(raw, 'nope')).toBeUndefined();
    expect(touchConfig(raw, 'constructor')).toBeUndefined();
    expect(touchConfig({}, 'v')).toBeUndefined();
    expect(touchConfig(raw, undefined)).not.toHaveProperty('variants');
  });
});

describe('payload', () => {
  it('renders variables, escaping them in TwiML only', () => {
    expect(render('Hi {{ name }}{{missing}}!', { name: 'Ann' })).toBe('Hi Ann!');
    expect(xmlEscape('<a & "b">')).toBe('&#60;a &#38; &#34;b&#34;&#62;');
    const p = buildPayload(
      'tch_1',
      { to: '+12125550123', channel: 'call', template_id: 't', dynamic_variables: { n: '<x>' } },
      {
        caller_id: '+12125550100',
        templates: { t: { text: 'Hi {{n}}', twiml: '<Say>{{n}}</Say>' } },
      },
    );
    expect(p).toEqual({
      touch_id: 'tch_1',
      channel: 'call',
      to: '+12125550123',
      from: '+12125550100',
      text: 'Hi <x>',
      twiml: '<Say>&#60;x&#62;</Say>',
      recording_url: null,
      template_id: 't',
    });
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"e":1,"f":2}]},"b":1}',
    );
  });
});
