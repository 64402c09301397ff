import type { Logger } from 'pino';
import { createAdPlatforms } from '../adapters/ad-platforms/index.js';
import type { Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import { checkSecretsKey } from '../domain/conversions/key-check.js';
import { SecretBox } from '../domain/conversions/secrets.js';
import { UploadWorker } from './uploads.js';

export type Conversions = NonNullable<AppDeps['conversions']>;

/**
 * The secrets key and the platform clients, once the stored secrets were checked against the
 * key (a wrong SECRETS_KEY stops start-up here, with one line; src/startup-errors.ts).
 */
export async function openConversions(
  config: Config,
  repos: AppDeps['repos'],
  logger: Logger,
): Promise<Conversions> {
  const c = config.conversions;
  const box = c.secretsKey ? new SecretBox(c.secretsKey, c.previousKeys) : null;
  const { rewrapped } = await checkSecretsKey(repos, box);
  if (rewrapped > 0) {
    logger.info({ rewrapped }, 'destination secrets re-encrypted under the current SECRETS_KEY');
  }
  return { box, platforms: createAdPlatforms(c.urls, c.timeoutMs) };
}

/** The upload worker (also used by src/worker.ts). */
export function createUploadWorker(
  config: Config,
  deps: Pick<AppDeps, 'repos' | 'clock' | 'logger'> & Partial<Pick<AppDeps, 'metrics'>>,
  conversions: Conversions,
): UploadWorker {
  return new UploadWorker(
    {
      repos: deps.repos,
      clock: deps.clock,
      metrics: deps.metrics,
      logger: deps.logger.child({ component: 'uploads' }),
      box: conversions.box,
      platforms: conversions.platforms,
    },
    {
      retryBaseMs: config.conversions.retryBaseMs,
      // A request may take the timeout twice (one OAuth refresh, one upload) plus recording.
      leaseMs: 3 * config.conversions.timeoutMs + 10_000,
    },
    config.workerPollMs,
  );
}
