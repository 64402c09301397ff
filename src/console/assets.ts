import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The console's own files: beside this module (src/console, or dist/src/console, where the build
 * copies them: scripts/ensure-build.mjs), else in src/ beside a dist/ built before that copy.
 */
const CANDIDATES = [join(here, 'assets'), join(here, '../../../src/console/assets')];
export const ASSETS_DIR = CANDIDATES.find((d) => existsSync(join(d, 'console.css')));

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  type: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

/** Every asset, read and compressed once at start-up. */
export function loadAssets(dir = ASSETS_DIR): Map<string, Asset> {
  if (dir === undefined)
    throw new Error(
      `the console's files (console.css…) are in none of ${CANDIDATES.join(', ')}: ` +
        'run `npm run build`, or set CONSOLE_PORT=0 to run without the console',
    );
  const out = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const raw = readFileSync(join(dir, name));
    out.set(name, {
      type,
      raw,
      gzip: gzipSync(raw, { level: 9 }),
      br: brotliCompressSync(raw),
      etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 16)}"`,
    });
  }
  return out;
}

export function assetRoutes(app: FastifyInstance, assets: Map<string, Asset>): void {
  app.get('/assets/:name', async (req, reply) => {
    const a = assets.get((req.params as { name: string }).name);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.header('content-type', a.type).header('etag', a.etag).header('vary', 'accept-encoding');
    reply.header('cache-control', 'public, max-age=300');
    if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
    const accepts = String(req.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(a.br);
    if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(a.gzip);
    return reply.send(a.raw);
  });
}
