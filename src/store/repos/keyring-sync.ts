import type { Logger } from 'pino';
import type { Keyring } from '../../domain/auth/keyring.js';
import type { Store } from '../db.js';

interface KeyRow extends Record<string, unknown> {
  id: string;
  org_id: string;
  key_hash: string;
  scopes: string[];
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  buyer_id: string | null;
}
interface OrgRow extends Record<string, unknown> {
  id: string;
  tracking_enabled: boolean;
  dni_rate_limit_per_minute: number | null;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

// Rows are re-read for this long after a poll, so a transaction that stamped
// changed_at before the poll but committed after it is still picked up.
// changed_at comes from the database clock (a trigger), like the poll's own
// now(): writers' clocks (or a test clock) never enter the comparison.
const OVERLAP_SECONDS = 30;

const keyEntry = (k: KeyRow) => ({
  id: k.id,
  orgId: k.org_id,
  keyHash: k.key_hash,
  scopes: k.scopes,
  expiresAt: date(k.expires_at),
  revokedAt: date(k.revoked_at),
  buyerId: k.buyer_id,
});

/** One key by its hash, with its organization: a key this process has not polled yet. */
async function keyByHash(store: Store, hash: string) {
  const [row] = await store.query<KeyRow & OrgRow & { org_id: string }>(
    `select k.id, k.org_id, k.key_hash, k.scopes, k.expires_at, k.revoked_at, k.buyer_id,
            o.tracking_enabled, o.dni_rate_limit_per_minute
       from api_keys k join orgs o on o.id = k.org_id
      where k.key_hash = $1`,
    [hash],
  );
  if (!row) return null;
  const org = {
    id: row.org_id,
    trackingEnabled: row.tracking_enabled,
    dniRateLimitPerMinute: row.dni_rate_limit_per_minute,
  };
  return { key: keyEntry(row), org };
}

/** Loads every key and organization, then polls for changes made by other processes. */
export async function startKeyringSync(
  store: Store,
  keyring: Keyring,
  intervalMs: number,
  log: Logger,
): Promise<{ stop(): void; refresh(): Promise<void> }> {
  let since: string | null = null;

  async function refresh(): Promise<void> {
    const where = since === null ? 'revoked_at is null' : 'changed_at > $1::timestamptz';
    const params = since === null ? [] : [since];
    const [clock] = await store.query<{ now: Date | string }>(
      `select now() - interval '${OVERLAP_SECONDS} seconds' as now`,
      [],
    );
    const orgs = await store.query<OrgRow>(
      `select id, tracking_enabled, dni_rate_limit_per_minute from orgs${since === null ? '' : ' where changed_at > $1::timestamptz'}`,
      params,
    );
    for (const o of orgs) {
      keyring.applyOrg({
        id: o.id,
        trackingEnabled: o.tracking_enabled,
        dniRateLimitPerMinute: o.dni_rate_limit_per_minute,
      });
    }
    const keys = await store.query<KeyRow>(
      `select id, org_id, key_hash, scopes, expires_at, revoked_at, buyer_id from api_keys where ${where}`,
      params,
    );
    for (const k of keys) keyring.applyKey(keyEntry(k));
    since = new Date(clock!.now).toISOString();
  }

  keyring.setLookup((hash) => keyByHash(store, hash));
  await refresh();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refresh()
      .catch((err: unknown) =>
        log.warn({ err }, 'keyring refresh failed; serving the last known keys'),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), refresh };
}
