import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, Settings } from '../../../src/config.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Every variable src/config.ts reads: the names of its settings schema. */
function settingsRead(): string[] {
  return Object.keys(Settings.properties).sort();
}

function exampleSettings(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of read('.env.example').split('\n')) {
    const m = /^([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

describe('.env.example', () => {
  it('lists every setting src/config.ts reads, and nothing else', () => {
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(25);
    expect([...exampleSettings().keys()].sort()).toEqual(read);
  });

  it('is a valid configuration as written (its values are the defaults)', () => {
    const env = Object.fromEntries(exampleSettings());
    expect(() => loadConfig(env)).not.toThrow();
    const fromExample = loadConfig(env);
    const defaults = loadConfig({});
    expect(fromExample.retention).toEqual(defaults.retention);
    expect(fromExample.port).toBe(defaults.port);
    expect(fromExample.logFormat).toBe('json');
  });
});
