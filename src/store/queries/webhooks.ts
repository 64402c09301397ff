import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import type { WebhookQueries } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../schema/webhooks.js';

export function createWebhookQueries(db: Db): WebhookQueries {
  return {
    listDeliveries: (orgId, endpointId, o) =>
      db
        .select({ d: webhookDeliveries, type: webhookEvents.type })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(
          and(
            eq(webhookDeliveries.orgId, orgId),
            eq(webhookDeliveries.endpointId, endpointId),
            o.state ? eq(webhookDeliveries.state, o.state) : undefined,
            o.before ? lt(webhookDeliveries.id, o.before) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(o.limit),

    listEndpoints: (orgId, o) =>
      db
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.orgId, orgId),
            o.after ? gt(webhookEndpoints.id, o.after) : undefined,
          ),
        )
        .orderBy(asc(webhookEndpoints.id))
        .limit(o.limit),

    listAttempts: (orgId, endpointId, o) =>
      db
        .select()
        .from(webhookAttempts)
        .where(
          and(
            eq(webhookAttempts.orgId, orgId),
            eq(webhookAttempts.endpointId, endpointId),
            o.eventId ? eq(webhookAttempts.eventId, o.eventId) : undefined,
          ),
        )
        .orderBy(desc(webhookAttempts.startedAt), desc(webhookAttempts.id))
        .limit(o.limit),
  };
}
