import { and, asc, count, eq } from 'drizzle-orm';
import type {
  NewWebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointRepository,
} from '../../domain/admin/ports.js';
import type { Executor } from '../db.js';
import { first, returned } from '../rows.js';
import { trackingNumbers } from '../schema/index.js';
import { webhookEndpoints } from '../schema/webhooks.js';
import { replay } from './webhook-deliveries.js';

export type Endpoint = typeof webhookEndpoints.$inferSelect;

/** Organization first: another organization's endpoint is indistinguishable from a missing one. */
export async function getEndpoint(
  ex: Executor,
  orgId: string,
  id: string,
): Promise<Endpoint | null> {
  return first(
    ex
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id))),
  );
}

export async function listEndpoints(ex: Executor, orgId: string): Promise<Endpoint[]> {
  return ex
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, orgId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function insertEndpoint(ex: Executor, e: NewWebhookEndpoint) {
  return returned(ex.insert(webhookEndpoints).values(e).returning());
}

export async function updateEndpoint(
  ex: Executor,
  orgId: string,
  id: string,
  change: WebhookEndpointChange,
): Promise<Endpoint | null> {
  return first(
    ex
      .update(webhookEndpoints)
      .set(change)
      .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)))
      .returning(),
  );
}

export async function deleteEndpoint(ex: Executor, orgId: string, id: string): Promise<boolean> {
  const rows = await ex
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export async function poolSizeOf(ex: Executor, campaignId: string): Promise<number> {
  const [r] = await ex
    .select({ n: count() })
    .from(trackingNumbers)
    .where(and(eq(trackingNumbers.campaignId, campaignId), eq(trackingNumbers.role, 'pool')));
  return Number(r?.n ?? 0);
}

/** `repos.webhookEndpoints`. */
export function createWebhookEndpointRepository(): WebhookEndpointRepository {
  return {
    getEndpoint,
    listEndpoints,
    insertEndpoint,
    updateEndpoint,
    deleteEndpoint,
    replayDeliveries: replay,
  };
}
