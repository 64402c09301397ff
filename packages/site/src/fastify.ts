/**
 * Fastify: `app.get('/tracking-number', fastifyTrackingNumber(options))`.
 * Typed by what it uses, so the kit does not depend on Fastify.
 */
import { createTrackingRoute, type TrackingRouteOptions } from './route.js';

interface FastifyLikeRequest {
  method: string;
  url: string;
  protocol: 'http' | 'https';
  host: string;
  /** The client's address (Fastify's `trustProxy` decides whether X-Forwarded-For counts). */
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string>): FastifyLikeReply;
  send(body: string): FastifyLikeReply;
}

export function fastifyTrackingNumber(options: TrackingRouteOptions) {
  const route = createTrackingRoute(options);
  return async (request: FastifyLikeRequest, reply: FastifyLikeReply) => {
    const answer = await route({
      method: request.method,
      url: `${request.protocol}://${request.host}${request.url}`,
      header: (name) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      },
      address: request.ip,
    });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
}
