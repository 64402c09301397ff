/**
 * src/config.ts's schema is every setting's one definition: the README's table is generated
 * from it, its defaults are what loadConfig gives, and a bad value names its setting.
 */
import { readFileSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfig,
  readSettings,
  Settings,
  settingsTable,
  withSettingsTable,
} from '../../src/config.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const entries = Object.entries(Settings.properties) as unknown as [
  string,
  Record<string, unknown>,
][];

describe('the settings schema', () => {
  it('is what the README says (npm run settings:table regenerates it)', () => {
    // Biome aligns the table's columns: compare cell by cell.
    const cells = (text: string) =>
      text.split('\n').map((line) =>
        line
          .split('|')
          .map((cell) => cell.trim().replace(/^-+$/, '---'))
          .join('|'),
      );
    expect(cells(withSettingsTable(README))).toEqual(cells(README));
    for (const [name] of entries) expect(README).toMatch(new RegExp(`\\| \`${name}\` +\\|`));
  });

  it('gives every setting a meaning, and a default or a rule for its absence', () => {
    for (const [name, schema] of entries) {
      expect(schema.description, name).toEqual(expect.any(String));
      expect(schema.default !== undefined || schema['x-default'] !== undefined, name).toBe(true);
    }
  });

  it('holds its own defaults: an empty environment reads to values the schema accepts', () => {
    const values = readSettings({});
    expect(Compile(Settings).Check(values)).toBe(true);
    expect(values.PORT).toBe(3000);
    expect(values.WORKER).toBe(true);
    expect(values.DATABASE_URL).toBeUndefined();
  });

  it('refuses a value outside an integer setting, naming it and its range', () => {
    for (const [name, schema] of entries) {
      if (schema.type !== 'integer') continue;
      const above = String((schema.maximum as number) + 1);
      expect(() => loadConfig({ [name]: above }), name).toThrow(
        new ConfigError(
          `${name} must be an integer from ${schema.minimum} to ${schema.maximum}, got "${above}"`,
        ),
      );
      expect(readSettings({ [name]: String(schema.maximum) }), name).toMatchObject({
        [name]: schema.maximum,
      });
    }
  });

  it('refuses an unknown choice, a bad flag and a URL of another scheme', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(
      'LOG_FORMAT must be json or pretty, got "xml"',
    );
    expect(() => loadConfig({ RETENTION: 'maybe' })).toThrow(
      'RETENTION must be 1 or 0, got "maybe"',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(
      'REDIS_URL must start with redis:// or rediss://',
    );
  });

  it('keeps the lenient switches as they were: WORKER off only when said, TRUST_PROXY on only when said', () => {
    expect(loadConfig({ WORKER: 'OFF' }).worker).toBe(false);
    expect(loadConfig({ WORKER: 'whatever' }).worker).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'yes' }).trustProxy).toBe(false);
  });

  it('writes one table row a setting', () => {
    expect(settingsTable().split('\n')).toHaveLength(entries.length + 2);
  });
});
