import type { Repositories } from '../../domain/repositories.js';
import type { Store } from '../db.js';
import { createAuditRepository } from './audit.js';
import { createBuyerReportRepository } from './buyer-reports.js';
import { createBuyerRepository } from './buyers.js';
import { createCampaignRepository } from './campaigns.js';
import { createInboundCallRepository } from './carrier-calls.js';
import { createConsentRepository } from './consents.js';
import { createConsoleRepository } from './console.js';
import { createDestinationRepository } from './conversion-destinations.js';
import { createUploadRepository } from './conversion-uploads.js';
import { createDispatchRepository } from './dispatch.js';
import { createExportRepository } from './exports.js';
import { createOptOutRepository } from './opt-outs.js';
import { createOrgRepository } from './orgs.js';
import { createPoolSizingRepository } from './pool-health.js';
import { createRetentionRepository } from './retention.js';
import { createRoutingRepository } from './routing.js';
import { createSimulatedMessageRepository } from './simulated-messages.js';
import { createRndRepository, createSuppressionRepository } from './suppression.js';
import { createTouchRepository } from './touches.js';
import { createDeliveryRepository } from './webhook-deliveries.js';
import { createWebhookEventRepository } from './webhook-emitters.js';
import { createWebhookEndpointRepository } from './webhooks.js';

/**
 * The domain's repositories over one store, one per capability, built once at start-up: no
 * allocation per request. Each `create<Capability>Repository` returns its port
 * (`src/domain/<capability>/ports.ts`) as it is: the store's handles carry the domain's brands
 * (src/store/db.ts), so no function needs retyping. Every method takes the executor first:
 * `repos.db`, or the transaction `repos.transaction` hands to its callback.
 */
export function createRepositories(store: Store): Repositories {
  return {
    db: store.db,
    // Looked up per call: the store's transaction wrapper retries deadlocks (src/store/db.ts).
    transaction: (fn) => store.db.transaction(fn),
    audit: createAuditRepository(),
    orgs: createOrgRepository(),
    campaigns: createCampaignRepository(),
    webhookEndpoints: createWebhookEndpointRepository(),
    buyerReports: createBuyerReportRepository(),
    calls: createInboundCallRepository(),
    optOuts: createOptOutRepository(),
    consents: createConsentRepository(),
    touches: createTouchRepository(),
    suppression: createSuppressionRepository(),
    rnd: createRndRepository(),
    exports: createExportRepository(),
    dispatch: createDispatchRepository(),
    simulatedMessages: createSimulatedMessageRepository(),
    poolSizing: createPoolSizingRepository(),
    events: createWebhookEventRepository(),
    deliveries: createDeliveryRepository(),
    retention: createRetentionRepository(),
    destinations: createDestinationRepository(),
    uploads: createUploadRepository(),
    console: createConsoleRepository(),
    buyers: createBuyerRepository(),
    routing: createRoutingRepository(),
  };
}
