import Type from 'typebox';
import {
  PLATFORMS,
  TRIGGER_EVENTS,
  UPLOAD_KINDS,
  UPLOAD_STATUSES,
} from '../../../domain/conversions/vocabulary.js';
import { literals } from '../../../domain/schema.js';
import { withDefault } from '../../common.js';
import { count, maybe, obj, time } from '../shared/views.js';

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

const money = obj({ amount: Type.Number(), currency: Type.String() });
export const DestinationItem = obj({
  destination_id: Type.String(),
  org_id: Type.String(),
  platform: literals(PLATFORMS),
  name: Type.String(),
  campaigns: maybe(Type.Array(Type.String())),
  trigger: obj({ event: Type.String(), min_seconds: Type.Optional(Type.Integer()) }),
  value: maybe(money),
  settings: Type.Record(Type.String(), Type.String()),
  secrets: Type.Record(Type.String(), Type.String(), {
    description: 'Which secrets are set, masked: never the secrets',
  }),
  enabled: Type.Boolean(),
  api: maybe(
    obj(
      {
        name: Type.String({
          description: 'data_manager, google_ads_api, meta_graph, microsoft_ads',
        }),
        version: Type.String(),
        retires_on: maybe(
          Type.String({ description: "The vendor's retirement date, if announced" }),
        ),
        warning: maybe(
          Type.String({ description: 'Set when the version is retired or will be within 60 days' }),
        ),
      },
      "The platform API and version this destination's uploads use",
    ),
  ),
  created_at: time,
  updated_at: time,
});

export const DestinationDetail = Type.Object({
  ...DestinationItem.properties,
  uploads: obj({
    last_success_at: maybe(time),
    pending: count,
    sent: count,
    failed: count,
    retracted: count,
    not_retractable: count,
    failed_by_reason: Type.Record(Type.String(), count),
  }),
});

export const UploadItem = obj({
  upload_id: Type.String(),
  call_id: Type.String(),
  kind: literals(UPLOAD_KINDS),
  dedupe_key: Type.String(),
  status: literals(UPLOAD_STATUSES),
  attempts: count,
  reason_code: maybe(Type.String()),
  reason: maybe(Type.String()),
  next_attempt_at: maybe(time),
  sent_at: maybe(time),
  created_at: time,
});

export const UploadAttemptItem = obj({
  attempt_id: Type.String(),
  upload_id: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  outcome: Type.String(),
  status_code: maybe(Type.Integer()),
  reason: maybe(Type.String()),
  started_at: time,
  finished_at: maybe(time),
});

export const DestinationTestResult = obj({
  destination_id: Type.String(),
  platform: literals(PLATFORMS),
  ok: Type.Boolean(),
  status_code: maybe(Type.Integer()),
  checked: Type.Array(Type.String(), {
    description: 'What the accepted test proved (empty when ok is false)',
  }),
  result: Type.Unknown({ description: "The platform's verdict on the sample" }),
  answer: Type.Unknown({ description: "The platform's answer, as sent" }),
});

export const UploadsQueued = obj({ destination_id: Type.String(), queued: count });
