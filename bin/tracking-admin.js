#!/usr/bin/env node
// The package bin: runs the compiled CLI. `npm install` compiles it; from a
// checkout, `npm run admin -- <command>` compiles first when src/ changed.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);

if (existsSync(entry)) {
  await import(entry.href);
} else {
  process.stderr.write(
    'tracking-admin: the CLI is not built yet.\n' +
      '  run `npm run build` once, or use `npm run admin -- <command>` from the repository.\n',
  );
  process.exitCode = 2;
}
