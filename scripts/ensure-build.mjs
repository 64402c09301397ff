#!/usr/bin/env node
// Runs before `npm start`, `npm run worker`, `npm run migrate` and `npm run admin`:
// compiles only when a source is newer than the last build, so a restart costs
// a directory walk (~20 ms) instead of a full `tsc` (15 s on two cores), and a
// `git pull` followed by `npm start` still runs what was pulled.
// `--stamp` (run by `npm run build` after tsc) records a finished build.
// tsc compiles only TypeScript: the files the service reads beside its modules (the stored
// functions' SQL, read by `migrate()`; the console's CSS, script and icon) are copied into dist/,
// so that dist/ runs alone, as the container image runs it (without src/).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');

const BESIDE_MODULES = ['src/store/sql', 'src/console/assets'];

function copyFiles() {
  for (const dir of BESIDE_MODULES) {
    const to = join(root, 'dist', dir);
    rmSync(to, { recursive: true, force: true });
    cpSync(join(root, dir), to, { recursive: true });
  }
}

if (process.argv.includes('--stamp')) {
  copyFiles();
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

// No sources, nothing to compile: a container image or an installed package ships dist/ alone
// (and no TypeScript), and must start as it is.
if (!existsSync(join(root, 'src'))) process.exit(0);

const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) =>
  join(root, p),
);
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
const changed = inputs.filter((p) => existsSync(p)).some((p) => newest(p) > built);
if (!changed) process.exit(0);

process.stderr.write(
  built < 0
    ? 'dist/ is not built yet: compiling once (npm run build)…\n'
    : 'sources changed since the last build: compiling once (npm run build)…\n',
);
try {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
} catch {
  process.stderr.write(
    'build failed: fix the errors above, or run `npm run build` to see them again\n',
  );
  process.exit(1);
}
copyFiles();
writeFileSync(stamp, `${new Date().toISOString()}\n`);
