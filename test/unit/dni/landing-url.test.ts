import { describe, expect, it } from 'vitest';
import { parseLandingUrl } from '../../../src/domain/dni/landing-url.js';
import { sessionAttributes } from '../../../src/domain/dni/sessions.js';

describe('parseLandingUrl', () => {
  it('reads UTM parameters and click ids', () => {
    expect(
      parseLandingUrl(
        'https://a.example/x?utm_source=g&utm_medium=cpc&gclid=G&msclkid=M&wbraid=W&gbraid=B&fbclid=F',
      ),
    ).toEqual({
      utm_source: 'g',
      utm_medium: 'cpc',
      gclid: 'G',
      msclkid: 'M',
      wbraid: 'W',
      gbraid: 'B',
      fbclid: 'F',
    });
  });

  it('reads parameters from a hash-router fragment when the query lacks them', () => {
    expect(parseLandingUrl('https://a.example/#/page?utm_campaign=spring&gclid=H')).toEqual({
      utm_campaign: 'spring',
      gclid: 'H',
    });
  });

  it('decodes percent-encoding and ignores empty values', () => {
    expect(parseLandingUrl('https://a.example/?utm_term=red%20shoes&utm_content=')).toEqual({
      utm_term: 'red shoes',
    });
  });

  it('yields nothing for a URL that does not parse', () => {
    expect(parseLandingUrl('not a url')).toEqual({});
    expect(parseLandingUrl(null)).toEqual({});
  });
});

describe('sessionAttributes', () => {
  const now = new Date('2026-03-02T15:00:00Z');
  it('builds fbc from fbclid when the cookie is absent', () => {
    expect(
      sessionAttributes(
        { campaign_code: 'a', visitor_id: 'v', landing_url: 'https://x.example/?fbclid=F' },
        now,
      ).fbc,
    ).toBe(`fb.1.${now.getTime()}.F`);
  });
  it('keeps nulls for absent click ids', () => {
    expect(sessionAttributes({ campaign_code: 'a', visitor_id: 'v' }, now)).toEqual({
      gclid: null,
      fbc: null,
      fbp: null,
      landing_url: null,
    });
  });
});
