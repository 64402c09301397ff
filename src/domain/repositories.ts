import type {
  CampaignRepository,
  OrgRepository,
  WebhookEndpointRepository,
} from './admin/ports.js';
import type { BuyerReportRepository } from './buyer-reports/ports.js';
import type { InboundCallRepository, OptOutRepository } from './carrier-inbound/ports.js';
import type { ConsentRepository } from './consents/ports.js';
import type { ConsoleRepository } from './console/ports.js';
import type { DestinationRepository, UploadRepository } from './conversions/ports.js';
import type { DispatchRepository, SimulatedMessageRepository } from './dispatch/ports.js';
import type { PoolSizingRepository } from './dni/ports.js';
import type { ExportRepository } from './exports/ports.js';
import type { TouchRepository } from './outbound/ports.js';
import type { AuditLog, UnitOfWork } from './ports.js';
import type { RetentionRepository } from './retention/ports.js';
import type { RndRepository } from './rnd/ports.js';
import type { BuyerRepository, RoutingRepository } from './routing/ports.js';
import type { SuppressionRepository } from './suppression/ports.js';
import type { DeliveryRepository, WebhookEmitters } from './webhooks/ports.js';

/**
 * Every repository, one per capability, each declared in its `<capability>/ports.ts` and created
 * by `create<Capability>Repository(store)` in src/store/repos/ (src/store/repos/index.ts puts
 * them together once at start-up; the wiring passes this on as `AppDeps.repos`). A service takes
 * only the capabilities it uses (`TouchRepos`, `CampaignRepos`, …).
 */
export interface Repositories extends UnitOfWork {
  audit: AuditLog;
  orgs: OrgRepository;
  campaigns: CampaignRepository;
  webhookEndpoints: WebhookEndpointRepository;
  buyerReports: BuyerReportRepository;
  calls: InboundCallRepository;
  optOuts: OptOutRepository;
  consents: ConsentRepository;
  touches: TouchRepository;
  suppression: SuppressionRepository;
  rnd: RndRepository;
  exports: ExportRepository;
  dispatch: DispatchRepository;
  simulatedMessages: SimulatedMessageRepository;
  poolSizing: PoolSizingRepository;
  /** Webhook events, written in the caller's transaction. */
  events: WebhookEmitters;
  deliveries: DeliveryRepository;
  retention: RetentionRepository;
  /** Conversion destinations (docs/conversions.md). */
  destinations: DestinationRepository;
  /** The conversion upload outbox: queued in callers' transactions, claimed by the worker. */
  uploads: UploadRepository;
  /** The web console's people, sessions and links. */
  console: ConsoleRepository;
  /** Buyers and what their caps count (docs/routing.md). */
  buyers: BuyerRepository;
  /** Routing plans, offers and the places they take. */
  routing: RoutingRepository;
}
