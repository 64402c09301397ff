// An Express site with the kit: pages rendered by Express carry the firm's
// default number, the swap script replaces it with the visitor's, and the kit's
// route answers the script at GET /tracking-number (key kept on this server).
//
//   TRACKING_API_URL=http://127.0.0.1:3000 TRACKING_API_KEY=$KEY CAMPAIGN=spr \
//     node examples/express-site/server.mjs       # http://127.0.0.1:8081/
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expressTrackingNumber, formatNumber } from '@call-tracking/site';
import express from 'express';

const SWAP_DIR = dirname(createRequire(import.meta.url).resolve('@call-tracking/dni-swap'));
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the site; `number` is the firm's default number (E.164). */
function page(number, title, main) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>
  body { font-family: Georgia, serif; margin: 0; color: #2b2118; background: #fbf7f0; }
  header { background: #7a3e12; color: #fff; padding: 20px 32px; }
  header h1 { margin: 0; font-size: 26px; }
  nav a { color: #f6dcc4; margin-right: 16px; }
  main { padding: 24px 32px; max-width: 680px; }
  .call { display: inline-block; margin: 8px 0 16px; padding: 14px 22px; border-radius: 8px;
          background: #f3e2cf; font-size: 28px; font-weight: 600; color: #7a3e12; text-decoration: none; }
</style>
<script async src="/kit/dni-swap.min.js" data-endpoint="/tracking-number"
        data-numbers="${escapeHtml(number)}" data-timeout-ms="800"></script>
</head>
<body>
<header><h1>Bayside Plumbing</h1>
<nav><a href="/">Home</a><a href="/services">Services</a><a href="/jobs">Jobs</a></nav></header>
<main>${main}</main>
</body>
</html>`;
}

/** The numbers as a page writes them: (415) 555-0100, 415-555-0100, 415.555.0100, +1 415 555 0100. */
function forms(e164) {
  const [, a, b, c] = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164) ?? [];
  return a
    ? {
        paren: formatNumber(e164),
        dashes: `${a}-${b}-${c}`,
        dots: `${a}.${b}.${c}`,
        intl: `+1 ${a} ${b} ${c}`,
      }
    : { paren: e164, dashes: e164, dots: e164, intl: e164 };
}

/**
 * options: { apiUrl, apiKey, campaign, defaultNumber, timeoutMs? } (see
 * @call-tracking/site). Answers the Express app, not yet listening.
 */
export function createExpressSite(options) {
  const n = options.defaultNumber;
  const f = forms(n);
  const app = express();
  app.disable('x-powered-by');
  app.get('/tracking-number', expressTrackingNumber(options));
  app.use('/kit', express.static(SWAP_DIR, { maxAge: '1h' }));
  app.get('/', (_req, res) => {
    res.send(
      page(
        n,
        'Bayside Plumbing',
        `<p>Burst pipe? We are on our way within the hour, day and night.</p>
<a class="call" id="call" href="tel:${n}">${f.paren}</a>
<p>Emergencies: <span id="dashes">${f.dashes}</span>. Quotes: <span id="dots">${f.dots}</span>.
Calling from abroad: <span id="intl">${f.intl}</span>. Sales: <span id="paren">${f.paren}</span>.</p>
<p><a id="sms" href="tel:${f.dashes}">Text ${f.dashes}</a></p>
<p><button id="more" type="button">Service areas</button></p><div id="late"></div>
<script>
  document.getElementById('more').addEventListener('click', async () => {
    // Content fetched after load, as a single-page site would.
    const res = await fetch('/fragments/areas');
    document.getElementById('late').innerHTML = await res.text();
  });
</script>`,
      ),
    );
  });
  app.get('/fragments/areas', (_req, res) => {
    res.send(
      `<p>San Mateo and Daly City: call <a id="late-call" href="tel:${n}">${f.dots}</a>.</p>`,
    );
  });
  app.get('/services', (_req, res) => {
    res.send(
      page(
        n,
        'Services',
        `<p>Leaks, drains, water heaters.</p><a class="call" id="call" href="tel:${n}">${f.paren}</a>`,
      ),
    );
  });
  app.get('/jobs', (_req, res) => {
    res.send(
      page(
        n,
        'Jobs',
        '<p>We are hiring apprentices. Apply by mail; the union hall is at <span id="other">(212) 555-0199</span>.</p>',
      ),
    );
  });
  return app;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = process.env;
  if (!env.TRACKING_API_KEY) {
    console.error('TRACKING_API_KEY is required (see docs/website-integration.md)');
    process.exit(64);
  }
  const app = createExpressSite({
    apiUrl: env.TRACKING_API_URL ?? 'http://127.0.0.1:3000',
    apiKey: env.TRACKING_API_KEY,
    campaign: env.CAMPAIGN ?? 'spr',
    defaultNumber: env.DEFAULT_NUMBER ?? '+14155550100',
    siteOrigin: env.SITE_ORIGIN,
    onFallback: (error) => console.warn('tracking number: default shown', error),
  });
  const port = Number(env.PORT ?? 8081);
  const host = env.HOST ?? '127.0.0.1';
  app.listen(port, host, () => console.log(`express site on http://${host}:${port}/`));
}
