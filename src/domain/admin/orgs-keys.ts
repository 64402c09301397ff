import { errors } from '../../errors.js';
import type { Keyring } from '../auth/keyring.js';
import { generateApiKey, hashApiKey, keyPrefix } from '../auth/keys.js';
import { phraseKey } from '../carrier-inbound/reading/read.js';
import { newId } from '../ids.js';
import type { Executor } from '../ports.js';
import type { BuyerRepository } from '../routing/ports.js';
import type { ApiKey, Org, OrgRepos } from './ports.js';

export interface AdminContext<R extends OrgRepos = OrgRepos> {
  repos: R;
  keyring: Keyring;
  now: () => Date;
  requestId: string | null;
  /** Who the audit trail names: `admin` (the admin token) unless a console user acts. */
  actor?: string;
}

const ACTOR = 'admin';
type OrgRow = Org;
type KeyRow = ApiKey;

export const orgView = (org: OrgRow) => ({
  org_id: org.id,
  name: org.name,
  tracking_enabled: org.trackingEnabled,
  dni_rate_limit_per_minute: org.dniRateLimitPerMinute,
  opt_out_phrases: org.optOutPhrases,
  time_zone: org.timeZone,
  opt_out_clarification: org.optOutClarification,
  phone_country: org.phoneCountry,
  currency: org.currency,
  created_at: org.createdAt.toISOString(),
  updated_at: org.updatedAt.toISOString(),
});

export const keyView = (key: KeyRow) => ({
  key_id: key.id,
  org_id: key.orgId,
  key_prefix: key.keyPrefix,
  scopes: key.scopes,
  label: key.label,
  expires_at: key.expiresAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
  rotated_to: key.rotatedTo,
  buyer_id: key.buyerId,
  created_at: key.createdAt.toISOString(),
});

function syncOrg(ctx: AdminContext, o: OrgRow): void {
  ctx.keyring.applyOrg({
    id: o.id,
    trackingEnabled: o.trackingEnabled,
    dniRateLimitPerMinute: o.dniRateLimitPerMinute,
  });
}

function syncKey(ctx: AdminContext, k: KeyRow): void {
  ctx.keyring.applyKey({
    id: k.id,
    orgId: k.orgId,
    keyHash: k.keyHash,
    scopes: k.scopes,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    buyerId: k.buyerId,
  });
}

/** The audit line of an admin change, written in its transaction (`at`: now unless given). */
export async function audit<R extends OrgRepos>(
  ex: Executor,
  ctx: AdminContext<R>,
  orgId: string,
  action: string,
  type: string,
  id: string,
  detail: Record<string, unknown>,
  at: Date = ctx.now(),
) {
  await ctx.repos.audit.writeAudit(ex, {
    orgId,
    actor: ctx.actor ?? ACTOR,
    action,
    subjectType: type,
    subjectId: id,
    detail,
    requestId: ctx.requestId,
    at,
  });
}

export interface OrgInput {
  name?: string;
  tracking_enabled?: boolean;
  dni_rate_limit_per_minute?: number | null;
  /** Replies that revoke consent besides STOP and the other standard words (replaces the list). */
  opt_out_phrases?: string[];
  /** The zone of the organization's reports (IANA name). */
  time_zone?: string;
  /** Ask once before an ambiguous reply revokes (docs/outbound.md#opt-outs). */
  opt_out_clarification?: boolean;
  /** The country a number typed without its country code is read in (ISO 3166 alpha-2). */
  phone_country?: string;
  /** ISO 4217: the currency of buyer payouts and revenue. */
  currency?: string;
}

function checkPhrases(input: OrgInput): void {
  const phrases = input.opt_out_phrases ?? [];
  const bad = phrases.flatMap((p, i) => (phraseKey(p) === '' ? [i] : []));
  if (bad.length === 0) return;
  throw errors.fields(
    bad.map((i) => ({
      loc: ['body', 'opt_out_phrases', i],
      msg: 'a phrase needs at least one letter or digit',
      input: phrases[i],
    })),
  );
}

