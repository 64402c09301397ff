import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { imageCopies } from '../../helpers/processes.js';

const root = join(import.meta.dirname, '../../..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

/** The destinations the Containerfile's last stage copies into /app. */
const runtimeCopies = () => imageCopies().map(([, dest]) => dest);

/** The repository files a package script runs with `node <file>`. */
function scriptFiles(name: string): string[] {
  return [...(pkg.scripts[name] ?? '').matchAll(/node (\S+\.m?js)/g)].map(([, f]) => f!);
}

describe('the container image', () => {
  it('holds every file `npm start` and `npm run admin` run, their pre-scripts included', () => {
    const copied = runtimeCopies();
    const needed = ['prestart', 'start', 'preadmin', 'admin'].flatMap(scriptFiles);
    expect(needed).toEqual(
      expect.arrayContaining(['scripts/ensure-build.mjs', 'bin/tracking-admin.js']),
    );
    for (const file of needed) {
      expect(
        copied.some((c) => file === c || file.startsWith(`${c}/`)),
        `${file} is not in the runtime stage (${copied.join(', ')})`,
      ).toBe(true);
    }
  });

  it('compiles nothing where there are no sources (the image has dist/ but no src/)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-image-'));
    try {
      execFileSync('mkdir', ['-p', join(dir, 'scripts'), join(dir, 'dist')]);
      execFileSync('cp', [join(root, 'scripts/ensure-build.mjs'), join(dir, 'scripts/')]);
      execFileSync('cp', [join(root, 'package.json'), dir]);
      // No node_modules/typescript: a compile attempt would fail and exit non-zero.
      const out = execFileSync(process.execPath, [join(dir, 'scripts/ensure-build.mjs')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the systemd unit', () => {
  it("its install line works when the configuration's directory does not exist", () => {
    const unit = read('deploy/tracking.service');
    const line = unit.match(/^#\s+(install .*\/etc\/tracking\/\S+)/m)?.[1];
    expect(line).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'ops-etc-'));
    try {
      // As written, but into a scratch /etc and without the owner (that needs root).
      const cmd = line!
        .replace(/\s+#.*$/, '')
        .replace(/ -o \S+ -g \S+/, '')
        .replaceAll('/etc/tracking', join(dir, 'etc/tracking'));
      execFileSync('sh', ['-c', cmd], { cwd: root, stdio: 'pipe' });
      expect(existsSync(join(dir, 'etc/tracking/tracking.env'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the lockfile', () => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { engines?: { node?: string }; dev?: boolean }>;
  };
  const refusing = (version: string, all: boolean) =>
    Object.entries(lock.packages).flatMap(([path, p]) => {
      const range = p.engines?.node;
      if (!path || !range || (!all && p.dev)) return [];
      return semver.satisfies(version, range) ? [] : [`${path} wants node ${range}`];
    });

  it('installs nothing that refuses the Node running the tests (no EBADENGINE)', () => {
    expect(refusing(process.versions.node, true)).toEqual([]);
  });

  it('installs no runtime package that refuses the oldest Node the service supports', () => {
    expect(refusing(semver.minVersion(pkg.engines.node)!.version, false)).toEqual([]);
  });
});

describe('docs/operations.md', () => {
  it('says how to run the admin CLI against a systemd and a compose deployment', () => {
    const ops = read('docs/operations.md');
    expect(ops).toMatch(/sudo -u tracking .*npm run admin --/);
    expect(ops).toMatch(/compose -f deploy\/compose.yaml exec api1 npm run admin --/);
  });
});

describe('README.md, for a newcomer', () => {
  const readme = read('README.md');
  it('states the 3-character campaign code limit and why a 4-character code is 422', () => {
    expect(readme).toContain('Campaign codes are 1 to 3 characters');
    expect(readme).toMatch(/4-character code is answered 422 \(`string_too_long`/);
  });

  it('says npm start reads .env and what the first start prints', () => {
    expect(readme).toMatch(
      /`npm start` \(and\s+`npm run worker`, `npm run migrate`, `npm run admin`\) read `\.env`/,
    );
    expect(readme).toContain('public API listening at http://127.0.0.1:3000');
  });
});
