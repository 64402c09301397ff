/**
 * The route as a plain Node handler, `(req, res)`, for node:http, Express,
 * Connect and anything else built on IncomingMessage/ServerResponse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { createTrackingRoute, type SiteResponse, type TrackingRouteOptions } from './route.js';

function write(res: ServerResponse, answer: SiteResponse, head: boolean): void {
  res.writeHead(answer.status, answer.headers);
  res.end(head ? undefined : answer.body);
}

/** `(req, res) => Promise<void>`; never rejects. */
export function trackingNumberHandler(options: TrackingRouteOptions) {
  const route = createTrackingRoute(options);
  return async (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
    const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    // Express rewrites req.url under a mount path; originalUrl is what the browser asked.
    const path = req.originalUrl ?? req.url ?? '/';
    const answer = await route({
      method: req.method ?? 'GET',
      url: `${scheme}://${req.headers.host ?? 'localhost'}${path}`,
      header: (name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      },
      address: req.socket.remoteAddress,
    });
    write(res, answer, req.method === 'HEAD');
  };
}

/**
 * Express: `app.get('/tracking-number', expressTrackingNumber(options))`.
 * Express's req and res are Node's, so this is the plain handler with
 * failures handed to `next` as Express expects.
 */
export function expressTrackingNumber(options: TrackingRouteOptions) {
  const handler = trackingNumberHandler(options);
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    handler(req, res).catch(next);
  };
}
