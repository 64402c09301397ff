import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DEFAULT_HTTP_LIMITS } from '../../src/deps.js';

describe('HTTP timeouts', () => {
  it('default to the limits the app uses when none are given', () => {
    const c = loadConfig({});
    expect({
      headersTimeoutMs: c.headersTimeoutMs,
      requestTimeoutMs: c.requestTimeoutMs,
      shutdownDrainMs: c.shutdownDrainMs,
    }).toEqual(DEFAULT_HTTP_LIMITS);
  });

  it('are read from the environment', () => {
    const c = loadConfig({
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '5000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    expect([c.headersTimeoutMs, c.requestTimeoutMs, c.shutdownDrainMs]).toEqual([2000, 5000, 0]);
  });

  it('refuse a headers timeout longer than the request timeout, and nonsense', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '6000', REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: 'soon' })).toThrow(ConfigError);
  });
});
