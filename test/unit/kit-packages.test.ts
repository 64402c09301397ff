import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The website kit is versioned with the service (docs/website-integration.md,
// "Releasing the kit"): one version for the repository and its packages.
const read = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const root = read('package.json');
const packages = (root.workspaces as string[]).map((w) => read(`${w}/package.json`));

describe('the kit packages', () => {
  it('carry the service’s version, and depend on each other at that version', () => {
    for (const p of packages) {
      expect(p.version, p.name).toBe(root.version);
      for (const [dep, range] of Object.entries(p.dependencies ?? {})) {
        if (dep.startsWith('@call-tracking/'))
          expect(range, `${p.name} → ${dep}`).toBe(root.version);
      }
    }
  });

  it('are public, publish only what they build, and have no runtime dependency outside the kit', () => {
    for (const p of packages) {
      expect(p.private, p.name).toBeUndefined();
      expect(p.publishConfig, p.name).toEqual({ access: 'public' });
      expect(p.files, p.name).toContain('dist');
      const outside = Object.keys(p.dependencies ?? {}).filter(
        (d) => !d.startsWith('@call-tracking/'),
      );
      expect(outside, p.name).toEqual([]);
    }
  });
});
