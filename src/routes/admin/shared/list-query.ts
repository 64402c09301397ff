import Type, { type TProperties } from 'typebox';
import { CALL_OUTCOMES } from '../../../domain/admin/queries.js';
import { literals } from '../../../domain/schema.js';
import {
  ATTRIBUTION_RULES,
  CONSENT_EVENT_KINDS,
  DISPATCH_STATUSES,
  TOUCH_STATUSES,
} from '../../../domain/vocabulary.js';
import { withDefault } from '../../common.js';

/** Query strings of the admin lists: one paging pair for all, then each list's filters. */
const isoDate = (description: string) =>
  Type.String({ 'x-check': 'iso_datetime', description: `${description}; ISO 8601 with a zone` });

const paging = {
  limit: withDefault(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Items per page' }),
    100,
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'next_cursor of the previous page, as given (opaque)',
    }),
  ),
};

const timeRange = {
  since: Type.Optional(isoDate('At or after this time')),
  until: Type.Optional(isoDate('Before this time')),
};

const campaign = Type.Optional(
  Type.String({ minLength: 1, maxLength: 3, description: 'Only this campaign (its code)' }),
);

const listQuery = <F extends TProperties>(filters: F) => Type.Object({ ...paging, ...filters });

export const PageQuery = listQuery({});

export const KeyListQuery = listQuery({
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
  ),
});

export const NumberListQuery = listQuery({
  role: Type.Optional(Type.Union([Type.Literal('pool'), Type.Literal('overflow')])),
  state: Type.Optional(
    Type.Union([Type.Literal('held'), Type.Literal('free')], {
      description: 'held: a live DNI session holds the number now',
    }),
  ),
});

export const CallListQuery = listQuery({
  campaign,
  ...timeRange,
  status: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, description: "The carrier's latest call status" }),
  ),
  attribution: Type.Optional(literals(ATTRIBUTION_RULES)),
  outcome: Type.Optional(
    literals(CALL_OUTCOMES, {
      description:
        'What the carrier said, as reports count it: answered (completed with a duration), missed (busy, no-answer, failed, canceled, completed without one), pending (nothing final yet)',
    }),
  ),
  source: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'The source as reports name it (utm_source, else the click id network, else direct; `unattributed` for calls without a session); case, spacing and aliases folded as in reports',
    }),
  ),
});

export const TouchListQuery = listQuery({
  campaign,
  ...timeRange,
  status: Type.Optional(literals(TOUCH_STATUSES)),
  dispatch_status: Type.Optional(literals(DISPATCH_STATUSES)),
  to: Type.Optional(Type.String({ 'x-check': 'e164', description: 'Only touches to this number' })),
});

export const ConsentListQuery = listQuery({
  ...timeRange,
  e164: Type.Optional(Type.String({ 'x-check': 'e164', description: 'Only this contact' })),
  kind: Type.Optional(literals(CONSENT_EVENT_KINDS)),
});

export const SuppressionListQuery = listQuery({
  state: Type.Optional(
    Type.String({ pattern: '^[A-Z]{2}$', description: 'State lists: only this USPS state code' }),
  ),
});

export const NumberParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  code: Type.String({ minLength: 1, maxLength: 3 }),
  e164: Type.String({ 'x-check': 'e164', description: 'E.164 number' }),
});

export const CallParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  call_id: Type.String({ minLength: 1, maxLength: 64 }),
});
