import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('Twilio settings', () => {
  it('are absent unless set', () => {
    const c = loadConfig({});
    expect(c.twilioAuthToken).toBeUndefined();
    expect(c.publicBaseUrl).toBeUndefined();
  });

  it('keep the token and drop trailing slashes from the public base URL', () => {
    const c = loadConfig({
      TWILIO_AUTH_TOKEN: 'tok',
      PUBLIC_BASE_URL: 'https://calls.example.com/',
    });
    expect(c.twilioAuthToken).toBe('tok');
    expect(c.publicBaseUrl).toBe('https://calls.example.com');
  });

  it('refuse a public base URL that is not http(s)', () => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://calls.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'calls.example.com' })).toThrow(ConfigError);
  });
});
