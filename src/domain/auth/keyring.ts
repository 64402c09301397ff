import { errors } from '../../errors.js';
import { hashApiKey, parseBearer, type Scope } from './keys.js';

export interface KeyEntry {
  id: string;
  orgId: string;
  keyHash: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface OrgEntry {
  id: string;
  trackingEnabled: boolean;
  dniRateLimitPerMinute: number | null;
}

export interface Principal {
  keyId: string;
  orgId: string;
  scopes: readonly string[];
  org: OrgEntry;
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
  authenticate(header: string | undefined, scope: Scope, nowMs: number): Principal {
    const key = parseBearer(header);
    const entry = key === null ? undefined : this.byHash.get(hashApiKey(key));
    if (!entry || (entry.expiresAt !== null && entry.expiresAt.getTime() <= nowMs)) {
      throw errors.invalidApiKey();
    }
    const org = this.orgs.get(entry.orgId);
    if (!org) throw errors.invalidApiKey();
    if (!org.trackingEnabled) throw errors.trackingDisabled();
    if (!entry.scopes.includes(scope)) throw errors.insufficientScope();
    return { keyId: entry.id, orgId: entry.orgId, scopes: entry.scopes, org };
  }
}
