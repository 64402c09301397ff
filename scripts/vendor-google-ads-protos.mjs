#!/usr/bin/env node
// Writes test/vendor/google-ads-v25.json: the Google Ads API v25 protocol buffers that the
// conversion requests use, taken from the registry package google-ads-node (its
// build/protos/protos.json), cut down to the types reachable from the requests the service
// sends. The package itself needs Node 22 (google-gax 6), and the service supports Node 20,
// so the tests read this copy instead of installing it. Run it again for a new version:
//   node scripts/vendor-google-ads-protos.mjs [version]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';

const version = process.argv[2] ?? '25.1.0';
const api = `v${version.split('.')[0]}`;
const ROOTS = [
  `google.ads.googleads.${api}.services.UploadClickConversionsRequest`,
  `google.ads.googleads.${api}.services.UploadConversionAdjustmentsRequest`,
];

const dir = mkdtempSync(join(tmpdir(), 'google-ads-protos-'));
try {
  const name = `google-ads-node@${version}`;
  const integrity = execFileSync('npm', ['view', name, 'dist.integrity'], {
    encoding: 'utf8',
  }).trim();
  const file = execFileSync('npm', ['pack', name, '--pack-destination', dir], {
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['-xzf', join(dir, file), '-C', dir, 'package/build/protos/protos.json']);
  const full = JSON.parse(readFileSync(join(dir, 'package/build/protos/protos.json'), 'utf8'));
  const root = protobuf.Root.fromJSON(full).resolveAll();

  // Every message and enum reachable from the requests.
  const keep = new Set();
  const visit = (t) => {
    if (keep.has(t.fullName)) return;
    keep.add(t.fullName);
    // A type nested in a message (the enums sit in wrapper messages) needs its parent.
    if (t.parent instanceof protobuf.Type) visit(t.parent);
    if (t instanceof protobuf.Type) {
      for (const f of t.fieldsArray) if (f.resolvedType) visit(f.resolvedType);
      for (const nested of t.nestedArray) visit(nested);
    }
  };
  for (const r of ROOTS) visit(root.lookupType(r));

  // The JSON tree with only those types (and the namespaces holding them).
  const prune = (node, path) => {
    if (!node.nested) return node;
    const nested = {};
    for (const [key, child] of Object.entries(node.nested)) {
      const full = `${path}.${key}`;
      const isType = 'fields' in child || 'values' in child;
      if (isType) {
        if (keep.has(full)) nested[key] = child;
      } else {
        const kept = prune(child, full);
        if (kept.nested && Object.keys(kept.nested).length > 0) nested[key] = kept;
      }
    }
    const { nested: _, methods: __, ...rest } = node;
    return { ...rest, nested };
  };
  const out = {
    source: { package: 'google-ads-node', version, integrity, file: 'build/protos/protos.json' },
    roots: ROOTS,
    ...prune(full, ''),
  };
  writeFileSync(
    new URL(`../test/vendor/google-ads-${api}.json`, import.meta.url),
    `${JSON.stringify(out)}\n`,
  );
  console.log(`test/vendor/google-ads-${api}.json: ${keep.size} types from ${name}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
