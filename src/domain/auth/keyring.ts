import { errors } from '../../errors.js';
import { hashApiKey, parseBearer, type Scope } from './keys.js';

export interface KeyEntry {
  id: string;
  orgId: string;
  keyHash: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** A key bound to a buyer (docs/routing.md): only routes that take buyer keys accept it. */
  buyerId?: string | null;
}

export interface OrgEntry {
  id: string;
  trackingEnabled: boolean;
  dniRateLimitPerMinute: number | null;
}

/** A key and its organization as the store has them, for a key this process has not seen. */
export type KeyLookup = (keyHash: string) => Promise<{ key: KeyEntry; org: OrgEntry } | null>;

/**
 * How long a key the store does not know (or knows as revoked or expired) is answered 401
 * without asking the store again: floods of one wrong key cost one query a minute. A key that
 * is created later is a new random secret, never one that was tried before.
 */
export const NEGATIVE_TTL_MS = 60_000;
/** At most this many remembered misses; the oldest go first. */
export const NEGATIVE_MAX = 10_000;

export interface Principal {
  keyId: string;
  orgId: string;
  scopes: readonly string[];
  org: OrgEntry;
  /** Set for a key bound to a buyer: it acts on that buyer's calls only. */
  buyerId: string | null;
}

/**
 * An in-memory replica of keys and organizations, so authenticating a request
 * needs no database round trip. Changes made in this process apply at once;
 * changes made by other processes arrive through `apply` from the refresher.
 */
export class Keyring {
  private readonly byHash = new Map<string, KeyEntry>();
  private readonly hashById = new Map<string, string>();
  private readonly orgs = new Map<string, OrgEntry>();
  private lookup: KeyLookup | undefined;
  /** Key hash → until when the store is not asked about it again. */
  private readonly misses = new Map<string, number>();
  private readonly pending = new Map<string, Promise<void>>();

  /** Lets a key unknown here be looked up in the store before a 401 (created on another process). */
  setLookup(lookup: KeyLookup): void {
    this.lookup = lookup;
  }

  applyKey(key: KeyEntry): void {
    const oldHash = this.hashById.get(key.id);
    if (oldHash !== undefined) this.byHash.delete(oldHash);
    // A revoked key is simply absent, so it takes exactly the path of an unknown one.
    if (key.revokedAt) {
      this.hashById.delete(key.id);
      return;
    }
    this.byHash.set(key.keyHash, key);
    this.hashById.set(key.id, key.keyHash);
  }

  applyOrg(org: OrgEntry): void {
    this.orgs.set(org.id, org);
  }

  org(orgId: string): OrgEntry | undefined {
    return this.orgs.get(orgId);
  }

  get size(): number {
    return this.byHash.size;
  }

  /**
   * The order of checks is the contract's: credential, then tracking_disabled,
   * then scope. Every credential problem is the same 401.
   */
  /**
   * As `authenticate`, asking the store about a key this replica cannot accept before the 401.
   * Every credential failure (unknown, revoked, expired, another organization's stale copy)
   * takes this one path, so its time tells nothing about which it was.
   */
  async authenticateWithLookup(
    header: string | undefined,
    scope: Scope,
    nowMs: number,
    buyerKeys = false,
  ): Promise<Principal> {
    const key = parseBearer(header);
    if (key !== null && this.lookup) await this.refreshKey(hashApiKey(key), nowMs);
    return this.authenticate(header, scope, nowMs, buyerKeys);
  }

  private refreshKey(hash: string, nowMs: number): Promise<void> {
    if ((this.misses.get(hash) ?? 0) > nowMs) return Promise.resolve();
    let p = this.pending.get(hash);
    if (!p) {
      p = this.fetch(hash, nowMs).finally(() => this.pending.delete(hash));
      this.pending.set(hash, p);
    }
    return p;
  }

  private async fetch(hash: string, nowMs: number): Promise<void> {
    let found: Awaited<ReturnType<KeyLookup>>;
    try {
      found = await this.lookup!(hash);
    } catch {
      return; // The store is away: answer from what this replica knows, as the refresher does.
    }
    if (found) {
      this.applyOrg(found.org);
      this.applyKey(found.key);
    }
    const entry = this.byHash.get(hash);
    if (!entry || (entry.expiresAt !== null && entry.expiresAt.getTime() <= nowMs)) {
      if (this.misses.size >= NEGATIVE_MAX) {
        this.misses.delete(this.misses.keys().next().value as string);
      }
      this.misses.set(hash, nowMs + NEGATIVE_TTL_MS);
    }
  }

  /**
   * `buyerKeys`: whether the route takes a key bound to a buyer (buyer reports only); anywhere
   * else such a key lacks the scope, whatever its scopes say.
   */
  authenticate(
    header: string | undefined,
    scope: Scope,
    nowMs: number,
    buyerKeys = false,
  ): Principal {
    const key = parseBearer(header);
    const entry = key === null ? undefined : this.byHash.get(hashApiKey(key));
    if (!entry || (entry.expiresAt !== null && entry.expiresAt.getTime() <= nowMs)) {
      throw errors.invalidApiKey();
    }
    const org = this.orgs.get(entry.orgId);
    if (!org) throw errors.invalidApiKey();
    if (!org.trackingEnabled) throw errors.trackingDisabled();
    if (!entry.scopes.includes(scope)) throw errors.insufficientScope();
    const buyerId = entry.buyerId ?? null;
    if (buyerId !== null && !buyerKeys) throw errors.insufficientScope();
    return { keyId: entry.id, orgId: entry.orgId, scopes: entry.scopes, org, buyerId };
  }
}
