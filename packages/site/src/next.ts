/**
 * Next.js route handlers (app router), or any Web Request → Response
 * runtime: `export const GET = nextTrackingNumber(options)` in
 * app/tracking-number/route.ts. Runs on the Node.js runtime (it uses
 * node:crypto), which is Next's default for route handlers.
 */
import { createTrackingRoute, type TrackingRouteOptions } from './route.js';

export function nextTrackingNumber(options: TrackingRouteOptions) {
  const route = createTrackingRoute(options);
  return async (request: Request): Promise<Response> => {
    const answer = await route({
      method: request.method,
      url: request.url,
      header: (name) => request.headers.get(name) ?? undefined,
    });
    return new Response(request.method === 'HEAD' ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}
