import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The swap script a site serves: packages/dni-swap/dist/dni-swap.min.js, built
// by `npm install` / `npm run build` (packages/dni-swap/scripts/build.mjs).
const built = readFileSync(
  new URL('../../packages/dni-swap/dist/dni-swap.min.js', import.meta.url),
  'utf8',
);
const source = readFileSync(
  new URL('../../packages/dni-swap/src/dni-swap.js', import.meta.url),
  'utf8',
);

describe('dni-swap.min.js', () => {
  it('is at most 3 KB gzipped', () => {
    expect(gzipSync(built, { level: 9 }).length).toBeLessThanOrEqual(3 * 1024);
  });

  it('is the build of the current source (else run npm run build:kit)', () => {
    const { code } = transformSync(source, {
      minify: true,
      target: 'es2020',
      legalComments: 'none',
    });
    expect(built.slice(built.indexOf('\n') + 1)).toBe(code);
  });

  it('imports nothing and reads nothing but its own script tag', () => {
    expect(built).not.toMatch(/\bimport\b|\brequire\(/);
    expect(source).toContain('document.currentScript');
  });
});
