import Type from 'typebox';
import {
  PLATFORMS,
  TRIGGER_EVENTS,
  UPLOAD_STATUSES,
} from '../../../domain/conversions/vocabulary.js';
import { withDefault } from '../../common.js';

const id = Type.String({ minLength: 1, maxLength: 64 });
const lits = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const DestinationParams = Type.Object({ org_id: id, destination_id: id });

const name = Type.String({ minLength: 1, maxLength: 200 });
const campaigns = Type.Union(
  [
    Type.Array(Type.String({ minLength: 1, maxLength: 3 }), { minItems: 1, maxItems: 1000 }),
    Type.Null(),
  ],
  { description: 'Campaign codes of the organization; absent or null: every campaign' },
);
const trigger = Type.Object(
  {
    event: lits(TRIGGER_EVENTS),
    min_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86_400, description: 'answered_call: least duration' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'What makes a conversion: a success buyer report (default), or an answered call',
  },
);
const value = Type.Union(
  [
    Type.Object(
      {
        amount: Type.Number({ minimum: 0, maximum: 1e12 }),
        currency: Type.String({ 'x-check': 'iso_4217', description: 'ISO 4217, such as USD' }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: "Fixed value; absent: the campaign's config.conversion value, else none" },
);
const fields = (description: string) =>
  Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.String({ maxLength: 4096 }), {
    description,
  });
const settings = fields('Non-secret settings of the platform (docs/conversions.md)');
const secrets = fields('Credentials of the platform: stored encrypted, never answered again');

export const CreateDestination = Type.Object(
  {
    platform: lits(PLATFORMS),
    name,
    campaigns: Type.Optional(campaigns),
    trigger: Type.Optional(trigger),
    value: Type.Optional(value),
    settings,
    secrets,
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateDestination = Type.Object(
  {
    name: Type.Optional(name),
    campaigns: Type.Optional(campaigns),
    trigger: Type.Optional(trigger),
    value: Type.Optional(value),
    settings: Type.Optional(settings),
    secrets: Type.Optional(secrets),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UploadsQuery = Type.Object({
  status: Type.Optional(lits(UPLOAD_STATUSES)),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 1000 }), 100),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const AttemptsQuery = Type.Object({
  upload_id: Type.Optional(id),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 1000 }), 100),
});

export const RetryUploads = Type.Object(
  { upload_id: Type.Optional(id) },
  { additionalProperties: false },
);

export const ReplayUploads = Type.Object(
  {
    since: Type.Optional(
      Type.String({ 'x-check': 'iso_datetime', description: 'Conversions written since then' }),
    ),
    call_id: Type.Optional(id),
  },
  { additionalProperties: false },
);

/** `POST …/replay`: how many were queued, and each call that was not, with the reason. */
export const UploadsReplayed = Type.Object(
  {
    destination_id: Type.String(),
    queued: Type.Integer({ minimum: 0 }),
    skipped: Type.Array(
      Type.Object(
        {
          call_id: Type.String(),
          reason_code: Type.Union(
            (
              [
                'rejected_by_buyer',
                'no_click_id',
                'no_client_id',
                'too_old',
                'already_counted',
              ] as const
            ).map((c) => Type.Literal(c)),
          ),
          reason: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
