import type { UnitOfWork } from '../ports.js';
import type { DestinationRepository } from './ports.js';
import { type SecretBox, SecretsKeyMismatch } from './secrets.js';

/**
 * At start-up: every stored destination secret must open with the configured keys, else the
 * process stops with one line naming the problem (a wrong SECRETS_KEY would otherwise show up
 * later as failed uploads). Rows written under a previous key are re-encrypted under the
 * current one, so SECRETS_KEY_PREVIOUS can be dropped once a start has succeeded.
 */
export async function checkSecretsKey(
  repos: Pick<UnitOfWork, 'db'> & {
    destinations: Pick<DestinationRepository, 'allSealedSecrets' | 'setSealedSecrets'>;
  },
  box: SecretBox | null,
): Promise<{ rewrapped: number; checked: number }> {
  const rows = await repos.destinations.allSealedSecrets(repos.db);
  if (rows.length === 0) return { rewrapped: 0, checked: 0 };
  if (!box) throw new SecretsKeyMismatch(rows[0]!.secrets.split('.')[1] ?? '?', 'unset');
  let rewrapped = 0;
  for (const r of rows) {
    const plain = box.open(r.secrets);
    if (box.isStale(r.secrets)) {
      await repos.destinations.setSealedSecrets(repos.db, r.id, box.seal(plain));
      rewrapped++;
    }
  }
  return { rewrapped, checked: rows.length };
}
