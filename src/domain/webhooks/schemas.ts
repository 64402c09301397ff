import Type, { type TSchema } from 'typebox';
import { OFFER_OUTCOMES } from '../routing/vocabulary.js';
import { literals } from '../schema.js';
import {
  ATTRIBUTION_RULES,
  CHANNELS,
  CONSENT_BASES,
  DISPATCH_STATUSES,
  DISPOSITIONS,
  REVOCATION_KINDS,
} from '../vocabulary.js';
import type { EventType } from './events.js';

/** A final dispatch state: every one but `pending`. */
const FINAL_DISPATCH = DISPATCH_STATUSES.filter((s) => s !== 'pending');

/**
 * The JSON Schema of every event body (docs/webhooks.md shows the same with examples). A
 * version of this service only adds fields; receivers should ignore fields they do not know.
 */
const str = (description: string) => Type.String({ description });
const strOrNull = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });
const time = (description: string) => Type.String({ format: 'date-time', description });
const timeOrNull = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
const intOrNull = (description: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description });
const obj = (props: Record<string, TSchema>) => Type.Object(props, { additionalProperties: true });

const AttributedSession = obj({
  dni_session_id: str('ds_…'),
  visitor_id: str('The visitor id the site sent'),
  created_at: time('When the session was opened'),
  expires_at: time('When it expires (or expired)'),
  ambiguous: Type.Boolean({ description: 'The number was shared when the call came' }),
  landing_url: strOrNull('The landing page URL'),
  click_ids: obj({
    gclid: strOrNull('Google Ads click id'),
    gbraid: strOrNull('Google Ads app click id (iOS web-to-app)'),
    wbraid: strOrNull('Google Ads web click id (iOS app-to-web)'),
    fbclid: strOrNull('Meta click id'),
    fbc: strOrNull('Meta _fbc cookie'),
    fbp: strOrNull('Meta _fbp cookie'),
    msclkid: strOrNull('Microsoft Ads click id'),
  }),
  utm: obj({
    source: strOrNull('utm_source'),
    medium: strOrNull('utm_medium'),
    campaign: strOrNull('utm_campaign'),
    term: strOrNull('utm_term'),
    content: strOrNull('utm_content'),
  }),
});

const callBase = {
  call_id: str('call_…'),
  campaign_id: str('cmp_…'),
  campaign_code: str('The campaign code'),
  tracking_number: str('The number dialled, E.164'),
  caller: str('The caller id, as the carrier gave it'),
  started_at: time('When the call started'),
  carrier: strOrNull('twilio, or null for a call recorded through the admin API'),
  carrier_call_sid: strOrNull("The carrier's call id"),
};

const touchBase = {
  touch_id: str('tch_…'),
  campaign_id: str('cmp_…'),
  to_e164: str('The contact, E.164'),
  channel: literals(CHANNELS),
  consent_basis: literals(CONSENT_BASES),
  variant: strOrNull('The funnel node, if one was named'),
  cadence_step: intOrNull('The cadence step, if one was given'),
};

const touchFinal = obj({
  ...touchBase,
  dispatch_status: literals(FINAL_DISPATCH),
  attempts: Type.Integer({ description: 'Hand-overs to the carrier' }),
  carrier: str('simulated or twilio'),
  carrier_ids: Type.Array(Type.String(), { description: "The carrier's message or call ids" }),
  error: strOrNull('The last error; null when delivered'),
  finalized_at: time('When the final state was reached'),
});

