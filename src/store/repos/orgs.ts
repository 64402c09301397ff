import { eq } from 'drizzle-orm';
import type {
  ApiKey,
  ApiKeyChange,
  NewApiKey,
  Org,
  OrgChange,
  OrgRepository,
} from '../../domain/admin/ports.js';
import type { Executor } from '../db.js';
import { first, returned } from '../rows.js';
import { apiKeys, orgs } from '../schema/index.js';

export async function findOrg(ex: Executor, orgId: string): Promise<Org | null> {
  return first(ex.select().from(orgs).where(eq(orgs.id, orgId)));
}

export async function insertOrg(ex: Executor, o: Org): Promise<Org> {
  return returned(ex.insert(orgs).values(o).returning());
}

export async function updateOrg(
  ex: Executor,
  orgId: string,
  change: OrgChange,
): Promise<Org | null> {
  return first(ex.update(orgs).set(change).where(eq(orgs.id, orgId)).returning());
}

export async function findKey(ex: Executor, keyId: string): Promise<ApiKey | null> {
  return first(ex.select().from(apiKeys).where(eq(apiKeys.id, keyId)));
}

export async function insertKey(ex: Executor, k: NewApiKey): Promise<ApiKey> {
  return returned(ex.insert(apiKeys).values(k).returning());
}

export async function updateKey(
  ex: Executor,
  keyId: string,
  change: ApiKeyChange,
): Promise<ApiKey | null> {
  return first(ex.update(apiKeys).set(change).where(eq(apiKeys.id, keyId)).returning());
}

/** `repos.orgs`. */
export function createOrgRepository(): OrgRepository {
  return { findOrg, insertOrg, updateOrg, findKey, insertKey, updateKey };
}
