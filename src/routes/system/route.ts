import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../app.js';
import { errors } from '../../errors.js';

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', {
    schema: {
      summary: 'Liveness and store health',
      tags: ['system'],
      response: { 200: Type.Object({ status: Type.Literal('ok') }) },
    },
    handler: async () => {
      try {
        await deps.store.ping();
      } catch {
        throw errors.unavailable();
      }
      return { status: 'ok' };
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
