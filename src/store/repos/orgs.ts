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
import { apiKeys, orgs } from '../schema/index.js';

export async function findOrg(ex: Executor, orgId: string): Promise<Org | null> {
  const [o] = await ex.select().from(orgs).where(eq(orgs.id, orgId));
  return o ?? null;
}

export async function insertOrg(ex: Executor, o: Org): Promise<Org> {
  const [row] = await ex.insert(orgs).values(o).returning();
  return row!;
}

export async function updateOrg(
  ex: Executor,
  orgId: string,
  change: OrgChange,
): Promise<Org | null> {
  const [row] = await ex.update(orgs).set(change).where(eq(orgs.id, orgId)).returning();
  return row ?? null;
}

export async function findKey(ex: Executor, keyId: string): Promise<ApiKey | null> {
  const [k] = await ex.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  return k ?? null;
}

export async function insertKey(ex: Executor, k: NewApiKey): Promise<ApiKey> {
  const [row] = await ex.insert(apiKeys).values(k).returning();
  return row!;
}

export async function updateKey(
  ex: Executor,
  keyId: string,
  change: ApiKeyChange,
): Promise<ApiKey | null> {
  const [row] = await ex.update(apiKeys).set(change).where(eq(apiKeys.id, keyId)).returning();
  return row ?? null;
}

/** `repos.orgs`. */
export function createOrgRepository(): OrgRepository {
  return { findOrg, insertOrg, updateOrg, findKey, insertKey, updateKey };
}
