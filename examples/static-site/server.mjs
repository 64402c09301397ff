// A static site (the files in public/, as any web server or CDN would serve
// them) plus the kit's one dynamic route, GET /tracking-number, as a plain
// node:http handler. The pages carry the firm's default number; the swap
// script replaces it with the visitor's.
//
//   TRACKING_API_URL=http://127.0.0.1:3000 TRACKING_API_KEY=$KEY CAMPAIGN=spr \
//     node examples/static-site/server.mjs        # http://127.0.0.1:8080/
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { trackingNumberHandler } from '@call-tracking/site';

const PUBLIC = new URL('./public/', import.meta.url);
/** The built swap script, as `npm install` left it in the package. */
const SWAP_SCRIPT = createRequire(import.meta.url).resolve('@call-tracking/dni-swap');
const TYPES = { html: 'text/html; charset=utf-8', css: 'text/css', js: 'text/javascript' };

/**
 * options: { apiUrl, apiKey, campaign, defaultNumber, timeoutMs? } (see
 * @call-tracking/site). Answers a node:http server, not yet listening.
 */
export function createStaticSite(options) {
  const trackingNumber = trackingNumberHandler(options);
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/tracking-number') return trackingNumber(req, res);
    const file =
      path === '/'
        ? new URL('index.html', PUBLIC)
        : path === '/dni-swap.min.js'
          ? SWAP_SCRIPT
          : /^\/[a-z0-9-]+\.(html|css)$/.test(path)
            ? new URL(path.slice(1), PUBLIC)
            : null;
    try {
      if (!file) throw new Error('not found');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[String(file).split('.').pop()] });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = process.env;
  if (!env.TRACKING_API_KEY) {
    console.error('TRACKING_API_KEY is required (see docs/website-integration.md)');
    process.exit(64);
  }
  const site = createStaticSite({
    apiUrl: env.TRACKING_API_URL ?? 'http://127.0.0.1:3000',
    apiKey: env.TRACKING_API_KEY,
    campaign: env.CAMPAIGN ?? 'spr',
    // The number written in public/*.html.
    defaultNumber: env.DEFAULT_NUMBER ?? '+14155550100',
    onFallback: (error) => console.warn('tracking number: default shown', error),
  });
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  site.listen(port, host, () => console.log(`static site on http://${host}:${port}/`));
}
