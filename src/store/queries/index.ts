import type { Queries } from '../../domain/admin/queries.js';
import type { Store } from '../db.js';
import { findOrg } from '../repos/orgs.js';
import { observePool } from '../repos/pool-health.js';
import { createActivityQueries } from './activity.js';
import { createAuditQueries } from './audit.js';
import { createConfigQueries } from './config.js';
import { createConsoleQueries } from './console.js';
import { createConversionQueries } from './conversion-uploads.js';
import { createReportQueries } from './reports.js';
import { createSuppressionQueries } from './suppression.js';
import { createWebhookQueries } from './webhooks.js';

/**
 * The admin API's reads over one store, built once at start-up (src/wiring.ts). Each group is
 * declared in src/domain/admin/queries.ts and created by its own `create…Queries`.
 */
export function createQueries(store: Store): Queries {
  const db = store.db;
  return {
    findOrg: (orgId) => findOrg(db, orgId),
    config: createConfigQueries(db),
    activity: createActivityQueries(db),
    audit: createAuditQueries(db),
    suppression: createSuppressionQueries(db),
    webhooks: createWebhookQueries(db),
    conversions: createConversionQueries(db),
    pool: { observePool: (campaignId, since, now) => observePool(db, campaignId, since, now) },
    reports: createReportQueries(store),
    console: createConsoleQueries(db),
  };
}
