/**
 * Next.js route handlers (app router), or any Web Request → Response
 * runtime: `export const GET = nextTrackingNumber(options)` in
 * app/tracking-number/route.ts. Runs on the Node.js runtime (it uses
 * node:crypto), which is Next's default for route handlers.
 */
import { createTrackingRoute, type TrackingRouteOptions } from './route.js';

/**
 * A route handler sees no socket. The proxy in front of Next.js (Vercel's,
 * a load balancer, `next start` behind nginx) appends the address it saw to
 * `X-Forwarded-For`, so the last hop is the one a client cannot choose.
 */
function lastForwardedHop(headers: Headers): string | undefined {
  const hops = headers.get('x-forwarded-for')?.split(',');
  const last = hops?.[hops.length - 1]?.trim();
  return last || (headers.get('x-real-ip') ?? undefined);
}

export function nextTrackingNumber(options: TrackingRouteOptions) {
  const route = createTrackingRoute(options);
  return async (request: Request): Promise<Response> => {
    const answer = await route({
      method: request.method,
      url: request.url,
      header: (name) => request.headers.get(name) ?? undefined,
      address: lastForwardedHop(request.headers),
    });
    return new Response(request.method === 'HEAD' ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}
