#!/usr/bin/env node
// Builds dist/dni-swap.min.js (one file a site copies and serves), prints its
// gzipped size and fails above the kit's 3 KB budget.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';

export const BUDGET_BYTES = 3 * 1024;
const src = new URL('../src/dni-swap.js', import.meta.url);
const out = new URL('../dist/dni-swap.min.js', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const { code } = transformSync(readFileSync(src, 'utf8'), {
  minify: true,
  // Regex lookbehind needs ES2018; every browser of the last four years has it.
  target: 'es2020',
  legalComments: 'none',
});
mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
writeFileSync(out, `/*! dni-swap ${pkg.version} */\n${code}`);
const size = gzipSync(readFileSync(out), { level: 9 }).length;
console.log(
  `dni-swap.min.js: ${Buffer.byteLength(code)} bytes, ${size} bytes gzipped (budget ${BUDGET_BYTES})`,
);
if (size > BUDGET_BYTES) {
  console.error(`dni-swap.min.js is over its ${BUDGET_BYTES}-byte gzip budget`);
  process.exit(1);
}
