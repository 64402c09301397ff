import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import type { AdminContext } from '../../../domain/admin/orgs-keys.js';

/** What the admin services take for one request: the repositories, the keyring, the clock. */
export const adminContext = (
  deps: AppDeps,
  request: FastifyRequest,
): AdminContext<AppDeps['repos']> => ({
  repos: deps.repos,
  keyring: deps.keyring,
  now: () => new Date(deps.clock.now()),
  requestId: request.id,
});
