// Packs the website kit's three packages (after `npm run build:kit` built
// them) into dist/kit/*.tgz, the files a site installs with
// `npm install ./call-tracking-client-X.tgz ./call-tracking-site-X.tgz
// ./call-tracking-dni-swap-X.tgz` (docs/website-integration.md). Installed
// together, they need nothing from a registry: the site's one dependency is
// the client, and neither the client nor the swap script has any.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = fileURLToPath(new URL('../dist/kit/', import.meta.url));
mkdirSync(out, { recursive: true });
const packed = JSON.parse(
  execFileSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['pack', '--workspaces', '--json', '--pack-destination', out],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ),
);
for (const p of packed) console.log(`dist/kit/${p.filename}: ${p.size} bytes`);
