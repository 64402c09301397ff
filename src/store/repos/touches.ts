import { sql } from 'drizzle-orm';
import type { PlacedTouch } from '../../domain/compliance/index.js';
import type { ConsentFacts } from '../../domain/consents/consents.js';
import { newId } from '../../domain/ids.js';
import type { ContactState, Decision, TouchRepository } from '../../domain/outbound/ports.js';
import type { Executor, Tx } from '../db.js';
import { rowsOf } from '../rows.js';
import { AUDIT_COLUMNS, auditRow } from './audit.js';
import { findCampaign } from './campaigns.js';
import { releaseKey, reserveKey } from './idempotency.js';

export type { ContactState, Decision };

/** What an outbound decision reads of its campaign. */
async function outboundCampaign(ex: Executor, orgId: string, code: string) {
  const c = await findCampaign(ex, orgId, code);
  return c && { id: c.id, config: (c.config ?? {}) as Record<string, unknown> };
}

/** The lock outbound_contact_state takes (migration 0016); tests hold it to stall a decision. */
export async function lockContact(tx: Tx, orgId: string, e164: string): Promise<void> {
  await tx.execute(sql`select outbound_contact_lock(${orgId}, ${e164})`);
}

type StateJson = {
  consent: {
    id: string;
    kind: ConsentFacts['kind'];
    tier: ConsentFacts['tier'];
    ebr_basis: ConsentFacts['ebrBasis'];
    captured_at: number;
    expires_at: number | null;
  }[];
  history: { at: number; channel: PlacedTouch['channel'] }[];
};

/**
 * Takes the (organization, contact) lock until the transaction ends, then reads consent and
 * placed touches, in one round trip: the frequency count read here cannot change before the
 * decision's own touch is written. Outside a transaction the lock lasts the statement only.
 */
export async function contactState(
  ex: Executor,
  orgId: string,
  e164: string,
  since: Date,
): Promise<ContactState> {
  const [row] = await rowsOf<StateJson>(
    ex,
    sql`select consent, history from outbound_contact_state(${orgId}, ${e164}, ${since.toISOString()}::timestamptz)`,
  );
  return {
    consent: (row?.consent ?? []).map((e) => ({
      id: e.id,
      kind: e.kind,
      tier: e.tier,
      ebrBasis: e.ebr_basis,
      capturedAt: new Date(Number(e.captured_at)),
      expiresAt: e.expires_at === null ? null : new Date(Number(e.expires_at)),
    })),
    history: (row?.history ?? []).map((t) => ({ at: Number(t.at), channel: t.channel })),
  };
}

const json = (v: unknown) =>
  sql`${v === null || v === undefined ? null : JSON.stringify(v)}::jsonb`;
const ts = (d: Date | null | undefined) => sql`${d ? d.toISOString() : null}::timestamptz`;

/**
 * The touch, its dispatch job, the audit line and the idempotency completion in one statement
 * (callers run it in the decision's transaction). False when the idempotency record was taken
 * over by another request meanwhile: the caller must roll back.
 */
export async function recordDecision(tx: Tx, d: Decision): Promise<boolean> {
  const t = d.touch;
  const at = t.decidedAt;
  const jobId = d.jobPayload === null ? null : newId('job', at.getTime());
  const i = d.idempotency;
  const [r] = await rowsOf<{ idem: number }>(
    tx,
    sql`with t as (
      insert into outbound_touches (id, org_id, campaign_id, to_e164, channel, status, placed,
        consent_basis, variant, cadence_step, scenario_ref, template_id, dynamic_variables,
        lead_timezone, idempotency_key, reasons, checks, next_allowed_at, decided_at, actor,
        request_id, dispatch_status)
      values (${t.id}, ${t.orgId}, ${t.campaignId}, ${t.toE164}, ${t.channel}, ${t.status},
        ${t.placed}, ${t.consentBasis}, ${t.variant ?? null}, ${t.cadenceStep ?? null}::integer,
        ${t.scenarioRef ?? null}, ${t.templateId ?? null}, ${json(t.dynamicVariables)},
        ${t.leadTimezone ?? null}, ${t.idempotencyKey ?? null}, ${json(t.reasons)},
        ${json(t.checks)}, ${ts(t.nextAllowedAt)}, ${ts(at)}, ${t.actor}, ${t.requestId ?? null},
        ${t.dispatchStatus ?? null})
      returning id
    ), j as (
      insert into dispatch_jobs (id, touch_id, org_id, state, attempts, run_at, payload,
        created_at, updated_at)
      select ${jobId}::text, t.id, ${t.orgId}, 'pending', 0, ${ts(at)}, ${json(d.jobPayload)},
        ${ts(at)}, ${ts(at)}
        from t where ${jobId}::text is not null
    ), a as (
      insert into audit_log (${sql.raw(AUDIT_COLUMNS)}) values ${auditRow(d.audit)}
    ), i as (
      update outbound_idempotency
         set state = 'done', status_code = ${i?.statusCode ?? null}::integer,
             response = ${i?.response ?? null}, touch_id = ${t.id}
       where org_id = ${i?.scope.orgId ?? null} and campaign_id = ${i?.scope.campaignId ?? null}
         and key = ${i?.scope.key ?? null} and owner = ${i?.owner ?? null} and state = 'pending'
      returning 1
    )
    select (select count(*) from i)::integer as idem`,
  );
  return i === null || Number(r?.idem) === 1;
}

/** `repos.touches`: touches, the contact lock and idempotency keys. */
export function createTouchRepository(): TouchRepository {
  return {
    findCampaign: outboundCampaign,
    contactState,
    lockContact,
    recordDecision,
    reserveKey,
    releaseKey,
  };
}
