import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../app.js';
import { errors } from '../../errors.js';
import { Detail } from '../common.js';
import { type Named, reply } from '../openapi.js';

const Health = Type.Object(
  { status: Type.Literal('ok') },
  { $id: 'Health', examples: [{ status: 'ok' }] },
);

export const ServiceUnavailableError = Detail(
  'ServiceUnavailableError',
  ['service_unavailable'],
  'A dependency of the service (its database) does not answer; retry after Retry-After seconds',
);

export const systemSchemas: Named[] = [Health, ServiceUnavailableError];

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', {
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness and store health',
      description: 'No key needed. 200 while the process serves and its store answers.',
      tags: ['system'],
      security: [],
      response: {
        200: reply('The process is up and its store answers', Health),
        503: reply('The store does not answer', ServiceUnavailableError, {
          headers: ['Retry-After'],
        }),
      },
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
