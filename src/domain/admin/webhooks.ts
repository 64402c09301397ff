import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../config.js';
import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { Executor } from '../ports.js';
import { newSecret } from '../webhooks/signing.js';
import { urlProblem } from '../webhooks/targets.js';
import { type AdminContext, audit, getOrg } from './orgs-keys.js';
import type { WebhookEndpoint as Endpoint, WebhookAdminRepos } from './ports.js';

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function webhookView(endpoint: Endpoint, nowMs: number) {
  const rotating = endpoint.previousSecretUntil && endpoint.previousSecretUntil.getTime() > nowMs;
  return {
    webhook_id: endpoint.id,
    org_id: endpoint.orgId,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: iso(endpoint.disabledAt),
    consecutive_failures: endpoint.consecutiveFailures,
    failing_since: iso(endpoint.failingSince),
    previous_secret_valid_until: rotating ? iso(endpoint.previousSecretUntil) : null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** What a URL's host resolves to, refused when not public (src/adapters/webhook-targets.ts). */
export type TargetCheck = (raw: string, allowPrivate: boolean) => Promise<string | null>;

/** 422 at body.url unless the URL is an acceptable target now (checked again at delivery). */
async function checkUrl(raw: string, settings: WebhookSettings, resolve: TargetCheck) {
  const problem =
    urlProblem(raw, settings.allowPrivateTargets) ??
    (await resolve(raw, settings.allowPrivateTargets));
  if (problem) throw errors.field(['body', 'url'], problem, raw);
}

/** '*' stands for every type, so a list holding it means just that. */
const normalEvents = (events: string[]) =>
  events.includes('*') ? ['*'] : [...new Set(events)].sort();

export class WebhookAdmin {
  constructor(
    private readonly ctx: AdminContext<WebhookAdminRepos>,
    private readonly settings: WebhookSettings = DEFAULT_WEBHOOK_SETTINGS,
    private readonly resolveTarget: TargetCheck = async () => null,
  ) {}

  private audit(ex: Executor, orgId: string, id: string, action: string, detail = {}) {
    return audit(ex, this.ctx, orgId, action, 'webhook', id, detail);
  }

  async find(orgId: string, id: string): Promise<Endpoint> {
    await getOrg(this.ctx.repos, orgId);
    const e = await this.ctx.repos.webhookEndpoints.getEndpoint(this.ctx.repos.db, orgId, id);
    if (!e) throw errors.webhookNotFound();
    return e;
  }

  async create(
    orgId: string,
    input: Required<Pick<WebhookInput, 'url' | 'events'>> & WebhookInput,
  ) {
    await getOrg(this.ctx.repos, orgId);
    await checkUrl(input.url, this.settings, this.resolveTarget);
    const now = this.ctx.now();
    const secret = newSecret();
    return this.ctx.repos.transaction(async (tx) => {
      const e = await this.ctx.repos.webhookEndpoints.insertEndpoint(tx, {
        id: newId('whk', now.getTime()),
        orgId,
        url: input.url,
        events: normalEvents(input.events),
        description: input.description ?? null,
        secret,
        createdAt: now,
        updatedAt: now,
      });
      await this.audit(tx, orgId, e.id, 'webhook.created', { url: e.url, events: e.events });
      return { ...webhookView(e, now.getTime()), secret };
    });
  }

  async update(orgId: string, id: string, input: WebhookInput) {
    await this.find(orgId, id);
    if (input.url !== undefined) await checkUrl(input.url, this.settings, this.resolveTarget);
    const now = this.ctx.now();
    return this.ctx.repos.transaction(async (tx) => {
      const e = await this.ctx.repos.webhookEndpoints.updateEndpoint(tx, orgId, id, {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: normalEvents(input.events) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled === true
          ? { enabled: true, disabledReason: null, disabledAt: null }
          : {}),
        ...(input.enabled === true ? { consecutiveFailures: 0, failingSince: null } : {}),
        ...(input.enabled === false
          ? { enabled: false, disabledReason: 'admin', disabledAt: now }
          : {}),
        updatedAt: now,
      });
      if (!e) throw errors.webhookNotFound();
      await this.audit(tx, orgId, id, 'webhook.updated', input);
      return webhookView(e, now.getTime());
    });
  }

  /** The new secret signs at once; the old one signs beside it until the grace ends. */
  async rotate(orgId: string, id: string, graceSeconds: number) {
    const old = await this.find(orgId, id);
    const now = this.ctx.now();
    const secret = newSecret();
    const until = new Date(now.getTime() + graceSeconds * 1000);
    return this.ctx.repos.transaction(async (tx) => {
      const e = await this.ctx.repos.webhookEndpoints.updateEndpoint(tx, orgId, id, {
        secret,
        previousSecret: graceSeconds > 0 ? old.secret : null,
        previousSecretUntil: graceSeconds > 0 ? until : null,
        updatedAt: now,
      });
      if (!e) throw errors.webhookNotFound();
      await this.audit(tx, orgId, id, 'webhook.secret_rotated', { grace_seconds: graceSeconds });
      return { ...webhookView(e, now.getTime()), secret };
    });
  }

  async remove(orgId: string, id: string) {
    await this.find(orgId, id);
    return this.ctx.repos.transaction(async (tx) => {
      if (!(await this.ctx.repos.webhookEndpoints.deleteEndpoint(tx, orgId, id)))
        throw errors.webhookNotFound();
      await this.audit(tx, orgId, id, 'webhook.deleted');
      return { webhook_id: id, deleted: true };
    });
  }

  /**
   * Sends an event again, or every failed delivery created since a time, from now on; returns
   * how many were queued. An event id of another organization, or none: nothing written, 404.
   */
  async replay(
    orgId: string,
    id: string,
    what: { eventId: string } | { since: Date },
    detail: Record<string, unknown>,
  ): Promise<number> {
    await this.find(orgId, id);
    const now = this.ctx.now();
    return this.ctx.repos.transaction(async (tx) => {
      const n = await this.ctx.repos.webhookEndpoints.replayDeliveries(
        tx,
        orgId,
        id,
        what,
        now.getTime(),
      );
      if ('eventId' in what && n === 0) throw errors.eventNotFound();
      await this.audit(tx, orgId, id, 'webhook.replayed', { ...detail, queued: n });
      return n;
    });
  }
}
