import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { WebhookQueries } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../schema/webhooks.js';
import { beforeCursor, eqIfGiven, orgRows } from './org-rows.js';

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
            eqIfGiven(webhookDeliveries.state, o.state),
            beforeCursor(webhookDeliveries.id, o.before),
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(o.limit),

    listEndpoints: (orgId, o) =>
      orgRows(
        db,
        webhookEndpoints,
        orgId,
        [o.after ? gt(webhookEndpoints.id, o.after) : undefined],
        [asc(webhookEndpoints.id)],
        o.limit,
      ),

    listAttempts: (orgId, endpointId, o) =>
      orgRows(
        db,
        webhookAttempts,
        orgId,
        [eq(webhookAttempts.endpointId, endpointId), eqIfGiven(webhookAttempts.eventId, o.eventId)],
        [desc(webhookAttempts.startedAt), desc(webhookAttempts.id)],
        o.limit,
      ),
  };
}
