// Runs the example site: node examples/website/server.mjs
// TRACKING_API_URL=http://127.0.0.1:3000 TRACKING_API_KEY=svc_live_… CAMPAIGN=spr \
// DEFAULT_NUMBER=+14155550100 PORT=8080 node examples/website/server.mjs
import { createSite } from './site.mjs';

const env = process.env;
for (const name of ['TRACKING_API_KEY', 'CAMPAIGN', 'DEFAULT_NUMBER']) {
  if (!env[name]) {
    console.error(`${name} is required (see docs/website-integration.md)`);
    process.exit(64);
  }
}

const site = createSite({
  apiUrl: env.TRACKING_API_URL ?? 'http://127.0.0.1:3000',
  apiKey: env.TRACKING_API_KEY,
  campaign: env.CAMPAIGN,
  defaultNumber: env.DEFAULT_NUMBER,
  timeoutMs: Number(env.TRACKING_TIMEOUT_MS ?? 800),
  origin: env.SITE_ORIGIN,
});
const port = Number(env.PORT ?? 8080);
site.listen(port, env.HOST ?? '127.0.0.1', () => {
  console.log(`example site on http://${env.HOST ?? '127.0.0.1'}:${port}/ (and /script)`);
});