export async function createOrg(ctx: AdminContext, input: OrgInput & { name: string }) {
  checkPhrases(input);
  const now = ctx.now();
  const row = await ctx.repos.transaction(async (tx) => {
    const o = await ctx.repos.orgs.insertOrg(tx, {
      id: newId('org', now.getTime()),
      name: input.name,
      trackingEnabled: input.tracking_enabled ?? false,
      dniRateLimitPerMinute: input.dni_rate_limit_per_minute ?? null,
      optOutPhrases: input.opt_out_phrases ?? [],
      timeZone: input.time_zone ?? 'UTC',
      optOutClarification: input.opt_out_clarification ?? false,
      phoneCountry: input.phone_country ?? 'US',
      currency: input.currency ?? 'USD',
      createdAt: now,
      updatedAt: now,
    });
    await audit(tx, ctx, o.id, 'org.created', 'org', o.id, { ...input });
    return o;
  });
  syncOrg(ctx, row);
  return orgView(row);
}

/** The organization, or 404. `ex`: a transaction the lookup belongs to. */
export async function getOrg(
  repos: Pick<OrgRepos, 'db' | 'orgs'>,
  orgId: string,
  ex: Executor = repos.db,
): Promise<OrgRow> {
  const o = await repos.orgs.findOrg(ex, orgId);
  if (!o) throw errors.orgNotFound();
  return o;
}

export async function updateOrg(ctx: AdminContext, orgId: string, input: OrgInput) {
  checkPhrases(input);
  const row = await ctx.repos.transaction(async (tx) => {
    await getOrg(ctx.repos, orgId, tx);
    const o = await ctx.repos.orgs.updateOrg(tx, orgId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.tracking_enabled !== undefined ? { trackingEnabled: input.tracking_enabled } : {}),
      ...(input.dni_rate_limit_per_minute !== undefined
        ? { dniRateLimitPerMinute: input.dni_rate_limit_per_minute }
        : {}),
      ...(input.opt_out_phrases !== undefined ? { optOutPhrases: input.opt_out_phrases } : {}),
      ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
      ...(input.opt_out_clarification !== undefined
        ? { optOutClarification: input.opt_out_clarification }
        : {}),
      ...(input.phone_country !== undefined ? { phoneCountry: input.phone_country } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      updatedAt: ctx.now(),
    });
    await audit(tx, ctx, orgId, 'org.updated', 'org', orgId, { ...input });
    return o!;
  });
  syncOrg(ctx, row);
  return orgView(row);
}

export interface KeyInput {
  scopes: string[];
  expires_at?: string | null;
  label?: string | null;
  /** Binds the key to a buyer of the organization: it posts buyer reports on its calls only. */
  buyer_id?: string | null;
}

