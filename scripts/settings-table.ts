import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../src/config.js';

const README_SETTINGS = new URL('../README.md', import.meta.url);

/** `npm run settings:table`: writes the README's settings table from src/config.ts's schema. */
const text = readFileSync(README_SETTINGS, 'utf8');
const next = withSettingsTable(text);
if (next !== text) {
  writeFileSync(README_SETTINGS, next);
  // Biome aligns the table's columns, as `npm run lint` wants them.
  execFileSync('npx', ['biome', 'format', '--write', 'README.md'], { stdio: 'inherit' });
}
process.stdout.write(
  next === text ? 'README settings table up to date\n' : 'README settings table written\n',
);
