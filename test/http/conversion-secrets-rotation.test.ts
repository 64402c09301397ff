import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkSecretsKey } from '../../src/domain/conversions/key-check.js';
import { SecretBox, SecretsKeyMismatch } from '../../src/domain/conversions/secrets.js';
import { describeStartupFailure } from '../../src/startup-errors.js';
import { createDestination, TEST_SECRETS_KEY } from '../helpers/conversions.js';
import { CREDS } from '../helpers/fake-ad-platforms.js';
import { createTenant, useHarness } from '../helpers/harness.js';

const h = useHarness({ privateDatabase: 'the key check reads every destination of the database' });
const OLD = TEST_SECRETS_KEY;
const NEW = Buffer.alloc(32, 42);

describe('SECRETS_KEY rotation', () => {
  it('old rows open under SECRETS_KEY_PREVIOUS, are rewrapped, then open without it', async () => {
    h.deps.conversions = { box: new SecretBox(OLD), platforms: {} as never };
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta');
    // A start with only the new key: refused, with the one line start-up prints.
    let refused: unknown;
    await checkSecretsKey(h.deps.repos, new SecretBox(NEW)).catch((e) => {
      refused = e;
    });
    expect(refused).toBeInstanceOf(SecretsKeyMismatch);
    expect(describeStartupFailure(refused, loadConfig({}))).toMatch(
      /^SECRETS_KEY does not decrypt the stored conversion-destination secrets/,
    );
    // No key at all while secrets are stored: refused too.
    await expect(checkSecretsKey(h.deps.repos, null)).rejects.toThrow(/SECRETS_KEY is not set/);

    const rotating = new SecretBox(NEW, [OLD]);
    expect(await checkSecretsKey(h.deps.repos, rotating)).toEqual({ rewrapped: 1, checked: 1 });
    expect(await checkSecretsKey(h.deps.repos, rotating)).toEqual({ rewrapped: 0, checked: 1 });
    const only = new SecretBox(NEW);
    await checkSecretsKey(h.deps.repos, only);
    const row = await h.deps.repos.destinations.getDestination(
      h.deps.repos.db,
      t.orgId,
      d.destination_id,
    );
    expect(only.open(row!.secrets)).toEqual(CREDS.meta);
    expect(() => new SecretBox(OLD).open(row!.secrets)).toThrow(SecretsKeyMismatch);
  });
});
