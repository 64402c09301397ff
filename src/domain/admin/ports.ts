import type { AuditLog, Executor, Transaction, UnitOfWork } from '../ports.js';

/** Organizations and their keys (orgs-keys.ts): `repos.orgs`. */
export interface OrgRepository {
  findOrg(ex: Executor, orgId: string): Promise<Org | null>;
  insertOrg(ex: Executor, o: Org): Promise<Org>;
  /** Null: no such organization. */
  updateOrg(ex: Executor, orgId: string, change: OrgChange): Promise<Org | null>;
  findKey(ex: Executor, keyId: string): Promise<ApiKey | null>;
  insertKey(ex: Executor, k: NewApiKey): Promise<ApiKey>;
  /** Null: no such key. */
  updateKey(ex: Executor, keyId: string, change: ApiKeyChange): Promise<ApiKey | null>;
}

/** What every admin service is given: organizations, the audit log, transactions. */
export interface OrgRepos extends UnitOfWork {
  orgs: OrgRepository;
  audit: AuditLog;
}

/**
 * Webhook endpoints (webhooks.ts): `repos.webhookEndpoints`. Organization first: another's is a
 * missing one.
 */
export interface WebhookEndpointRepository {
  getEndpoint(ex: Executor, orgId: string, id: string): Promise<WebhookEndpoint | null>;
  /** Oldest first. */
  listEndpoints(ex: Executor, orgId: string): Promise<WebhookEndpoint[]>;
  insertEndpoint(ex: Executor, e: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  updateEndpoint(
    ex: Executor,
    orgId: string,
    id: string,
    change: WebhookEndpointChange,
  ): Promise<WebhookEndpoint | null>;
  /** False: no such endpoint. */
  deleteEndpoint(ex: Executor, orgId: string, id: string): Promise<boolean>;
  /**
   * Queues an event again (any state), or every failed delivery created since a time, on a
   * fresh schedule from `nowMs`; returns how many were queued.
   */
  replayDeliveries(
    ex: Executor,
    orgId: string,
    endpointId: string,
    what: { eventId: string } | { since: Date },
    nowMs: number,
  ): Promise<number>;
}

export interface WebhookAdminRepos extends OrgRepos {
  webhookEndpoints: WebhookEndpointRepository;
}

/** Campaigns and their numbers (campaigns.ts): `repos.campaigns`. */
export interface CampaignRepository {
  /** Another organization's campaign is null too. */
  findCampaign(ex: Executor, orgId: string, code: string): Promise<Campaign | null>;
  insertCampaign(tx: Transaction, c: Campaign): Promise<Campaign>;
  updateCampaign(tx: Transaction, campaignId: string, change: CampaignChange): Promise<Campaign>;
  /** The campaign's numbers, by number. */
  campaignNumbers(ex: Executor, campaignId: string): Promise<CampaignNumber[]>;
  /** Which of these numbers belong to a campaign already, and where. */
  numbersInUse(
    tx: Transaction,
    numbers: readonly string[],
  ): Promise<(CampaignNumber & { campaignId: string })[]>;
  insertNumbers(
    tx: Transaction,
    c: { orgId: string; campaignId: string },
    numbers: readonly string[],
    role: NumberRole,
    at: Date,
  ): Promise<void>;
  /** Removes the campaign's numbers of this role, all but `keep`. */
  removeNumbers(
    tx: Transaction,
    campaignId: string,
    role: NumberRole,
    keep: readonly string[],
  ): Promise<void>;
  /**
   * Refreshes the planner's statistics of the numbers table once pool numbers changed (without
   * them PostgreSQL may plan dni_open_sessions' allocation as a scan of the whole pool).
   */
  analyzeNumbers(ex: Executor): Promise<void>;
}

export interface CampaignRepos extends OrgRepos {
  campaigns: CampaignRepository;
}

export interface Org {
  id: string;
  name: string;
  trackingEnabled: boolean;
  dniRateLimitPerMinute: number | null;
  optOutPhrases: string[];
  /** IANA name; report buckets are in it (docs/reporting.md). */
  timeZone: string;
  optOutClarification: boolean;
  /** ISO 3166 alpha-2: the country a number typed without its country code is read in. */
  phoneCountry: string;
  /** ISO 4217: buyer payouts and revenue are in it (docs/routing.md). */
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}

export type OrgChange = Partial<Omit<Org, 'id' | 'createdAt'>>;

export interface ApiKey {
  id: string;
  orgId: string;
  keyHash: string;
  keyPrefix: string;
  scopes: string[];
  label: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The key that replaced this one by rotation. */
  rotatedTo: string | null;
  /** A key bound to a buyer posts buyer reports on that buyer's calls only. */
  buyerId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewApiKey = Omit<ApiKey, 'revokedAt' | 'rotatedTo'>;
export type ApiKeyChange = Partial<
  Pick<ApiKey, 'scopes' | 'expiresAt' | 'revokedAt' | 'rotatedTo' | 'updatedAt'>
>;

export interface Campaign {
  id: string;
  orgId: string;
  code: string;
  name: string;
  forwardTo: string | null;
  sessionTtlSeconds: number;
  reportWindowDays: number;
  config: unknown;
  createdAt: Date;
  updatedAt: Date;
}

export type CampaignChange = Partial<
  Pick<Campaign, 'name' | 'forwardTo' | 'sessionTtlSeconds' | 'reportWindowDays' | 'config'>
> & { updatedAt: Date };

export type NumberRole = 'pool' | 'overflow';

export interface CampaignNumber {
  e164: string;
  role: string;
}

export interface WebhookEndpoint {
  id: string;
  orgId: string;
  url: string;
  /** Event types, or ['*'] for every type. */
  events: string[];
  description: string | null;
  secret: string;
  /** After a rotation the old secret signs too, until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  'id' | 'orgId' | 'url' | 'events' | 'description' | 'secret' | 'createdAt' | 'updatedAt'
>;
export type WebhookEndpointChange = Partial<Omit<WebhookEndpoint, 'id' | 'orgId' | 'createdAt'>>;