async function insertKey(repos: OrgRepos, tx: Executor, orgId: string, input: KeyInput, now: Date) {
  const apiKey = generateApiKey();
  const row = await repos.orgs.insertKey(tx, {
    id: newId('key', now.getTime()),
    orgId,
    keyHash: hashApiKey(apiKey),
    keyPrefix: keyPrefix(apiKey),
    scopes: [...new Set(input.scopes)],
    label: input.label ?? null,
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    buyerId: input.buyer_id ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return { row, apiKey };
}

export async function issueKey(
  ctx: AdminContext<OrgRepos & { buyers: Pick<BuyerRepository, 'getBuyer'> }>,
  orgId: string,
  input: KeyInput,
) {
  const now = ctx.now();
  if (input.buyer_id && !input.scopes.includes('execute')) {
    throw errors.field(
      ['body', 'scopes'],
      'a key bound to a buyer posts buyer reports, which need the execute scope',
      input.scopes,
    );
  }
  // A key that is born expired is a mistake (a wrong year, a past date): say so, issue nothing.
  if (input.expires_at && new Date(input.expires_at).getTime() <= now.getTime()) {
    throw errors.field(['body', 'expires_at'], 'must be in the future', input.expires_at);
  }
  const { row, apiKey } = await ctx.repos.transaction(async (tx) => {
    await getOrg(ctx.repos, orgId, tx);
    if (input.buyer_id && !(await ctx.repos.buyers.getBuyer(tx, orgId, input.buyer_id))) {
      throw errors.field(['body', 'buyer_id'], 'not a buyer of this organization', input.buyer_id);
    }
    const issued = await insertKey(ctx.repos, tx, orgId, input, now);
    await audit(tx, ctx, orgId, 'key.issued', 'api_key', issued.row.id, {
      scopes: issued.row.scopes,
      expires_at: input.expires_at ?? null,
      label: input.label ?? null,
      buyer_id: input.buyer_id ?? null,
    });
    return issued;
  });
  syncKey(ctx, row);
  return { ...keyView(row), api_key: apiKey };
}

async function getKey(repos: OrgRepos, ex: Executor, keyId: string): Promise<KeyRow> {
  const k = await repos.orgs.findKey(ex, keyId);
  if (!k) throw errors.keyNotFound();
  return k;
}

export async function setKeyScopes(ctx: AdminContext, keyId: string, scopes: string[]) {
  const row = await ctx.repos.transaction(async (tx) => {
    const before = await getKey(ctx.repos, tx, keyId);
    const k = await ctx.repos.orgs.updateKey(tx, keyId, {
      scopes: [...new Set(scopes)],
      updatedAt: ctx.now(),
    });
    await audit(tx, ctx, before.orgId, 'key.scopes_changed', 'api_key', keyId, {
      from: before.scopes,
      to: k!.scopes,
    });
    return k!;
  });
  syncKey(ctx, row);
  return keyView(row);
}

export async function revokeKey(ctx: AdminContext, keyId: string) {
  const now = ctx.now();
  const row = await ctx.repos.transaction(async (tx) => {
    const before = await getKey(ctx.repos, tx, keyId);
    if (before.revokedAt) return before;
    const k = await ctx.repos.orgs.updateKey(tx, keyId, { revokedAt: now, updatedAt: now });
    await audit(tx, ctx, before.orgId, 'key.revoked', 'api_key', keyId, {});
    return k!;
  });
  syncKey(ctx, row);
  return keyView(row);
}

/** A new key with the same scopes; the old one keeps working for `graceSeconds`, then stops. */
export async function rotateKey(ctx: AdminContext, keyId: string, graceSeconds: number) {
  const now = ctx.now();
  const { oldRow, newRow, apiKey } = await ctx.repos.transaction(async (tx) => {
    const before = await getKey(ctx.repos, tx, keyId);
    if (before.revokedAt || (before.expiresAt && before.expiresAt <= now))
      throw errors.conflict('key_not_active');
    const issued = await insertKey(
      ctx.repos,
      tx,
      before.orgId,
      {
        scopes: before.scopes,
        expires_at: before.expiresAt?.toISOString() ?? null,
        label: before.label,
        buyer_id: before.buyerId,
      },
      now,
    );
    const stopAt = new Date(now.getTime() + graceSeconds * 1000);
    const old = await ctx.repos.orgs.updateKey(
      tx,
      keyId,
      graceSeconds === 0
        ? { revokedAt: now, rotatedTo: issued.row.id, updatedAt: now }
        : {
            expiresAt: before.expiresAt && before.expiresAt < stopAt ? before.expiresAt : stopAt,
            rotatedTo: issued.row.id,
            updatedAt: now,
          },
    );
    await audit(tx, ctx, before.orgId, 'key.rotated', 'api_key', keyId, {
      new_key_id: issued.row.id,
      grace_seconds: graceSeconds,
    });
    return { oldRow: old!, newRow: issued.row, apiKey: issued.apiKey };
  });
  syncKey(ctx, oldRow);
  syncKey(ctx, newRow);
  return {
    ...keyView(newRow),
    api_key: apiKey,
    replaces: keyId,
    old_key_stops_at: (oldRow.revokedAt ?? oldRow.expiresAt)?.toISOString() ?? null,
  };
}