export const EVENT_DATA_SCHEMAS: Record<EventType, TSchema> = {
  'call.received': obj({
    ...callBase,
    attribution: literals(ATTRIBUTION_RULES, {
      description:
        'The attribution rule that applied: `session` (the session holding the number at the call), `recent_holder` (its last holder, within 30 minutes after that session expired and not handed out since), `repeat_caller` (the caller’s latest attributed session in the campaign), else `campaign`',
    }),
    ambiguous: Type.Boolean({ description: 'Several live sessions held the number' }),
    session: Type.Union([AttributedSession, Type.Null()], {
      description: 'The attributed session; null when only the campaign is known',
    }),
  }),
  'call.completed': obj({
    ...callBase,
    ended_at: timeOrNull('When the carrier reported the final status'),
    duration_seconds: intOrNull('Call duration from the carrier'),
    status: str('completed, busy, no-answer, failed or canceled'),
    dni_session_id: strOrNull('The attributed session, if any'),
  }),
  'call.routed': obj({
    call_id: str('call_…'),
    campaign_id: str('cmp_…'),
    campaign_code: str('The campaign code'),
    caller: str('The caller id, as the carrier gave it'),
    offer_id: str('ofr_…: this offer of the call'),
    seq: Type.Integer({ minimum: 1, maximum: 5, description: 'The offer’s place: 1 first' }),
    buyer_id: str('byr_…: the buyer offered the call'),
    offered_at: time('When the buyer was rung'),
    ended_at: time('When the buyer’s Dial ended'),
    outcome: literals(OFFER_OUTCOMES, {
      description: 'answered, busy, no_answer, failed, or canceled (the caller left)',
    }),
    duration_seconds: intOrNull('The buyer’s leg, when answered'),
  }),
  'call.billable': obj({
    call_id: str('call_…'),
    campaign_id: str('cmp_…'),
    campaign_code: str('The campaign code'),
    caller: str('The caller id, as the carrier gave it'),
    started_at: time('When the call started'),
    buyer_id: str('byr_…: the buyer who answered'),
    payout: Type.String({
      pattern: '^[0-9]+\\.[0-9]{2}$',
      description: 'What the buyer pays for the call, two decimal places',
    }),
    currency: str("The organization's currency, ISO 4217"),
    fixed_at: time('When the buyer’s leg ended and the payout was fixed'),
  }),
  'buyer_report.recorded': obj({
    event_id: str('evt_…, as answered to the buyer'),
    report_id: str("The buyer's own report id"),
    call_id: str('call_…'),
    campaign_code: str('The campaign code'),
    disposition: literals(DISPOSITIONS),
    notes: strOrNull('The buyer notes'),
    reported_at: time('When the report was recorded'),
  }),
  'touch.queued': obj({ ...touchBase, queued_at: time('When the touch was placed') }),
  'touch.delivered': touchFinal,
  'touch.failed': touchFinal,
  'consent.revoked': obj({
    consent_event_id: str('cns_…, the revocation in the consent history'),
    contact: str('The contact, E.164'),
    kind: literals(REVOCATION_KINDS),
    channel_scope: Type.Literal('all', {
      description: 'Revoke-all: every channel, purpose and campaign of the organization is blocked',
    }),
    source: str('Where it came from: the source field, else the actor (admin, import, …)'),
    reason: strOrNull('The reason given'),
    revoked_at: time('When the contact revoked'),
    recorded_at: time('When the service recorded it'),
  }),
  'pool.exhausted': obj({
    campaign_id: str('cmp_…'),
    campaign_code: str('The campaign code'),
    fallback: Type.Union([Type.Literal('shared'), Type.Literal('overflow')]),
    tracking_number: str('The number the visitor got'),
    pool_size: Type.Integer({ description: 'Pool numbers of the campaign' }),
    at: time('When the pool ran out'),
    interval_seconds: Type.Integer({ description: 'No other pool.exhausted for this long' }),
  }),
  'conversion.upload_failed': obj({
    upload_id: str('cup_…'),
    destination_id: str('cdst_…: the conversion destination'),
    call_id: str('call_…'),
    kind: Type.Union([Type.Literal('conversion'), Type.Literal('retraction')]),
    reason_code: strOrNull('Why, as a code (docs/conversions.md lists them)'),
    reason: strOrNull("Why, in words, with the platform's own answer"),
    attempts: Type.Integer({ description: 'Attempts made' }),
  }),
};

/** The body of each event type: the envelope with its `data`. */
export function eventSchema(type: EventType): TSchema {
  return Type.Object(
    {
      id: Type.String({ description: 'msg_…, the same as the webhook-id header' }),
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time' }),
      org_id: Type.String(),
      data: EVENT_DATA_SCHEMAS[type],
    },
    { additionalProperties: true },
  );
}

const plain = (s: TSchema) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;

/** OpenAPI 3.1 `webhooks` and their component schemas, for the public API's /openapi.json. */
export function openApiWebhooks() {
  const schemas: Record<string, unknown> = {};
  const webhooks: Record<string, unknown> = {};
  for (const type of Object.keys(EVENT_DATA_SCHEMAS) as EventType[]) {
    const name = `WebhookEvent.${type}`;
    schemas[name] = plain(eventSchema(type));
    webhooks[type] = {
      post: {
        // e.g. call.received → onCallReceived, the name a generated receiver uses.
        operationId: `on${type
          .split(/[._]/)
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
          .join('')}`,
        // The service calls the receiver; the signature, not a bearer key, proves who sent it.
        security: [],
        summary: `${type} (see docs/webhooks.md)`,
        description:
          'Signed per Standard Webhooks: webhook-id (the event id, the same on every retry), webhook-timestamp, webhook-signature.',
        requestBody: {
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the event' } },
      },
    };
  }
  return { schemas, webhooks };
}
