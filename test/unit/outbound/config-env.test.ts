import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

describe('outbound configuration', () => {
  it('defaults to the simulated carrier and a worker in the server process', () => {
    expect(loadConfig({})).toMatchObject({
      carrier: 'simulated',
      twilio: undefined,
      worker: true,
      workerPollMs: 500,
      workerLeaseSeconds: 60,
      dispatchMaxAttempts: 8,
    });
  });

  it('reads WORKER=0 and the Twilio keys', () => {
    const c = loadConfig({
      WORKER: '0',
      CARRIER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:4010',
    });
    expect(c).toMatchObject({
      worker: false,
      carrier: 'twilio',
      twilio: { accountSid: 'AC1', authToken: 'tok', apiBaseUrl: 'http://127.0.0.1:4010' },
    });
    expect(
      loadConfig({ CARRIER: 'twilio', TWILIO_ACCOUNT_SID: 'a', TWILIO_AUTH_TOKEN: 'b' }).twilio
        ?.apiBaseUrl,
    ).toBe('https://api.twilio.com');
  });

  it('refuses a Twilio carrier without credentials and unknown carriers', () => {
    expect(() => loadConfig({ CARRIER: 'twilio' })).toThrow(ConfigError);
    expect(() => loadConfig({ CARRIER: 'pigeon' })).toThrow(/CARRIER must be simulated or twilio/);
    expect(() => loadConfig({ WORKER_LEASE_SECONDS: '0' })).toThrow(ConfigError);
  });
});
