// A small website that shows each visitor their tracking number, with the API
// key kept on the server. Plain Node (node:http), no framework, no build step.
//
// Two ways to put the number on a page, both served here:
//   GET /          the server asks the tracking service, then renders the page
//                  with the number in it (nothing to run in the browser);
//   GET /script    a page that shows the default number and a small script that
//                  asks this site's own route, POST /tracking-number, which
//                  asks the tracking service. The browser never talks to the
//                  tracking service and never sees the key.
// Either way: the visitor id lives in a first-party cookie, the landing URL and
// click ids are forwarded, and a slow or unreachable service costs at most
// `timeoutMs` before the page shows the campaign's default number.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const VISITOR_COOKIE = 'vid';
const YEAR_SECONDS = 365 * 24 * 3600;

/** Cookies of a request as a plain object. */
function cookiesOf(req) {
  const out = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

/** The visitor's id from the cookie, or a new one the response will set. */
function visitorOf(req, res, secure) {
  const known = cookiesOf(req)[VISITOR_COOKIE];
  if (known && /^[A-Za-z0-9-]{8,64}$/.test(known)) return known;
  const id = randomUUID();
  // HttpOnly: page scripts never need it (this site's route reads it from the request).
  res.setHeader(
    'set-cookie',
    `${VISITOR_COOKIE}=${id}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`,
  );
  return id;
}

/** +14155550101 → (415) 555-0101; other numbers as they are. */
export function formatNumber(e164) {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/**
 * Asks the tracking service for the visitor's number. Never throws: on a slow,
 * failing or refusing service it answers the default number, so the page
 * always has a number to show.
 */
export async function trackingNumber(config, visit) {
  try {
    const res = await fetch(new URL('/dni/session', config.apiUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        campaign_code: config.campaign,
        visitor_id: visit.visitorId,
        // Click ids and UTM parameters in the URL are stored with the session.
        landing_url: visit.landingUrl,
        gclid: visit.gclid ?? null,
        fbc: visit.fbc ?? null,
        fbp: visit.fbp ?? null,
      }),
      signal: AbortSignal.timeout(config.timeoutMs ?? 800),
    });
    if (res.status !== 201) {
      await res.body?.cancel();
      return { number: config.defaultNumber, tracked: false };
    }
    const body = await res.json();
    return { number: body.tracking_number, tracked: true };
  } catch {
    return { number: config.defaultNumber, tracked: false };
  }
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, number, script = '') {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; color: #1d2733; background: #f4f6f8; }
  header { background: #12355b; color: #fff; padding: 24px 32px; }
  main { padding: 32px; max-width: 640px; }
  .call { display: inline-block; margin-top: 16px; padding: 14px 22px; border-radius: 8px;
          background: #e8f1fb; font-size: 28px; font-weight: 600; color: #12355b; text-decoration: none; }
</style>
</head>
<body>
<header><h1>Acme Home Insurance</h1></header>
<main>
<p>Talk to a licensed agent today: we answer seven days a week.</p>
<a class="call" id="phone" data-tracking-number href="tel:${escapeHtml(number)}">${escapeHtml(formatNumber(number))}</a>
</main>
${script}
</body>
</html>`;
}

/** The page script: asks this site's route, then swaps every marked number. */
const PAGE_SCRIPT = `<script>
(async () => {
  try {
    const res = await fetch('/tracking-number', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ landing_url: location.href }),
    });
    if (!res.ok) return;
    const { tracking_number, display } = await res.json();
    for (const a of document.querySelectorAll('[data-tracking-number]')) {
      a.href = 'tel:' + tracking_number;
      a.textContent = display;
    }
  } catch {
    // The default number stays on the page.
  }
})();
</script>`;

async function readJson(req, limit = 8192) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * The site as a node:http server (not yet listening).
 * config: { apiUrl, apiKey, campaign, defaultNumber, timeoutMs?, origin? }
 * origin is the site's public origin (https://www.example.com); without it the
 * Host header is used, which is right only for local runs.
 */
export function createSite(config) {
  return createServer(async (req, res) => {
    const origin = config.origin ?? `http://${req.headers.host}`;
    const url = new URL(req.url ?? '/', origin);
    const secure = origin.startsWith('https:');
    // Every answer is per visitor: no shared cache may keep it.
    res.setHeader('cache-control', 'private, no-store');
    const cookies = cookiesOf(req);

    if (req.method === 'GET' && url.pathname === '/') {
      const visitorId = visitorOf(req, res, secure);
      const { number } = await trackingNumber(config, {
        visitorId,
        landingUrl: url.href,
        gclid: url.searchParams.get('gclid'),
        fbc: cookies._fbc,
        fbp: cookies._fbp,
      });
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Acme Home Insurance', number));
      return;
    }

    if (req.method === 'GET' && url.pathname === '/script') {
      visitorOf(req, res, secure);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Acme Home Insurance', config.defaultNumber, PAGE_SCRIPT));
      return;
    }

    if (req.method === 'POST' && url.pathname === '/tracking-number') {
      const body = await readJson(req);
      // Only a URL of this site is forwarded as the landing page.
      let landing = null;
      try {
        const given = new URL(String(body?.landing_url ?? ''));
        if (given.origin === url.origin) landing = given;
      } catch {}
      const visitorId = visitorOf(req, res, secure);
      const { number } = await trackingNumber(config, {
        visitorId,
        landingUrl: landing?.href ?? null,
        gclid: landing?.searchParams.get('gclid') ?? null,
        fbc: cookies._fbc,
        fbp: cookies._fbp,
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ tracking_number: number, display: formatNumber(number) }));
      return;
    }

    res.statusCode = 404;
    res.setHeader('content-type', 'text/plain');
    res.end('not found');
  });
}
