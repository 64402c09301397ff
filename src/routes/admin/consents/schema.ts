import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import {
  CONSENT_BASES,
  CONSENT_EVENT_KINDS,
  CONSENT_TIERS,
  EBR_BASES,
  REVOCATION_KINDS,
} from '../../../domain/vocabulary.js';
import { listQuery, timeRange } from '../shared/list-query.js';
import { e164, isoDate } from '../shared/params.js';
import { count, maybe, obj, open, time } from '../shared/views.js';

export const ConsentParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  e164,
});

const optionalText = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength }), Type.Null()]));

export const PutConsent = Type.Object(
  {
    tier: literals(CONSENT_BASES),
    basis: Type.Optional(
      literals(EBR_BASES, {
        description: 'ebr only: a transaction lasts 18 months, an inquiry 3',
      }),
    ),
    source: optionalText(200),
    captured_at: Type.Optional(isoDate),
    expires_at: Type.Optional(Type.Union([isoDate, Type.Null()])),
    evidence: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Certificate id, URL, IP, disclosure text and version…',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RevokeConsent = Type.Object(
  {
    kind: Type.Optional(literals(REVOCATION_KINDS)),
    reason: optionalText(500),
    at: Type.Optional(isoDate),
  },
  { additionalProperties: false },
);

const ConsentEventView = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'grant | revoked | opt_out | internal_dnc' }),
  tier: maybe(Type.String()),
  basis: maybe(Type.String()),
  source: maybe(Type.String()),
  captured_at: time,
  expires_at: maybe(time),
  evidence: open,
  reason: maybe(Type.String()),
  actor: Type.String(),
  recorded_at: time,
});

export const ConsentEventItem = Type.Object({
  e164: Type.String(),
  ...ConsentEventView.properties,
});

export const ConsentStanding = obj({
  org_id: Type.String(),
  e164: Type.String(),
  status: literals(['active', 'expired', 'revoked', 'do_not_call', 'none']),
  tier_on_file: literals(CONSENT_TIERS),
  record_id: maybe(Type.String()),
  history: Type.Array(ConsentEventView, { description: 'Newest first' }),
});

export const ConsentImportSummary = obj({
  rows: count,
  imported: count,
  duplicates: Type.Integer({ minimum: 0, description: 'Rows already on file, skipped' }),
  rejected_count: count,
  rejected: Type.Array(obj({ line: Type.Integer(), errors: Type.Array(Type.String()) }), {
    description: 'The first rejected rows, with their line numbers',
  }),
});

export const ConsentListQuery = listQuery({
  ...timeRange,
  e164: Type.Optional(Type.String({ 'x-check': 'e164', description: 'Only this contact' })),
  kind: Type.Optional(literals(CONSENT_EVENT_KINDS)),
});
