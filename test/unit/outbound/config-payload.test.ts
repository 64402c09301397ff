import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/consents/canonical-json.js';
import { buildPayload, render, xmlEscape } from '../../../src/domain/dispatch/payload.js';
import {
  campaignConfigProblems,
  touchConfig,
} from '../../../src/domain/outbound/campaign-config.js';

describe('campaignConfigProblems', () => {
  it('accepts the documented keys, base and variants', () => {
    expect(
      campaignConfigProblems({
        purpose: 'marketing',
        caller_id: '+12125550100',
        recording_url: 'https://cdn.example/vm.mp3',
        templates: { default: { text: 'Hi {{name}}' }, call: { twiml: '<Response/>' } },
        custom_key: { anything: true },
        variants: { a: { allowed_channels: ['sms'], templates: { default: { text: 'A' } } } },
      }),
    ).toEqual([]);
  });

  it('names problems in the base and in each variant', () => {
    expect(
      campaignConfigProblems({
        caller_id: '555',
        recording_url: 'ftp://x',
        templates: { a: { text: '', voice: 'x' }, b: 'x' },
        variants: { v: { variants: {}, purpose: 'sales' }, w: 5 },
      }),
    ).toEqual([
      'caller_id must be an E.164 number',
      'recording_url must be an http(s) URL',
      'templates.a.text must be a string of 1 to 1600 characters',
      'templates.a: unknown key voice',
      'templates.b must be an object with text and/or twiml',
      'variants.v: variants cannot nest',
      'variants.v.purpose must be "marketing" or "informational"',
      'variants.w must be an object',
    ]);
    expect(campaignConfigProblems([])).toEqual(['config must be an object']);
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
