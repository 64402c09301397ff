import type { CampaignRepository, WebhookEndpointRepository } from './admin/ports.js';
import type { BuyerReportRepository } from './buyer-reports/ports.js';
import type { InboundCallRepository, OptOutRepository } from './carrier-inbound/ports.js';
import type { ConsentRepository } from './consents/ports.js';
import type { ConsoleRepository } from './console/ports.js';
import type { DispatchRepository, SimulatedMessageRepository } from './dispatch/ports.js';
import type { PoolSizingRepository } from './dni/ports.js';
import type { ExportRepository } from './exports/ports.js';
import type { TouchRepository } from './outbound/ports.js';
import type { ReportQueries } from './reports/ports.js';
import type { RndRepository } from './rnd/ports.js';
import type { ListFreshnessRepository, SuppressionImportRepository } from './suppression/ports.js';
import type { DeliveryRepository, PoolAlertRepository, WebhookEmitters } from './webhooks/ports.js';

/**
 * Every repository interface the domain declares, in one object: what src/store/repos/index.ts
 * builds once at start-up and the wiring passes on (`AppDeps.repos`). Each service takes only
 * its own capability's interface.
 */
export interface Repositories
  extends BuyerReportRepository,
    WebhookEmitters,
    PoolAlertRepository,
    DeliveryRepository,
    ExportRepository,
    ListFreshnessRepository,
    SuppressionImportRepository,
    RndRepository,
    PoolSizingRepository,
    ConsentRepository,
    TouchRepository,
    InboundCallRepository,
    OptOutRepository,
    DispatchRepository,
    SimulatedMessageRepository,
    CampaignRepository,
    WebhookEndpointRepository,
    ConsoleRepository,
    ReportQueries {}
