import type { FastifyInstance } from 'fastify';
import { baseInstance } from '../app.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../deps.js';
import { assetRoutes, loadAssets } from './assets.js';
import type { ConsoleDeps } from './context.js';
import { installErrorPages } from './error-pages.js';
import { accountRoutes } from './pages/account/route.js';
import { buyerPages } from './pages/buyers/route.js';
import { callPages } from './pages/calls/route.js';
import { campaignPages } from './pages/campaigns/route.js';
import { compliancePages } from './pages/compliance/route.js';
import { operatorPages } from './pages/operator/route.js';
import { overviewPage } from './pages/overview/route.js';
import { peoplePages } from './pages/people/route.js';
import { routingPlanPages } from './pages/routing/route.js';
import { settingsPages } from './pages/settings/route.js';
import { webhookPages } from './pages/webhooks/route.js';
import { consoleRouter } from './routing.js';
import { registerSecurity } from './security.js';
import { viewersOf } from './viewers.js';

/** The web console (contract §9): its own listener, server-rendered pages. It never listens. */
export async function buildConsoleApp(
  deps: ConsoleDeps,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger, limits, 'forms');
  // Cookies, forms, headers and CSRF before any route, so every route has them.
  await registerSecurity(app, deps.console);
  // Pages show one person's data: no cache keeps them (assets say otherwise).
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  installErrorPages(app);
  assetRoutes(app, loadAssets());

  const viewers = viewersOf(deps);
  const router = consoleRouter(app, deps, viewers);
  accountRoutes(app, router, viewers);
  overviewPage(router);
  callPages(router);
  campaignPages(router);
  routingPlanPages(router);
  buyerPages(router);
  compliancePages(router);
  webhookPages(router);
  peoplePages(router);
  settingsPages(router);
  operatorPages(router);
  return app;
}
